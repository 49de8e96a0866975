/**
 * Turns the agent's answer into rows comparable with the reference rows, without trusting the
 * model to retype numbers: the same model writes one DuckDB query over the complete results of
 * its own `execute_sql` calls, and that query runs in a sandbox that can read nothing else.
 */
import { generateText, jsonSchema, type ModelMessage, NoObjectGeneratedError, Output } from 'ai';
import { messageOf, NaoError } from '../errors/index.js';
import type { PricedModel } from '../llm/priced-model.js';
import {
  addUsage,
  type Cost,
  costOf,
  EMPTY_USAGE,
  type TokenUsage,
  usageFromSdk,
  usageFromSteps,
} from '../llm/usage.js';
import type { CellValue } from '../warehouse/index.js';
import { extractionRequest, repairRequest, transcriptMessages } from './extraction-prompt.js';
import type { SourceTable } from './load-tables.js';
import { DEFAULT_SANDBOX_OPTIONS, withSandbox } from './sandbox.js';

export interface ExtractAnswerOptions {
  /** The model under test; the extraction uses the same one, priced the same way. */
  model: PricedModel;
  /** The test's question, as the agent received it. */
  question: string;
  /** The agent's response messages (assistant and tool turns). */
  responseMessages: readonly ModelMessage[];
  /** Every successful `execute_sql` result of the run, by query id. */
  queryResults: ReadonlyMap<string, SourceTable>;
  /** The reference's column names, in its order. */
  expectedColumns: readonly string[];
  signal?: AbortSignal;
  /**
   * The project's limit on one query (`agent.query_timeout_s`): an extraction query gets no
   * longer than that, nor than the sandbox's default.
   */
  queryTimeoutMs?: number;
}

export interface ExtractedData {
  columns: string[];
  /** DuckDB type of each column, parallel to `columns`. */
  columnTypes: string[];
  rows: CellValue[][];
}

/**
 * Why there is no data: the agent ran no query or said its results cannot answer (the agent's
 * failure), or the extraction queries failed twice (nothing can be judged).
 */
export type ExtractionErrorKind = 'no-queries' | 'cannot-answer' | 'extraction-failed';

export interface ExtractionResult {
  data: ExtractedData | null;
  /** The last query the model wrote (the one that produced `data`, or the one that failed). */
  sql: string | null;
  error: string | null;
  /** Set exactly when `error` is. */
  errorKind: ExtractionErrorKind | null;
  /** Model calls made: 0 when there was nothing to extract from, else 1 or 2. */
  attempts: number;
  /** Extraction usage only, summed over the attempts; the agent's usage is reported apart. */
  usage: TokenUsage;
  cost: Cost | null;
}

/** A failed model call (provider error, timeout…): the run is an error, not a failed answer. */
export class ExtractionModelError extends NaoError {
  /** Usage of the attempts that completed before the failure. */
  readonly usage: TokenUsage;
  readonly cost: Cost | null;

  constructor(options: {
    modelId: string;
    attempt: number;
    cause: unknown;
    usage: TokenUsage;
    cost: Cost | null;
  }) {
    const reason = messageOf(options.cause);
    super({
      code: 'EXTRACTION_MODEL_FAILED',
      message: `The extraction call to ${options.modelId} failed (attempt ${options.attempt}): ${reason}`,
      cause: options.cause,
    });
    this.usage = options.usage;
    this.cost = options.cost;
  }
}

export const MAX_EXTRACTION_ATTEMPTS = 2;

export const NO_QUERY_ERROR = 'The agent did not run any SQL query.';
export const NO_ANSWER_ERROR = 'The agent could not answer from its query results.';

/**
 * The reply's schema, written as the JSON Schema providers receive: generated from zod, its
 * spelling changed with zod's version (`anyOf` or a type list for the nullable), which changes
 * every request and makes recordings stale. A reply that does not fit is `NoObjectGeneratedError`.
 */
const extractionSchema = jsonSchema<{ sql: string | null }>(
  {
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
  {
    validate: (value) => {
      const sql = (value as { sql?: unknown } | null)?.sql;
      return typeof value === 'object' && value !== null && (typeof sql === 'string' || sql === null)
        ? { success: true, value: { sql } }
        : { success: false, error: new TypeError('Expected {"sql": string | null}.') };
    },
  },
);

/** Extracts the answer's data; see the module comment. Model call failures throw `ExtractionModelError`. */
export async function extractAnswer(options: ExtractAnswerOptions): Promise<ExtractionResult> {
  const { model, signal } = options;
  if (options.queryResults.size === 0) {
    return {
      data: null,
      sql: null,
      error: NO_QUERY_ERROR,
      errorKind: 'no-queries',
      attempts: 0,
      usage: { ...EMPTY_USAGE },
      cost: costOf(EMPTY_USAGE, model.prices),
    };
  }

  const tables = [...options.queryResults.values()];
  // An answer may hold every row the agent fetched: never cap it below the largest result.
  const maxResultRows = Math.max(
    DEFAULT_SANDBOX_OPTIONS.maxResultRows,
    ...tables.map((table) => table.rows.length),
  );
  const timeoutMs = Math.min(
    DEFAULT_SANDBOX_OPTIONS.timeoutMs,
    options.queryTimeoutMs ?? Number.POSITIVE_INFINITY,
  );
  return withSandbox({ tables, maxResultRows, timeoutMs }, async (opened) => {
    const loaded = opened.tables;
    const messages: ModelMessage[] = transcriptMessages([
      // Gemini refuses a history that does not open with a user turn; the question is that turn.
      { role: 'user', content: options.question },
      ...options.responseMessages,
      {
        role: 'user',
        content: extractionRequest({
          question: options.question,
          tables: loaded,
          expectedColumns: options.expectedColumns,
        }),
      },
    ]);
    let usage: TokenUsage = { ...EMPTY_USAGE };
    let lastSql: string | null = null;
    let lastError: string | null = null;
    const done = (
      attempts: number,
      result: Omit<ExtractionResult, 'attempts' | 'usage' | 'cost'>,
    ): ExtractionResult => ({ ...result, attempts, usage, cost: costOf(usage, model.prices) });

    for (let attempt = 1; attempt <= MAX_EXTRACTION_ATTEMPTS; attempt++) {
      const reply = await askForSql({ model, messages, signal, attempt, usageSoFar: usage });
      usage = addUsage(usage, reply.usage);

      let failure: string;
      let repair: string;
      if (reply.kind === 'unreadable') {
        failure = 'The reply was not the JSON object that was asked for ({"sql": …}).';
        repair =
          'Your reply was not the JSON object that was asked for. Reply with {"sql": "<DuckDB query>"}, ' +
          'or {"sql": null} if the tables cannot answer the question.';
        messages.push({ role: 'assistant', content: reply.text || '(empty reply)' });
      } else {
        if (reply.sql === null) {
          return done(attempt, {
            data: null,
            sql: lastSql,
            error: NO_ANSWER_ERROR,
            errorKind: 'cannot-answer',
          });
        }
        lastSql = reply.sql;
        messages.push({ role: 'assistant', content: JSON.stringify({ sql: reply.sql }) });
        const outcome = await opened.query(reply.sql, signal === undefined ? {} : { signal });
        if (outcome.success) {
          const data: ExtractedData = {
            columns: outcome.columns.map((column) => column.name),
            columnTypes: outcome.columns.map((column) => column.type),
            rows: outcome.rows,
          };
          const mismatch = columnMismatch(data.columns, options.expectedColumns);
          // A missing column is worth the repair attempt; after the last one the comparison
          // reports it, since the rows themselves were extracted fine.
          if (mismatch === null || attempt === MAX_EXTRACTION_ATTEMPTS) {
            return done(attempt, { data, sql: reply.sql, error: null, errorKind: null });
          }
          failure = mismatch;
        } else {
          failure = outcome.error;
        }
        repair = repairRequest(failure);
      }
      lastError = failure;
      if (attempt < MAX_EXTRACTION_ATTEMPTS) messages.push({ role: 'user', content: repair });
    }
    return done(MAX_EXTRACTION_ATTEMPTS, {
      data: null,
      sql: lastSql,
      error: lastError,
      errorKind: 'extraction-failed',
    });
  });
}

type Reply =
  | { kind: 'sql'; sql: string | null; usage: TokenUsage }
  | { kind: 'unreadable'; text: string; usage: TokenUsage };

async function askForSql(options: {
  model: PricedModel;
  messages: readonly ModelMessage[];
  signal: AbortSignal | undefined;
  attempt: number;
  usageSoFar: TokenUsage;
}): Promise<Reply> {
  const { model, signal } = options;
  try {
    const result = await generateText({
      model: model.model,
      messages: [...options.messages],
      output: Output.object({ schema: extractionSchema, name: 'extraction_query' }),
      ...model.callSettings,
      ...(signal === undefined ? {} : { abortSignal: signal }),
    });
    const usage = usageFromSteps(result.steps);
    const sql = result.output.sql;
    return { kind: 'sql', sql: sql === null || sql.trim() === '' ? null : sql.trim(), usage };
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    if (NoObjectGeneratedError.isInstance(error)) {
      return { kind: 'unreadable', text: error.text ?? '', usage: usageFromSdk(error.usage) };
    }
    throw new ExtractionModelError({
      modelId: model.id,
      attempt: options.attempt,
      cause: model.explainError?.(error) ?? error,
      usage: options.usageSoFar,
      cost: costOf(options.usageSoFar, model.prices),
    });
  }
}

/**
 * `null` when every expected column is there (by exact name; extra columns are harmless, the
 * comparison ignores them), else a message for the model.
 */
function columnMismatch(actual: readonly string[], expected: readonly string[]): string | null {
  const missing = expected.filter((name) => !actual.includes(name));
  if (missing.length === 0) return null;
  const list = (names: readonly string[]) => names.map((name) => `"${name}"`).join(', ');
  return (
    `The query returned the columns ${list(actual)}, but these are missing: ${list(missing)}. ` +
    `Return exactly these columns, with these names: ${list(expected)}.`
  );
}
