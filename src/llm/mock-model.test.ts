import { generateText, jsonSchema, Output, streamText } from 'ai';
import { describe, expect, it } from 'vitest';
import { mockReferenceModel } from './mock-model.js';

describe('mockReferenceModel', () => {
  it('calls execute_sql with the reference SQL and database, then reports the result table', async () => {
    const inputs: unknown[] = [];
    const result = await generateText({
      model: mockReferenceModel({ sql: 'SELECT 1 AS one', databaseId: 'shop' }),
      prompt: 'How much?',
      tools: {
        execute_sql: {
          inputSchema: jsonSchema({ type: 'object' }),
          execute: async (input: unknown) => {
            inputs.push(input);
            return { id: 'query_0123abcd', row_count: 1 };
          },
        },
      },
      stopWhen: () => false,
    });
    expect(inputs).toEqual([{ sql_query: 'SELECT 1 AS one', database_id: 'shop' }]);
    expect(result.text).toContain('query_0123abcd');
    expect(result.totalUsage.totalTokens ?? 0).toBe(0);
  });

  it('writes the whole-table extraction over the table named in the request', async () => {
    const result = await generateText({
      model: mockReferenceModel({ sql: 'SELECT 1', databaseId: null }),
      prompt: 'Tables: query_89abcdef (1 row). Return the answer.',
      output: Output.object({
        schema: jsonSchema<{ sql: string | null }>({
          type: 'object',
          properties: { sql: { type: 'string' } },
        }),
        name: 'extraction_query',
      }),
    });
    expect(result.output).toEqual({ sql: 'SELECT * FROM query_89abcdef' });
  });

  it('refuses to grade answers (a judge call) rather than invent a verdict', async () => {
    const judging = generateText({
      model: mockReferenceModel(),
      prompt: 'Grade this answer.',
      maxRetries: 0,
      output: Output.object({
        schema: jsonSchema<{ verdict: string }>({
          type: 'object',
          properties: { verdict: { type: 'string' } },
        }),
        name: 'answer_judgement',
      }),
    });
    await expect(judging).rejects.toThrow(/cannot grade answers/);
  });

  it('streams (the chat) and says what it is for when it has no reference', async () => {
    const result = streamText({ model: mockReferenceModel(), prompt: 'Which product sells best?' });
    expect(await result.text).toContain('answers only tests with reference SQL');
  });
});
