import { describe, expect, it } from 'vitest';
import {
  checkToolCallAssertion,
  type ToolCallAssertion,
  type ToolCallRecord,
} from './tool-call-assertion.js';

function toolCall(toolName: string, args: unknown = {}): ToolCallRecord {
  return { toolName, args };
}

function assertion(
  tool: string,
  options: { args?: Record<string, unknown>; minCount?: number } = {},
): ToolCallAssertion {
  return { type: 'tool_call', tool, args: options.args ?? null, minCount: options.minCount ?? 1 };
}

const SQL = { sql_query: 'SELECT 1' };

describe('checkToolCallAssertion', () => {
  it.each<[string, ToolCallAssertion, ToolCallRecord[], boolean, number, string]>([
    [
      'called once, min 1',
      assertion('execute_sql'),
      [toolCall('execute_sql', SQL)],
      true,
      1,
      'tool_call: execute_sql (x1, min 1)',
    ],
    [
      'called twice, min 2',
      assertion('execute_sql', { minCount: 2 }),
      [toolCall('execute_sql'), toolCall('read'), toolCall('execute_sql')],
      true,
      2,
      'tool_call: execute_sql (x2, min 2)',
    ],
    [
      'more calls than needed',
      assertion('execute_sql', { minCount: 2 }),
      [toolCall('execute_sql'), toolCall('execute_sql'), toolCall('execute_sql')],
      true,
      3,
      'tool_call: execute_sql (x3, min 2)',
    ],
    [
      'args matched',
      assertion('execute_sql', { args: SQL, minCount: 2 }),
      [toolCall('execute_sql', SQL), toolCall('execute_sql', { ...SQL, database_id: 'wh' })],
      true,
      2,
      'tool_call: execute_sql (x2, min 2, args matched)',
    ],
    [
      'empty args match any call of the tool',
      assertion('read', { args: {} }),
      [toolCall('read', { path: 'RULES.md' })],
      true,
      1,
      'tool_call: read (x1, min 1, args matched)',
    ],
    [
      'too few calls',
      assertion('read', { minCount: 2 }),
      [toolCall('read'), toolCall('execute_sql')],
      false,
      1,
      'missing tool_call: read (found 1, need >= 2)',
    ],
    ['never called', assertion('read'), [], false, 0, 'missing tool_call: read (found 0, need >= 1)'],
    [
      'tool name is case-sensitive',
      assertion('execute_sql'),
      [toolCall('Execute_SQL')],
      false,
      0,
      'missing tool_call: execute_sql (found 0, need >= 1)',
    ],
    [
      'called with other args',
      assertion('execute_sql', { args: SQL }),
      [
        toolCall('execute_sql', { sql_query: 'SELECT 2' }),
        toolCall('execute_sql', { sql_query: 'select 1' }),
      ],
      false,
      0,
      'missing tool_call: execute_sql with args {"sql_query":"SELECT 1"} (found 0, need >= 1; 2 execute_sql calls with other args)',
    ],
    [
      'one call with matching args, one with other args, min 2',
      assertion('execute_sql', { args: SQL, minCount: 2 }),
      [toolCall('execute_sql', SQL), toolCall('execute_sql', { sql_query: 'SELECT 2' })],
      false,
      1,
      'missing tool_call: execute_sql with args {"sql_query":"SELECT 1"} (found 1, need >= 2; 1 execute_sql call with other args)',
    ],
    [
      'args given, tool never called',
      assertion('execute_sql', { args: SQL }),
      [toolCall('read', SQL)],
      false,
      0,
      'missing tool_call: execute_sql with args {"sql_query":"SELECT 1"} (found 0, need >= 1)',
    ],
    [
      'args given but the call carried none',
      assertion('execute_sql', { args: SQL }),
      [toolCall('execute_sql', undefined)],
      false,
      0,
      'missing tool_call: execute_sql with args {"sql_query":"SELECT 1"} (found 0, need >= 1; 1 execute_sql call with other args)',
    ],
  ])('%s', (_label, given, toolCalls, passed, matched, message) => {
    expect(checkToolCallAssertion({ assertion: given, toolCalls })).toEqual({ passed, matched, message });
  });
});
