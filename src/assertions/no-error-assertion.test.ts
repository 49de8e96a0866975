import { describe, expect, it } from 'vitest';
import { runFacts } from '../../test-support/assertions/run-facts.js';
import { assertionsSchema } from './assertion.js';
import { checkNoErrorAssertion } from './no-error-assertion.js';
import type { ToolCallRecord } from './tool-call-assertion.js';

const ok = (toolName: string): ToolCallRecord => ({ toolName, args: {}, result: { rows: [[1]] } });
const failed = (toolName: string, error: string): ToolCallRecord => ({
  toolName,
  args: {},
  result: { error },
});

describe('no_error', () => {
  it.each<[string, ToolCallRecord[], boolean, string]>([
    ['no calls', [], true, 'no_error: 0 tool calls, none failed'],
    ['every call succeeded', [ok('execute_sql'), ok('read')], true, 'no_error: 2 tool calls, none failed'],
    [
      'a call that never ran is no failure',
      [{ toolName: 'execute_sql', args: {}, result: null }],
      true,
      'no_error: 1 tool call, none failed',
    ],
    [
      'a result that merely holds an error column is no failure',
      [{ toolName: 'execute_sql', args: {}, result: { error: 'x', rows: [] } }],
      true,
      'no_error: 1 tool call, none failed',
    ],
    [
      'a failed call, named with its error',
      [
        ok('read'),
        failed('execute_sql', 'Catalog Error: Table with name order does not exist!'),
        failed('grep', 'bad pattern'),
      ],
      false,
      'no_error: 2 of 3 tool calls failed, first execute_sql: Catalog Error: Table with name order does not exist!',
    ],
  ])('%s', (_label, toolCalls, passed, message) => {
    expect(
      checkNoErrorAssertion({ assertion: { type: 'no_error' }, facts: runFacts({ toolCalls }) }),
    ).toEqual({
      passed,
      message,
    });
  });

  it('takes no fields but type', () => {
    expect(assertionsSchema.parse([{ type: 'no_error' }])).toEqual([{ type: 'no_error' }]);
    expect(
      assertionsSchema.safeParse([{ type: 'no_error', tool: 'execute_sql' }]).error?.issues[0]?.message,
    ).toBe('unknown field of a no_error assertion (allowed: type)');
  });
});
