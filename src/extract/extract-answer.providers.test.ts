/**
 * Extraction through the real provider packages, against the wire-protocol test server:
 * what actually goes over the wire (structured output request, a history every provider
 * accepts) and what comes back (parsed SQL, usage).
 */
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import type { LanguageModel, ModelMessage } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestLlmServer, type TestLlmServer } from '../../test-support/llm-server/index.js';
import { DEFAULT_CALL_SETTINGS, ProviderError, resolveModel } from '../llm/index.js';
import type { CellValue } from '../warehouse/index.js';
import { ExtractionModelError, extractAnswer } from './extract-answer.js';
import type { SourceTable } from './load-tables.js';

const ID = 'query_5e6f7a8b';
const ROWS: CellValue[][] = Array.from({ length: 120 }, (_, i) => [`customer_${i}`, `${i}.50`]);
const RESULTS = new Map<string, SourceTable>([
  [
    ID,
    {
      id: ID,
      columns: [
        { name: 'customer', type: 'text' },
        { name: 'spend', type: 'numeric(12,2)' },
      ],
      rows: ROWS,
    },
  ],
]);
const RESPONSE_MESSAGES: ModelMessage[] = [
  {
    role: 'assistant',
    content: [
      {
        type: 'tool-call',
        toolCallId: 'call_1',
        toolName: 'execute_sql',
        input: { sql_query: 'SELECT customer, spend FROM customers' },
      },
    ],
  },
  {
    role: 'tool',
    content: [
      {
        type: 'tool-result',
        toolCallId: 'call_1',
        toolName: 'execute_sql',
        output: { type: 'json', value: { id: ID, row_count: 120, rows: ROWS.slice(0, 3) } },
      },
    ],
  },
  { role: 'assistant', content: 'All 120 customers with their spend are listed in the query result.' },
];

let server: TestLlmServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

const PROVIDERS: [string, (url: string) => LanguageModel][] = [
  ['openai responses', (url) => createOpenAI({ baseURL: url, apiKey: 'test-key' }).responses('gpt-4.1')],
  ['openai chat', (url) => createOpenAI({ baseURL: url, apiKey: 'test-key' }).chat('gpt-4.1')],
  ['anthropic messages', (url) => createAnthropic({ baseURL: url, apiKey: 'test-key' })('claude-sonnet-4-5')],
];

describe('extractAnswer over the wire', () => {
  it.each(PROVIDERS)('%s: repairs once and extracts every row', async (_label, createModel) => {
    server = await startTestLlmServer({
      script: [
        {
          json: { sql: `SELECT customer, spend FROM ${ID} WHERE spend > 'x'` },
          usage: { input: 900, output: 30 },
        },
        {
          json: { sql: `SELECT customer, spend FROM ${ID} ORDER BY spend DESC` },
          usage: { input: 1000, output: 25 },
        },
      ],
    });
    const result = await extractAnswer({
      model: { id: 'test:model', model: createModel(server.url), prices: { inputNoCache: 1, output: 4 } },
      question: 'How much did each customer spend?',
      responseMessages: RESPONSE_MESSAGES,
      queryResults: RESULTS,
      expectedColumns: ['customer', 'spend'],
    });

    expect(result.error).toBeNull();
    expect(result.attempts).toBe(2);
    expect(result.data?.rows).toHaveLength(120);
    expect(result.data?.rows[0]).toEqual(['customer_119', '119.50']);
    expect(result.usage.inputTotalTokens).toBe(1900);
    expect(result.usage.outputTotalTokens).toBe(55);
    expect(result.cost?.totalCost).toBeCloseTo((1900 * 1 + 55 * 4) / 1_000_000, 12);

    const [first, second] = server.requests;
    expect(first?.wantsJson).toBe(true);
    expect(first?.tools).toEqual([]);
    const roles = first?.messages.map((message) => message.role).filter((role) => role !== 'system');
    expect(roles?.[0]).toBe('user');
    expect(roles).not.toContain('tool');
    expect(first?.messages.at(-1)?.content).toContain(
      `"${ID}": 120 rows; columns: "customer" VARCHAR, "spend" DECIMAL(12,2)`,
    );
    expect(second?.messages.at(-2)).toMatchObject({
      role: 'assistant',
      content: expect.stringContaining("spend > 'x'"),
    });
    expect(second?.messages.at(-1)).toMatchObject({
      role: 'user',
      content: expect.stringContaining('That query failed with:'),
    });
  });

  it("reports a provider that keeps failing with nao's message, after the retries", async () => {
    server = await startTestLlmServer({
      script: () => ({
        status: 529,
        headers: { 'retry-after-ms': '0' },
        errorBody: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
      }),
    });
    const resolved = resolveModel({
      modelString: 'anthropic:claude-sonnet-4-5',
      config: { llm: { providers: [{ provider: 'anthropic', base_url: server.url, models: [] }] } },
      env: { ANTHROPIC_API_KEY: 'sk-ant-test-0123456789abcdef' },
    });
    const error = await extractAnswer({
      model: resolved,
      question: 'How much did each customer spend?',
      responseMessages: RESPONSE_MESSAGES,
      queryResults: RESULTS,
      expectedColumns: ['customer', 'spend'],
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ExtractionModelError);
    expect((error as Error).cause).toBeInstanceOf(ProviderError);
    expect((error as Error).message).toBe(
      'The extraction call to anthropic:claude-sonnet-4-5 failed (attempt 1): anthropic:claude-sonnet-4-5 failed with HTTP 529 after 5 attempts: Overloaded (overloaded_error) The provider had a server error; try again later.',
    );
    expect(server.requests).toHaveLength(1 + DEFAULT_CALL_SETTINGS.maxRetries);
  });
});
