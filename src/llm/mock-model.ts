/**
 * `mock:reference`, the built-in model that lets anyone try nao on their own project without an
 * API key: it answers each test by running the test's own reference SQL through the agent's
 * `execute_sql` tool, then writes the extraction query `SELECT * FROM <that result>`. The tools,
 * the warehouse, the sandbox and the comparison all run for real; nothing is sent anywhere.
 *
 * It sees the reference SQL only through `withReference`, a channel no real model has (the
 * agent of a real model never sees it). Its runs are marked as mock runs everywhere.
 */
import type { LanguageModel } from 'ai';
import { NaoError } from '../errors/index.js';
import type { LanguageModelInstance } from './providers.js';

type ModelV3 = Extract<LanguageModel, { specificationVersion: 'v3' }>;
type CallOptions = Parameters<ModelV3['doGenerate']>[0];
type GenerateResult = Awaited<ReturnType<ModelV3['doGenerate']>>;
type StreamPart =
  Awaited<ReturnType<ModelV3['doStream']>>['stream'] extends ReadableStream<infer Part> ? Part : never;

export const MOCK_PROVIDER = 'mock';
/** The mock's only model. */
export const MOCK_MODEL_ID = 'reference';

/** What the mock is told of the test it answers (what a real model is never told). */
export interface MockReference {
  /** The test's `sql`; null for a test without one (the mock then says it cannot answer). */
  sql: string | null;
  /** The test's `database`, passed to `execute_sql` as `database_id`. */
  databaseId: string | null;
}

/** The agent's tool the mock calls; its name as the agent declares it. */
const EXECUTE_SQL = 'execute_sql';
/** The extraction's structured-output name (src/extract/extract-answer.ts). */
const EXTRACTION_OUTPUT = 'extraction_query';
const QUERY_ID = /query_[0-9a-f]{8}/;

const NO_USAGE: GenerateResult['usage'] = {
  inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 0, text: 0, reasoning: 0 },
};

function textReply(text: string): GenerateResult {
  return {
    content: [{ type: 'text', text }],
    finishReason: { unified: 'stop', raw: 'stop' },
    usage: NO_USAGE,
    warnings: [],
  };
}

function isExtraction(format: CallOptions['responseFormat']): boolean {
  if (format?.type !== 'json') return false;
  const properties = (format.schema as { properties?: Record<string, unknown> } | undefined)?.properties;
  return format.name === EXTRACTION_OUTPUT || (properties !== undefined && 'sql' in properties);
}

/** The tool results the agent handed back in the latest prompt message, as JSON text. */
function lastToolResults(prompt: CallOptions['prompt']): string[] {
  const last = prompt.at(-1);
  if (last?.role !== 'tool') return [];
  return last.content.flatMap((part) => (part.type === 'tool-result' ? [JSON.stringify(part.output)] : []));
}

/** The text of the latest user message (the extraction request names the result tables). */
function lastUserText(prompt: CallOptions['prompt']): string {
  const last = [...prompt].reverse().find((message) => message.role === 'user');
  if (last === undefined) return '';
  return last.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
}

function answer(options: CallOptions, reference: MockReference | null): GenerateResult {
  if (options.responseFormat?.type === 'json') {
    if (!isExtraction(options.responseFormat)) {
      throw new NaoError({
        code: 'MOCK_CANNOT_JUDGE',
        message:
          'mock:reference cannot grade answers against expected_answer: give a real model as --judge-model, ' +
          'or run these tests with a real model.',
      });
    }
    // The agent ran one query (the reference), so its result is the answer, whole.
    const table = QUERY_ID.exec(lastUserText(options.prompt))?.[0] ?? null;
    return {
      ...textReply(JSON.stringify({ sql: table === null ? null : `SELECT * FROM ${table}` })),
    };
  }
  if (reference === null || reference.sql === null) {
    return textReply(
      'mock:reference answers only tests with reference SQL (`sql:`) under `nao test`; this question has none, ' +
        'so it gives no answer. Use a real model for it.',
    );
  }
  const results = lastToolResults(options.prompt);
  const canQuery = options.tools?.some((tool) => tool.name === EXECUTE_SQL) === true;
  if (results.length === 0 && canQuery) {
    const input = {
      sql_query: reference.sql,
      ...(reference.databaseId === null ? {} : { database_id: reference.databaseId }),
    };
    return {
      content: [
        {
          type: 'tool-call',
          toolCallId: 'mock_reference_0',
          toolName: EXECUTE_SQL,
          input: JSON.stringify(input),
        },
      ],
      finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
      usage: NO_USAGE,
      warnings: [],
    };
  }
  const id = results.map((result) => QUERY_ID.exec(result)?.[0]).find((found) => found !== undefined);
  return textReply(
    id === undefined
      ? `mock:reference ran the test's reference SQL and it failed: ${results.join(' ')}`
      : `mock:reference ran the test's reference SQL; its rows are the answer (${id}). No model was called.`,
  );
}

/** The parts of a streamed reply carrying the same content as `result`. */
function streamOf(result: GenerateResult): ReadableStream<StreamPart> {
  const parts: StreamPart[] = [{ type: 'stream-start', warnings: [] }];
  result.content.forEach((part, index) => {
    if (part.type === 'text') {
      const id = `text_${index}`;
      parts.push(
        { type: 'text-start', id },
        { type: 'text-delta', id, delta: part.text },
        { type: 'text-end', id },
      );
    } else if (part.type === 'tool-call') {
      parts.push(part);
    }
  });
  parts.push({ type: 'finish', usage: result.usage, finishReason: result.finishReason });
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });
}

/**
 * The `mock:reference` model: without a reference (the chat, a judge call) it says what it is
 * for; `withReference` gives the one instance for a test run.
 */
export function mockReferenceModel(reference: MockReference | null = null): LanguageModelInstance {
  const model: ModelV3 = {
    specificationVersion: 'v3',
    provider: MOCK_PROVIDER,
    modelId: MOCK_MODEL_ID,
    supportedUrls: {},
    doGenerate: async (options) => {
      options.abortSignal?.throwIfAborted();
      return answer(options, reference);
    },
    doStream: async (options) => {
      options.abortSignal?.throwIfAborted();
      return { stream: streamOf(answer(options, reference)) };
    },
  };
  return model;
}

/** True for a `provider:model_id` of the built-in mock (its runs are never a model's result). */
export function isMockModel(model: string): boolean {
  return model.trim().startsWith(`${MOCK_PROVIDER}:`);
}
