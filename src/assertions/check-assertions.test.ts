import { describe, expect, it } from 'vitest';
import { runFacts } from '../../test-support/assertions/run-facts.js';
import type { Assertion } from './assertion.js';
import { checkAssertions } from './check-assertions.js';
import type { ToolCallRecord } from './tool-call-assertion.js';

function toolCall(toolName: string, args: unknown = {}): ToolCallRecord {
  return { toolName, args };
}

function assertion(
  tool: string,
  options: { args?: Record<string, unknown>; minCount?: number } = {},
): Assertion {
  return { type: 'tool_call', tool, args: options.args ?? null, minCount: options.minCount ?? 1 };
}

const SQL = { sql_query: 'SELECT 1' };

describe('checkAssertions: several assertions', () => {
  const calls = [toolCall('execute_sql', SQL), toolCall('read', { path: 'RULES.md' })];

  it('passes when every assertion passes and joins the messages in order', () => {
    const report = checkAssertions({
      assertions: [assertion('read'), assertion('execute_sql')],
      facts: runFacts({ toolCalls: calls }),
    });
    expect(report.passed).toBe(true);
    expect(report.message).toBe('tool_call: read (x1, min 1); tool_call: execute_sql (x1, min 1)');
  });

  it('fails when any assertion fails and still reports every one', () => {
    const report = checkAssertions({
      assertions: [assertion('execute_sql'), assertion('grep'), assertion('read', { minCount: 3 })],
      facts: runFacts({ toolCalls: calls }),
    });
    expect(report.passed).toBe(false);
    expect(report.results.map((result) => result.passed)).toEqual([true, false, false]);
    expect(report.message).toBe(
      'tool_call: execute_sql (x1, min 1); missing tool_call: grep (found 0, need >= 1); ' +
        'missing tool_call: read (found 1, need >= 3)',
    );
  });

  it('passes vacuously with an empty message when there are no assertions', () => {
    expect(checkAssertions({ assertions: [], facts: runFacts({ toolCalls: calls }) })).toEqual({
      passed: true,
      message: '',
      results: [],
      error: null,
    });
  });
});

describe('checkAssertions: results', () => {
  it('keeps each assertion with its outcome, in declaration order', () => {
    const withArgs = assertion('execute_sql', { args: SQL, minCount: 2 });
    const report = checkAssertions({
      assertions: [withArgs, assertion('read')],
      facts: runFacts({ toolCalls: [toolCall('execute_sql', SQL), toolCall('execute_sql', SQL)] }),
    });
    expect(report.results).toEqual([
      {
        assertion: withArgs,
        passed: true,
        matched: 2,
        message: 'tool_call: execute_sql (x2, min 2, args matched)',
      },
      {
        assertion: assertion('read'),
        passed: false,
        matched: 0,
        message: 'missing tool_call: read (found 0, need >= 1)',
      },
    ]);
  });
});

describe('checkAssertions: facts a run lacks', () => {
  it('reports an assertion that cannot be checked as the error, beside the outcomes of the others', () => {
    const report = checkAssertions({
      assertions: [
        { type: 'max_cost_usd', max: 0.01 },
        { type: 'row_count', equals: 2, min: null, max: null },
      ],
      facts: runFacts({ costUsd: null, answer: { kind: 'data', columns: ['x'], rowCount: 2 } }),
    });
    expect(report.passed).toBe(false);
    expect(report.results.map((result) => result.passed)).toEqual([false, true]);
    expect(report.error).toBe(
      'max_cost_usd cannot be checked: the model has no price (give it `costs` under llm.providers[].models in nao_config.yaml)',
    );
  });
});
