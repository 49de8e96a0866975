import { describe, expect, it } from 'vitest';
import { assertionsSchema } from './assertion.js';

function issuesOf(input: unknown): string[] {
  const parsed = assertionsSchema.safeParse(input);
  if (parsed.success) return [];
  return parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
}

describe('assertionsSchema', () => {
  it.each([
    ['absent', undefined, []],
    ['null (YAML `assertions:` with nothing after it)', null, []],
    ['empty list', [], []],
    [
      'minimal tool_call',
      [{ type: 'tool_call', tool: 'execute_sql' }],
      [{ type: 'tool_call', tool: 'execute_sql', args: null, minCount: 1 }],
    ],
    [
      'full tool_call',
      [{ type: 'tool_call', tool: ' read ', args: { path: 'RULES.md' }, min_count: 2 }],
      [{ type: 'tool_call', tool: 'read', args: { path: 'RULES.md' }, minCount: 2 }],
    ],
    [
      'args: null means no args',
      [{ type: 'tool_call', tool: 'read', args: null }],
      [{ type: 'tool_call', tool: 'read', args: null, minCount: 1 }],
    ],
  ])('accepts %s', (_label, input, expected) => {
    expect(assertionsSchema.parse(input)).toEqual(expected);
  });

  it.each([
    ['a list is required', { type: 'tool_call', tool: 'x' }, ': must be a list of assertions'],
    ['an entry must be a mapping', ['execute_sql'], '0: must be a mapping'],
    ['type is required', [{ tool: 'x' }], '0.type: is required (supported: tool_call, row_count, columns'],
    [
      'unknown type',
      [{ type: 'llm_judge' }],
      '0.type: unknown assertion type "llm_judge" (supported: tool_call, row_count, columns',
    ],
    ['type must be a string', [{ type: 3, tool: 'x' }], '0.type: unknown assertion type 3'],
    ['tool is required', [{ type: 'tool_call' }], '0.tool: must be a non-empty string'],
    ['tool must not be blank', [{ type: 'tool_call', tool: '  ' }], '0.tool: must be a non-empty string'],
    ['tool must be a string', [{ type: 'tool_call', tool: 5 }], '0.tool: must be a non-empty string'],
    ['args must be a mapping', [{ type: 'tool_call', tool: 'x', args: ['a'] }], '0.args: must be a mapping'],
    ['args must not be a scalar', [{ type: 'tool_call', tool: 'x', args: 'a' }], '0.args: must be a mapping'],
    ['min_count 0', [{ type: 'tool_call', tool: 'x', min_count: 0 }], '0.min_count: must be an integer >= 1'],
    [
      'min_count negative',
      [{ type: 'tool_call', tool: 'x', min_count: -2 }],
      '0.min_count: must be an integer >= 1',
    ],
    [
      'min_count fraction',
      [{ type: 'tool_call', tool: 'x', min_count: 1.5 }],
      '0.min_count: must be an integer >= 1',
    ],
    [
      'min_count string',
      [{ type: 'tool_call', tool: 'x', min_count: '2' }],
      '0.min_count: must be an integer >= 1',
    ],
    [
      'min_count boolean',
      [{ type: 'tool_call', tool: 'x', min_count: true }],
      '0.min_count: must be an integer >= 1',
    ],
    [
      'min_count null',
      [{ type: 'tool_call', tool: 'x', min_count: null }],
      '0.min_count: must be an integer >= 1',
    ],
    [
      'unknown field',
      [{ type: 'tool_call', tool: 'x', mincount: 2 }],
      '0.mincount: unknown field of a tool_call assertion (allowed: type, tool, args, min_count)',
    ],
  ])('rejects: %s', (_label, input, expected) => {
    const issues = issuesOf(input);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toContain(expected);
  });

  it('reports the index of the bad entry and every problem in it', () => {
    const issues = issuesOf([
      { type: 'tool_call', tool: 'ok' },
      { type: 'tool_call', tool: '', min_count: 0, extra: 1 },
    ]);
    expect(issues).toEqual([
      '1.tool: must be a non-empty string (the tool name, e.g. execute_sql)',
      '1.min_count: must be an integer >= 1',
      '1.extra: unknown field of a tool_call assertion (allowed: type, tool, args, min_count)',
    ]);
  });
});
