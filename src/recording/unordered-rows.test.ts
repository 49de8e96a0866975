import { describe, expect, it } from 'vitest';
import { summarizeRequest } from './request-summary.js';
import { withUnorderedRows } from './unordered-rows.js';

const RESULT = {
  id: 'query_0123abcd',
  database_id: 'shop',
  columns: [{ name: 'status', type: 'VARCHAR' }],
  row_count: 3,
  rows: [['shipped'], ['placed'], ['returned']],
  has_more: false,
};
const REORDERED = { ...RESULT, rows: [['returned'], ['shipped'], ['placed']] };
const OTHER_ROWS = { ...RESULT, rows: [['returned'], ['shipped'], ['cancelled']] };

/** Step 2 of an agent run on each wire protocol, carrying `result` as the tool output. */
const PROTOCOLS: [string, (result: object) => unknown][] = [
  [
    'OpenAI Responses',
    (result) => ({
      model: 'gpt-4.1',
      input: [{ type: 'function_call_output', call_id: 'c1', output: JSON.stringify(result) }],
    }),
  ],
  [
    'OpenAI Chat',
    (result) => ({
      model: 'gpt-4.1',
      messages: [{ role: 'tool', tool_call_id: 'c1', content: JSON.stringify(result) }],
    }),
  ],
  [
    'Anthropic',
    (result) => ({
      model: 'claude',
      messages: [
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: 't1',
              content: [{ type: 'text', text: JSON.stringify(result) }],
            },
          ],
        },
      ],
    }),
  ],
  [
    'Gemini',
    (result) => ({
      contents: [
        {
          role: 'user',
          parts: [
            { functionResponse: { name: 'execute_sql', response: { name: 'execute_sql', content: result } } },
          ],
        },
      ],
    }),
  ],
  [
    "nao's extraction transcript",
    (result) => ({
      model: 'gpt-4.1',
      input: [
        {
          role: 'user',
          content: `[Result of tool execute_sql (call c1): ${JSON.stringify(result)}]\nMore text.`,
        },
      ],
    }),
  ],
];

function hashOf(body: unknown): string {
  return summarizeRequest({ body: JSON.stringify(body), path: '/v1/responses' }).hash;
}

describe('query result rows are matched as a set', () => {
  it.each(PROTOCOLS)('%s: the same rows in another order match', (_label, build) => {
    expect(hashOf(build(REORDERED))).toBe(hashOf(build(RESULT)));
  });

  it.each(PROTOCOLS)('%s: other rows do not match', (_label, build) => {
    expect(hashOf(build(OTHER_ROWS))).not.toBe(hashOf(build(RESULT)));
  });

  it('keeps the order of anything that is not a query result', () => {
    const list = {
      input: [{ role: 'user', content: JSON.stringify({ id: 'x', columns: [], rows: [[2], [1]] }) }],
    };
    const swapped = {
      input: [{ role: 'user', content: JSON.stringify({ id: 'x', columns: [], rows: [[1], [2]] }) }],
    };
    expect(hashOf(list)).not.toBe(hashOf(swapped));
  });

  it.each([
    ['text without results', 'plain text'],
    ['an unclosed result', '[Result: {"id":"query_0123abcd","rows":[['],
    ['a result-like prefix that is not JSON', '{"id":"query_0123abcd", oops}'],
    ['braces inside strings', `x ${JSON.stringify({ ...RESULT, rows: [['}{'], ['"]']] })} y`],
  ])('leaves odd text intact or normalised without crashing: %s', (_label, text) => {
    const out = withUnorderedRows(text);
    expect(typeof out === 'string' || typeof out === 'object').toBe(true);
    expect(withUnorderedRows(text)).toEqual(out);
  });

  it('sorts several results inside one text and keeps the text around them', () => {
    const text = `a ${JSON.stringify(REORDERED)} b ${JSON.stringify({ ...REORDERED, id: 'query_89abcdef' })} c`;
    const out = withUnorderedRows(text) as string;
    expect(out.startsWith('a {')).toBe(true);
    expect(out.endsWith('} c')).toBe(true);
    expect(out).toContain(' b {');
    expect(out).toBe(
      withUnorderedRows(text.replaceAll(JSON.stringify(REORDERED.rows), JSON.stringify(RESULT.rows))),
    );
  });
});
