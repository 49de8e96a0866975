import type { ModelMessage } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, expectTypeOf, it, vi } from 'vitest';
import type { AgentModel, AgentRunResult } from '../agent/index.js';
import { NaoError } from '../errors/index.js';
import { ProcessPool } from '../process-pool/process-pool.js';
import type { CellValue } from '../warehouse/index.js';
import {
  type ExtractAnswerOptions,
  ExtractionModelError,
  extractAnswer,
  NO_ANSWER_ERROR,
  NO_QUERY_ERROR,
} from './extract-answer.js';
import type { SourceTable } from './load-tables.js';

type GenerateResult = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>;
type CallOptions = MockLanguageModelV3['doGenerateCalls'][number];

const ID = 'query_1a2b3c4d';
const QUESTION = 'What is the revenue of each region?';

/** 200 regions; the agent saw only the first 5 of them. */
const ROWS: CellValue[][] = Array.from({ length: 200 }, (_, i) => [
  `region_${String(i).padStart(3, '0')}`,
  `${1000 + i}.25`,
  i,
]);
const RESULTS = new Map<string, SourceTable>([
  [
    ID,
    {
      id: ID,
      columns: [
        { name: 'region', type: 'VARCHAR' },
        { name: 'revenue', type: 'DECIMAL(18,2)' },
        { name: 'rank', type: 'BIGINT' },
      ],
      rows: ROWS,
    },
  ],
]);

/** What runAgent returns: a tool call, its (preview) result, and the final text. */
const RESPONSE_MESSAGES: ModelMessage[] = [
  {
    role: 'assistant',
    content: [
      { type: 'reasoning', text: 'I should query the orders.' },
      {
        type: 'tool-call',
        toolCallId: 'call_1',
        toolName: 'execute_sql',
        input: { sql_query: 'SELECT region, sum(amount) AS revenue FROM orders GROUP BY 1' },
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
        output: { type: 'json', value: { id: ID, row_count: 200, rows: ROWS.slice(0, 5), has_more: true } },
      },
    ],
  },
  {
    role: 'assistant',
    content: 'Revenue per region is in the table above: 200 regions, from 1000.25 to 1199.25.',
  },
];

const USAGE = {
  inputTokens: { total: 1000, noCache: 800, cacheRead: 200, cacheWrite: 0 },
  outputTokens: { total: 50, text: 40, reasoning: 10 },
};

function reply(json: unknown): GenerateResult {
  return {
    content: [{ type: 'text', text: typeof json === 'string' ? json : JSON.stringify(json) }],
    finishReason: { unified: 'stop', raw: 'stop' },
    usage: USAGE,
    warnings: [],
  };
}

/** A model answering the extraction requests with these replies, in order. */
function scriptedModel(replies: (unknown | Error)[]): MockLanguageModelV3 {
  let call = 0;
  return new MockLanguageModelV3({
    provider: 'test',
    modelId: 'scripted',
    doGenerate: async () => {
      const next = replies[call++];
      if (next === undefined) throw new Error(`no scripted reply for call ${call}`);
      if (next instanceof Error) throw next;
      return reply(next);
    },
  });
}

function extract(model: MockLanguageModelV3, overrides: Partial<Parameters<typeof extractAnswer>[0]> = {}) {
  return extractAnswer({
    model: { id: 'test:scripted', model, prices: { inputNoCache: 2, inputCacheRead: 1, output: 8 } },
    question: QUESTION,
    responseMessages: RESPONSE_MESSAGES,
    queryResults: RESULTS,
    expectedColumns: ['region', 'revenue'],
    ...overrides,
  });
}

/** The prompt of one call flattened to role + text, to read what the model was sent. */
function transcript(call: CallOptions | undefined): { role: string; text: string }[] {
  return (call?.prompt ?? []).map((message) => ({
    role: message.role,
    text:
      typeof message.content === 'string'
        ? message.content
        : message.content.map((part) => ('text' in part ? part.text : `<${part.type}>`)).join('\n'),
  }));
}

describe('extractAnswer', () => {
  it('extracts all 200 rows although the model saw only the first ones', async () => {
    const model = scriptedModel([{ sql: `SELECT region, revenue FROM ${ID} ORDER BY revenue DESC` }]);
    const result = await extract(model);
    expect(result.error).toBeNull();
    expect(result.errorKind).toBeNull();
    expect(result.attempts).toBe(1);
    expect(result.sql).toBe(`SELECT region, revenue FROM ${ID} ORDER BY revenue DESC`);
    expect(result.data?.columns).toEqual(['region', 'revenue']);
    expect(result.data?.columnTypes).toEqual(['VARCHAR', 'DECIMAL(18,2)']);
    expect(result.data?.rows).toHaveLength(200);
    expect(result.data?.rows[0]).toEqual(['region_199', '1199.25']);
    expect(result.data?.rows[199]).toEqual(['region_000', '1000.25']);
  });

  it('sends the conversation as text that opens with a user turn, then the table inventory and rules', async () => {
    const model = scriptedModel([{ sql: `SELECT region, revenue FROM ${ID}` }]);
    await extract(model);
    const call = model.doGenerateCalls[0];
    const messages = transcript(call);
    expect(messages[0]).toEqual({ role: 'user', text: QUESTION });
    expect(messages.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
    ]);
    // Tool turns become text: no provider-specific tool blocks without tool definitions.
    expect(call?.prompt.some((message) => message.role === 'tool')).toBe(false);
    expect(messages[1]?.text).toContain('[Called tool execute_sql (call call_1)');
    expect(messages[2]?.text).toContain(`"row_count":200`);
    expect(messages[1]?.text).not.toContain('I should query the orders');
    const request = messages.at(-1)?.text ?? '';
    expect(request).toContain(`The question was: ${QUESTION}`);
    expect(request).toContain(
      `- "${ID}": 200 rows; columns: "region" VARCHAR, "revenue" DECIMAL(18,2), "rank" BIGINT`,
    );
    expect(request).toContain('Return exactly these columns, with these names: "region", "revenue"');
    expect(request).toContain('never retype them as literals');
    expect(request).toContain('Only read from the tables above, the warehouse is not reachable anymore.');
    expect(request).toContain('Set sql to null if these tables cannot answer the question.');
    expect(call?.responseFormat).toMatchObject({ type: 'json' });
    expect(call?.tools ?? []).toEqual([]);
  });

  it('repairs a failing first query on the second attempt', async () => {
    const model = scriptedModel([
      { sql: `SELECT regon, revenue FROM ${ID}` },
      { sql: `SELECT region, revenue FROM ${ID}` },
    ]);
    const result = await extract(model);
    expect(result).toMatchObject({ attempts: 2, error: null, sql: `SELECT region, revenue FROM ${ID}` });
    expect(result.data?.rows).toHaveLength(200);
    const second = transcript(model.doGenerateCalls[1]);
    expect(second.at(-2)).toEqual({
      role: 'assistant',
      text: JSON.stringify({ sql: `SELECT regon, revenue FROM ${ID}` }),
    });
    expect(second.at(-1)?.role).toBe('user');
    expect(second.at(-1)?.text).toMatch(/^That query failed with: .*regon/s);
    expect(second.at(-1)?.text).toContain('Return a corrected DuckDB query, or set sql to null');
  });

  it('sends a safety-check refusal back for repair', async () => {
    const model = scriptedModel([
      { sql: `SELECT * FROM read_csv('/etc/passwd'), ${ID}` },
      { sql: `SELECT region, revenue FROM ${ID}` },
    ]);
    const result = await extract(model);
    expect(result.attempts).toBe(2);
    expect(result.data?.rows).toHaveLength(200);
    expect(transcript(model.doGenerateCalls[1]).at(-1)?.text).toContain('read_csv() is not allowed');
  });

  it('gives up after two failures, keeping the last SQL and error', async () => {
    const model = scriptedModel([
      { sql: `SELECT nope FROM ${ID}` },
      { sql: 'SELECT 1 AS region, 2 AS revenue' },
    ]);
    const result = await extract(model);
    expect(result).toMatchObject({
      data: null,
      attempts: 2,
      sql: 'SELECT 1 AS region, 2 AS revenue',
      error: expect.stringContaining('reads none of the result tables'),
      errorKind: 'extraction-failed',
    });
    expect(model.doGenerateCalls).toHaveLength(2);
  });

  it('reports that the agent could not answer when sql is null', async () => {
    const model = scriptedModel([{ sql: null }]);
    expect(await extract(model)).toMatchObject({
      data: null,
      sql: null,
      error: NO_ANSWER_ERROR,
      errorKind: 'cannot-answer',
      attempts: 1,
    });
    expect(model.doGenerateCalls).toHaveLength(1);
  });

  it('treats a blank query like null', async () => {
    expect(await extract(scriptedModel([{ sql: '   ' }]))).toMatchObject({ error: NO_ANSWER_ERROR });
  });

  it('makes no model call when the agent ran no query', async () => {
    const model = scriptedModel([{ sql: 'SELECT 1' }]);
    const result = await extract(model, { queryResults: new Map() });
    expect(result).toEqual({
      data: null,
      sql: null,
      error: NO_QUERY_ERROR,
      errorKind: 'no-queries',
      attempts: 0,
      usage: expect.objectContaining({ totalTokens: 0 }),
      cost: expect.objectContaining({ totalCost: 0 }),
    });
    expect(model.doGenerateCalls).toHaveLength(0);
  });

  it('sums usage and cost over both attempts', async () => {
    const model = scriptedModel([{ sql: 'SELECT broken' }, { sql: `SELECT region, revenue FROM ${ID}` }]);
    const result = await extract(model);
    expect(result.usage).toMatchObject({
      inputTotalTokens: 2000,
      inputNoCacheTokens: 1600,
      inputCacheReadTokens: 400,
      outputTotalTokens: 100,
      outputReasoningTokens: 20,
      totalTokens: 2100,
    });
    // 1600 × $2 + 400 × $1 + 100 × $8 per million tokens
    expect(result.cost?.totalCost).toBeCloseTo((1600 * 2 + 400 * 1 + 100 * 8) / 1_000_000, 12);
  });

  it('reports an unknown cost when the model has no price', async () => {
    const model = scriptedModel([{ sql: `SELECT region, revenue FROM ${ID}` }]);
    const result = await extractAnswer({
      model: { id: 'test:scripted', model, prices: null },
      question: QUESTION,
      responseMessages: RESPONSE_MESSAGES,
      queryResults: RESULTS,
      expectedColumns: ['region', 'revenue'],
    });
    expect(result.cost).toBeNull();
    expect(result.usage.totalTokens).toBe(1050);
  });

  it('asks again when the reply is not the JSON object asked for', async () => {
    const model = scriptedModel([
      'Sure! The query is SELECT region FROM it.',
      { sql: `SELECT region, revenue FROM ${ID}` },
    ]);
    const result = await extract(model);
    expect(result).toMatchObject({ attempts: 2, error: null });
    expect(transcript(model.doGenerateCalls[1]).at(-1)?.text).toContain(
      'not the JSON object that was asked for',
    );
    expect(result.usage.totalTokens).toBe(2100);
  });

  it('asks again when the JSON reply has no sql text, and sends the reply schema as written', async () => {
    const model = scriptedModel([
      { query: `SELECT region FROM ${ID}` },
      { sql: `SELECT region, revenue FROM ${ID}` },
    ]);
    const result = await extract(model);
    expect(result).toMatchObject({ attempts: 2, error: null });
    expect(transcript(model.doGenerateCalls[1]).at(-1)?.text).toContain(
      'not the JSON object that was asked for',
    );
    // The schema is nao's own text, not zod's output, so requests (and recordings) stay put.
    expect(model.doGenerateCalls[0]?.responseFormat).toEqual({
      type: 'json',
      name: 'extraction_query',
      schema: {
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        properties: {
          sql: {
            description:
              'One DuckDB SELECT query over the result tables, or null if they cannot answer the question.',
            type: ['string', 'null'],
          },
        },
        required: ['sql'],
        additionalProperties: false,
      },
    });
  });

  it('keeps the last query written when the final reply is unreadable', async () => {
    const model = scriptedModel([{ sql: `SELECT nope FROM ${ID}` }, 'no idea']);
    expect(await extract(model)).toMatchObject({
      data: null,
      attempts: 2,
      sql: `SELECT nope FROM ${ID}`,
      error: 'The reply was not the JSON object that was asked for ({"sql": …}).',
    });
  });

  it('describes a small result to the model without loading it: the pool runs nothing before the query', async () => {
    const run = vi.spyOn(ProcessPool.prototype, 'run');
    let jobsBeforeModel = -1;
    const model = new MockLanguageModelV3({
      provider: 'test',
      modelId: 'scripted',
      doGenerate: async () => {
        jobsBeforeModel = run.mock.calls.length;
        return reply({ sql: `SELECT region, revenue FROM ${ID} ORDER BY revenue DESC LIMIT 1` });
      },
    });
    const small = new Map<string, SourceTable>([
      [ID, { id: ID, columns: RESULTS.get(ID)!.columns, rows: ROWS.slice(0, 3) }],
    ]);
    try {
      const result = await extract(model, { queryResults: small });
      expect(result).toMatchObject({ error: null, data: { rows: [['region_002', '1002.25']] } });
      expect(jobsBeforeModel).toBe(0);
      expect(run).toHaveBeenCalledTimes(1);
      // The prompt's table description, given before any load, is the loaded one.
      const request = transcript(model.doGenerateCalls[0]).at(-1)?.text;
      expect(request).toContain(
        `"${ID}": 3 rows; columns: "region" VARCHAR, "revenue" DECIMAL(18,2), "rank" BIGINT`,
      );
    } finally {
      run.mockRestore();
    }
  });

  it('accepts extra columns without asking again', async () => {
    const model = scriptedModel([{ sql: `SELECT region, revenue, rank FROM ${ID}` }]);
    const result = await extract(model);
    expect(result).toMatchObject({ attempts: 1, error: null });
    expect(result.data?.columns).toEqual(['region', 'revenue', 'rank']);
  });

  it('asks again when an expected column is missing, and keeps the last data anyway', async () => {
    const model = scriptedModel([
      { sql: `SELECT region AS name, revenue FROM ${ID}` },
      { sql: `SELECT region AS "Region", revenue FROM ${ID}` },
    ]);
    const result = await extract(model);
    expect(transcript(model.doGenerateCalls[1]).at(-1)?.text).toContain(
      'returned the columns "name", "revenue", but these are missing: "region".',
    );
    expect(result).toMatchObject({ attempts: 2, error: null });
    expect(result.data?.columns).toEqual(['Region', 'revenue']);
  });

  it('throws a typed error when the model call fails, with the usage spent so far', async () => {
    const failure = new Error('503 Service Unavailable');
    const model = scriptedModel([{ sql: 'SELECT broken' }, failure]);
    const error = await extract(model).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ExtractionModelError);
    expect(error).toBeInstanceOf(NaoError);
    expect(error).toMatchObject({
      code: 'EXTRACTION_MODEL_FAILED',
      message: expect.stringContaining('test:scripted failed (attempt 2): 503 Service Unavailable'),
      cause: failure,
      usage: expect.objectContaining({ totalTokens: 1050 }),
    });
  });

  it('rejects with the abort reason when the run is cancelled', async () => {
    const controller = new AbortController();
    const model = new MockLanguageModelV3({
      doGenerate: async () => {
        controller.abort(new Error('run cancelled'));
        throw new Error('aborted by the provider');
      },
    });
    await expect(extract(model, { signal: controller.signal })).rejects.toThrow('run cancelled');
  });

  it('extracts from several results joined together', async () => {
    const prices: SourceTable = {
      id: 'query_00000002',
      columns: [
        { name: 'region', type: 'TEXT' },
        { name: 'target', type: 'numeric' },
      ],
      rows: [['region_000', '900.00']],
    };
    const model = scriptedModel([
      {
        sql: `SELECT r.region, r.revenue - t.target AS revenue FROM ${ID} r JOIN query_00000002 t USING (region)`,
      },
    ]);
    const result = await extract(model, { queryResults: new Map([...RESULTS, [prices.id, prices]]) });
    expect(result.data?.rows).toEqual([['region_000', '100.25']]);
  });

  it('takes the model, messages and query results of runAgent as they are (checked by tsc)', () => {
    expectTypeOf<AgentModel>().toExtend<ExtractAnswerOptions['model']>();
    expectTypeOf<AgentRunResult['responseMessages']>().toExtend<ExtractAnswerOptions['responseMessages']>();
    expectTypeOf<AgentRunResult['queryResults']>().toExtend<ExtractAnswerOptions['queryResults']>();
  });
});
