import type { ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { extractionRequest, repairRequest, tableInventory, transcriptMessages } from './extraction-prompt.js';

const toolResult = (output: unknown): ModelMessage => ({
  role: 'tool',
  content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'execute_sql', output } as never],
});

describe('transcriptMessages', () => {
  it('turns tool calls and results into text, drops system turns and merges neighbours of one role', () => {
    const messages = transcriptMessages([
      { role: 'user', content: 'How many orders?' },
      { role: 'system', content: 'You are nao.' },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'thinking' },
          { type: 'text', text: 'Let me check.' },
          { type: 'tool-call', toolCallId: 'c1', toolName: 'execute_sql', input: { sql_query: 'SELECT 1' } },
        ],
      },
      toolResult({ type: 'json', value: { id: 'query_1', rows: [[42]] } }),
      { role: 'assistant', content: 'There are 42 orders.' },
      { role: 'user', content: 'Extract it.' },
    ]);
    expect(messages).toEqual([
      { role: 'user', content: 'How many orders?' },
      {
        role: 'assistant',
        content: 'Let me check.\n[Called tool execute_sql (call c1) with input: {"sql_query":"SELECT 1"}]',
      },
      { role: 'user', content: '[Result of tool execute_sql (call c1): {"id":"query_1","rows":[[42]]}]' },
      { role: 'assistant', content: 'There are 42 orders.' },
      { role: 'user', content: 'Extract it.' },
    ]);
  });

  it('merges a tool result with the user turn that follows it', () => {
    const messages = transcriptMessages([
      toolResult({ type: 'text', value: 'ok' }),
      { role: 'user', content: 'Next' },
    ]);
    expect(messages).toEqual([
      { role: 'user', content: '[Result of tool execute_sql (call c1): ok]\n\nNext' },
    ]);
  });

  it.each([
    [{ type: 'text', value: 'plain' }, 'plain'],
    [{ type: 'error-text', value: 'The query failed: boom' }, 'The query failed: boom'],
    [{ type: 'error-json', value: { error: 'boom' } }, '{"error":"boom"}'],
    [{ type: 'execution-denied', reason: 'not allowed' }, 'execution denied: not allowed'],
    [
      {
        type: 'content',
        value: [
          { type: 'text', text: 'a' },
          { type: 'media', data: 'x' },
        ],
      },
      'a',
    ],
  ])('renders tool output %j', (output, text) => {
    expect(transcriptMessages([toolResult(output)])).toEqual([
      { role: 'user', content: `[Result of tool execute_sql (call c1): ${text}]` },
    ]);
  });

  it('drops turns left empty', () => {
    expect(
      transcriptMessages([{ role: 'assistant', content: [{ type: 'reasoning', text: 'only thoughts' }] }]),
    ).toEqual([]);
  });
});

describe('extraction request', () => {
  const tables = [
    {
      id: 'query_1',
      rowCount: 1,
      truncated: true,
      columns: [
        { name: 'a "b"', type: 'VARCHAR' },
        { name: 'n', type: 'BIGINT' },
      ],
    },
    { id: 'query_2', rowCount: 0, truncated: false, columns: [] },
  ];

  it('lists each table with its size, truncation and quoted columns', () => {
    expect(tableInventory(tables)).toBe(
      '- "query_1": 1 row (cut at the row limit: not the whole result); columns: "a ""b""" VARCHAR, "n" BIGINT\n' +
        '- "query_2": no columns (not queryable)',
    );
  });

  it('states the question, the expected columns and the rules', () => {
    const text = extractionRequest({
      question: 'Top customer?',
      tables,
      expectedColumns: ['customer', 'total spend'],
    });
    expect(text).toContain('The question was: Top customer?');
    expect(text).toContain('Return exactly these columns, with these names: "customer", "total spend"');
    expect(text).toContain('Apply the same filters, aggregations and ordering as the answer you gave.');
  });

  it('keeps the answer’s own column names when there is no reference to name them', () => {
    const text = extractionRequest({ question: 'Top customers?', tables, expectedColumns: [] });
    expect(text).toContain(
      '- Return the columns of your answer, with the column names of your query results.',
    );
    expect(text).not.toContain('Return exactly these columns');
  });

  it('asks for a corrected query after a failure', () => {
    expect(repairRequest('Binder Error: no column x')).toBe(
      'That query failed with: Binder Error: no column x\n\n' +
        'Return a corrected DuckDB query, or set sql to null if the tables cannot answer the question.',
    );
  });
});
