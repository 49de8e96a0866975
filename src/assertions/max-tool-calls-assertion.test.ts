import { describe, expect, it } from 'vitest';
import { runFacts } from '../../test-support/assertions/run-facts.js';
import { assertionsSchema } from './assertion.js';
import { checkMaxToolCallsAssertion, type MaxToolCallsAssertion } from './max-tool-calls-assertion.js';

const calls = (...names: string[]) => names.map((toolName) => ({ toolName, args: {} }));

describe('max_tool_calls', () => {
  it.each<[string, MaxToolCallsAssertion, string[], boolean, string]>([
    [
      'under the max',
      { type: 'max_tool_calls', max: 3, tool: null },
      ['read', 'execute_sql'],
      true,
      'max_tool_calls: 2 calls (max 3)',
    ],
    [
      'at the max',
      { type: 'max_tool_calls', max: 2, tool: null },
      ['read', 'execute_sql'],
      true,
      'max_tool_calls: 2 calls (max 2)',
    ],
    [
      'over the max',
      { type: 'max_tool_calls', max: 1, tool: null },
      ['read', 'execute_sql', 'execute_sql'],
      false,
      'too many tool calls: 3 calls, max 1',
    ],
    [
      'max 0 with no call',
      { type: 'max_tool_calls', max: 0, tool: null },
      [],
      true,
      'max_tool_calls: 0 calls (max 0)',
    ],
    [
      'only the named tool counts',
      { type: 'max_tool_calls', max: 1, tool: 'execute_sql' },
      ['read', 'grep', 'execute_sql', 'execute_sql'],
      false,
      'too many tool calls: 2 execute_sql calls, max 1',
    ],
  ])('%s', (_label, assertion, names, passed, message) => {
    expect(
      checkMaxToolCallsAssertion({ assertion, facts: runFacts({ toolCalls: calls(...names) }) }),
    ).toEqual({
      passed,
      message,
    });
  });

  it('needs max as an integer >= 0', () => {
    expect(assertionsSchema.parse([{ type: 'max_tool_calls', max: 4, tool: 'read' }])).toEqual([
      { type: 'max_tool_calls', max: 4, tool: 'read' },
    ]);
    for (const max of [undefined, -1, 1.5, '3']) {
      expect(assertionsSchema.safeParse([{ type: 'max_tool_calls', max }]).error?.issues[0]?.message).toBe(
        'must be an integer >= 0',
      );
    }
  });
});
