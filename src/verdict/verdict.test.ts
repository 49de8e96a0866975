import { describe, expect, it } from 'vitest';
import { runFacts } from '../../test-support/assertions/run-facts.js';
import { type AssertionReport, checkAssertions } from '../assertions/index.js';
import type { TestCase } from '../test-files/index.js';
import { type CheckOutcome as ComparisonResult, decideVerdict, type Verdict } from './verdict.js';

type TestShape = Pick<TestCase, 'sql' | 'expectedAnswer' | 'assertions'>;

const SQL_ONLY: TestShape = { sql: 'SELECT 1', expectedAnswer: null, assertions: [] };
const ASSERTIONS_ONLY: TestShape = {
  sql: null,
  expectedAnswer: null,
  assertions: [{ type: 'tool_call', tool: 'execute_sql', args: null, minCount: 1 }],
};
const BOTH: TestShape = { sql: 'SELECT 1', expectedAnswer: null, assertions: ASSERTIONS_ONLY.assertions };
const NEITHER: TestShape = { sql: null, expectedAnswer: null, assertions: [] };
const JUDGED: TestShape = { sql: null, expectedAnswer: 'Acme Corp', assertions: [] };
const JUDGED_WITH_ASSERTIONS: TestShape = { ...JUDGED, assertions: ASSERTIONS_ONLY.assertions };

const MATCH: ComparisonResult = { passed: true, message: 'match' };
const DIFFER: ComparisonResult = { passed: false, message: 'values differ' };
const CALLED = checkAssertions({
  assertions: ASSERTIONS_ONLY.assertions,
  facts: runFacts({ toolCalls: [{ toolName: 'execute_sql', args: { sql_query: 'SELECT 1' } }] }),
});
const NOT_CALLED = checkAssertions({ assertions: ASSERTIONS_ONLY.assertions, facts: runFacts() });
const JUDGE_PASS: ComparisonResult = { passed: true, message: 'Names Acme Corp as the biggest customer.' };
const JUDGE_FAIL: ComparisonResult = { passed: false, message: 'Names Globex instead of Acme Corp.' };

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
      checkAssertions({ assertions: [], facts: runFacts() }),
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
      { status: 'error', passed: false, message: 'the assertions were not checked' },
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
    expect(decideVerdict({ test, comparison, judged: null, assertions, error })).toEqual(expected);
  });

  it.each<[string, TestShape, ComparisonResult | null, AssertionReport | null, string | null, Verdict]>([
    [
      'the judge accepts the answer: passed, with its reason',
      JUDGED,
      JUDGE_PASS,
      null,
      null,
      { status: 'passed', passed: true, message: 'Names Acme Corp as the biggest customer.' },
    ],
    [
      'the judge rejects it: failed, with its reason',
      JUDGED,
      JUDGE_FAIL,
      null,
      null,
      { status: 'failed', passed: false, message: 'Names Globex instead of Acme Corp.' },
    ],
    [
      'an expected answer that was not graded cannot pass',
      JUDGED,
      null,
      null,
      null,
      { status: 'error', passed: false, message: 'the answer was not graded by the judge model' },
    ],
    [
      'the judge accepts but an assertion fails',
      JUDGED_WITH_ASSERTIONS,
      JUDGE_PASS,
      NOT_CALLED,
      null,
      {
        status: 'failed',
        passed: false,
        message:
          'Names Acme Corp as the biggest customer.; missing tool_call: execute_sql (found 0, need >= 1)',
      },
    ],
    [
      'a grading for a test without an expected answer is ignored',
      ASSERTIONS_ONLY,
      JUDGE_FAIL,
      CALLED,
      null,
      { status: 'passed', passed: true, message: 'tool_call: execute_sql (x1, min 1)' },
    ],
  ])('judged: %s', (_label, test, judged, assertions, error, expected) => {
    expect(decideVerdict({ test, comparison: null, judged, assertions, error })).toEqual(expected);
  });

  it('counts only `passed` as a pass', () => {
    const statuses: Array<[Verdict['status'], boolean]> = [
      decideVerdict({ test: SQL_ONLY, comparison: MATCH, judged: null, assertions: null, error: null }),
      decideVerdict({ test: SQL_ONLY, comparison: DIFFER, judged: null, assertions: null, error: null }),
      decideVerdict({ test: SQL_ONLY, comparison: MATCH, judged: null, assertions: null, error: 'boom' }),
      decideVerdict({ test: NEITHER, comparison: null, judged: null, assertions: null, error: null }),
    ].map((verdict) => [verdict.status, verdict.passed]);
    expect(statuses).toEqual([
      ['passed', true],
      ['failed', false],
      ['error', false],
      ['unverified', false],
    ]);
  });
});
