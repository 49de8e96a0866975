import { describe, expect, it } from 'vitest';
import type { TestCase } from '../test-files/index.js';
import { type AssertionReport, checkAssertions } from './assertions/index.js';
import { type CheckOutcome as ComparisonResult, decideVerdict, type Verdict } from './verdict.js';

type TestShape = Pick<TestCase, 'sql' | 'assertions'>;

const SQL_ONLY: TestShape = { sql: 'SELECT 1', assertions: [] };
const ASSERTIONS_ONLY: TestShape = {
  sql: null,
  assertions: [{ type: 'tool_call', tool: 'execute_sql', args: null, minCount: 1 }],
};
const BOTH: TestShape = { sql: 'SELECT 1', assertions: ASSERTIONS_ONLY.assertions };
const NEITHER: TestShape = { sql: null, assertions: [] };

const MATCH: ComparisonResult = { passed: true, message: 'match' };
const DIFFER: ComparisonResult = { passed: false, message: 'values differ' };
const CALLED = checkAssertions({
  assertions: ASSERTIONS_ONLY.assertions,
  toolCalls: [{ toolName: 'execute_sql', args: { sql_query: 'SELECT 1' } }],
});
const NOT_CALLED = checkAssertions({ assertions: ASSERTIONS_ONLY.assertions, toolCalls: [] });

describe('decideVerdict', () => {
  it.each<[string, TestShape, ComparisonResult | null, AssertionReport | null, string | null, Verdict]>([
    ['data matches', SQL_ONLY, MATCH, null, null, { status: 'passed', passed: true, message: 'match' }],
    [
      'data differs',
      SQL_ONLY,
      DIFFER,
      null,
      null,
      { status: 'failed', passed: false, message: 'values differ' },
    ],
    [
      'assertions hold',
      ASSERTIONS_ONLY,
      null,
      CALLED,
      null,
      { status: 'passed', passed: true, message: 'tool_call: execute_sql (x1, min 1)' },
    ],
    [
      'assertions fail',
      ASSERTIONS_ONLY,
      null,
      NOT_CALLED,
      null,
      { status: 'failed', passed: false, message: 'missing tool_call: execute_sql (found 0, need >= 1)' },
    ],
    [
      'data and assertions both pass',
      BOTH,
      MATCH,
      CALLED,
      null,
      { status: 'passed', passed: true, message: 'match; tool_call: execute_sql (x1, min 1)' },
    ],
    [
      'data matches but an assertion fails',
      BOTH,
      MATCH,
      NOT_CALLED,
      null,
      {
        status: 'failed',
        passed: false,
        message: 'match; missing tool_call: execute_sql (found 0, need >= 1)',
      },
    ],
    [
      'assertions hold but data differs',
      BOTH,
      DIFFER,
      CALLED,
      null,
      { status: 'failed', passed: false, message: 'values differ; tool_call: execute_sql (x1, min 1)' },
    ],
    [
      'an error wins over a passing comparison',
      BOTH,
      MATCH,
      CALLED,
      'reference SQL failed: no such table orders',
      { status: 'error', passed: false, message: 'reference SQL failed: no such table orders' },
    ],
    [
      'an error without results',
      SQL_ONLY,
      null,
      null,
      'HTTP 502 from the backend',
      { status: 'error', passed: false, message: 'HTTP 502 from the backend' },
    ],
    [
      'an empty error text is still an error',
      SQL_ONLY,
      MATCH,
      null,
      '  ',
      { status: 'error', passed: false, message: 'error (no details given)' },
    ],
    [
      'nothing to verify',
      NEITHER,
      null,
      null,
      null,
      { status: 'unverified', passed: false, message: 'no verification' },
    ],
    [
      'nothing to verify, even when a comparison was passed in',
      NEITHER,
      MATCH,
      checkAssertions({ assertions: [], toolCalls: [] }),
      null,
      { status: 'unverified', passed: false, message: 'no verification' },
    ],
    [
      'an error on a test with nothing to verify is an error',
      NEITHER,
      null,
      null,
      'provider timeout',
      { status: 'error', passed: false, message: 'provider timeout' },
    ],
    [
      'reference SQL but no comparison',
      SQL_ONLY,
      null,
      null,
      null,
      { status: 'error', passed: false, message: 'the data was not compared with the reference SQL' },
    ],
    [
      'assertions but no report',
      BOTH,
      MATCH,
      null,
      null,
      { status: 'error', passed: false, message: 'the tool-call assertions were not checked' },
    ],
    [
      'a comparison for a test without SQL is ignored',
      ASSERTIONS_ONLY,
      DIFFER,
      CALLED,
      null,
      { status: 'passed', passed: true, message: 'tool_call: execute_sql (x1, min 1)' },
    ],
  ])('%s', (_label, test, comparison, assertions, error, expected) => {
    expect(decideVerdict({ test, comparison, assertions, error })).toEqual(expected);
  });

  it('counts only `passed` as a pass', () => {
    const statuses: Array<[Verdict['status'], boolean]> = [
      decideVerdict({ test: SQL_ONLY, comparison: MATCH, assertions: null, error: null }),
      decideVerdict({ test: SQL_ONLY, comparison: DIFFER, assertions: null, error: null }),
      decideVerdict({ test: SQL_ONLY, comparison: MATCH, assertions: null, error: 'boom' }),
      decideVerdict({ test: NEITHER, comparison: null, assertions: null, error: null }),
    ].map((verdict) => [verdict.status, verdict.passed]);
    expect(statuses).toEqual([
      ['passed', true],
      ['failed', false],
      ['error', false],
      ['unverified', false],
    ]);
  });
});
