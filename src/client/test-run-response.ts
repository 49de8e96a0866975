import { z } from 'zod';
import { type Cost, EMPTY_USAGE } from '../llm/usage.js';
import type { TableData, TestRunResponse, Verification } from '../test-run/index.js';

const count = z.number().finite().nonnegative();
/** The original nao's backend leaves out counts it does not know: they read as 0. */
const usageSchema = z.object({
  inputTotalTokens: count.default(0),
  inputNoCacheTokens: count.default(0),
  inputCacheReadTokens: count.default(0),
  inputCacheWriteTokens: count.default(0),
  outputTotalTokens: count.default(0),
  outputTextTokens: count.default(0),
  outputReasoningTokens: count.default(0),
  totalTokens: count.default(0),
});
const bucket = z.number().finite().default(0);
/** A cost object; one without `totalCost` (`{}`: an unpriced model) reads as no known cost. */
const costSchema = z
  .object({
    inputNoCache: bucket,
    inputCacheRead: bucket,
    inputCacheWrite: bucket,
    output: bucket,
    totalCost: z.number().finite().nullish(),
  })
  .nullish()
  .transform((cost): Cost | null =>
    typeof cost?.totalCost === 'number' ? { ...cost, totalCost: cost.totalCost } : null,
  );
const cellSchema = z.union([z.string(), z.number(), z.boolean(), z.null()]);
const tableSchema = z.object({ columns: z.array(z.string()), rows: z.array(z.array(cellSchema)) });
/** Rows as objects, as the original nao's backend sends them (and nao's beside `table`). */
const rowObjectsSchema = z.array(z.record(z.string(), cellSchema));

const verificationSchema = z.object({
  data: z.union([tableSchema, rowObjectsSchema]).nullable(),
  sql: z.string().nullable().optional(),
  error: z.string().nullable().optional(),
  errorKind: z.enum(['no-queries', 'cannot-answer', 'extraction-failed']).nullable().optional(),
  expectedData: z.union([tableSchema, rowObjectsSchema]).nullable(),
  expectedColumns: z.array(z.string()),
  /** nao's backend: both data sets with their columns in order. */
  table: z.object({ data: tableSchema.nullable(), expected: tableSchema.nullable() }).optional(),
  referenceError: z.string().nullable().optional(),
  snapshotConsistent: z.boolean().nullable().optional(),
  attempts: count.optional(),
  usage: usageSchema.nullable().optional(),
  cost: costSchema,
});

const judgementSchema = z.object({
  model: z.string(),
  verdict: z.enum(['pass', 'fail']).nullable(),
  reason: z.string(),
  error: z.string().nullable(),
  attempts: count,
  usage: usageSchema,
  cost: costSchema,
});

/** `POST /api/test/run`'s answer, from nao's backend or the original nao's; extra keys are ignored. */
const responseSchema = z.object({
  text: z.string(),
  toolCalls: z.array(
    z.object({ toolName: z.string(), toolCallId: z.string(), args: z.unknown(), result: z.unknown() }),
  ),
  usage: usageSchema,
  cost: costSchema,
  finishReason: z.string(),
  durationMs: count.default(0),
  verification: verificationSchema.nullable().optional(),
  replayed: z.boolean().optional(),
  // Absent from backends that predate them: the judge then reports the run as not judged.
  clarification: z
    .object({ question: z.string(), options: z.array(z.string()) })
    .nullable()
    .optional(),
  judgement: judgementSchema.nullable().optional(),
});

/** Rows as objects become a table in the order of `columns` (then any other key of the first row). */
function asTable(
  data: z.infer<typeof tableSchema> | z.infer<typeof rowObjectsSchema> | null,
  columns: readonly string[],
): TableData | null {
  if (data === null) return null;
  if (!Array.isArray(data)) return data;
  const keys = [...columns.filter((column) => data[0] === undefined || column in data[0])];
  for (const key of Object.keys(data[0] ?? {})) if (!keys.includes(key)) keys.push(key);
  return { columns: keys, rows: data.map((row) => keys.map((key) => row[key] ?? null)) };
}

function readVerification(raw: z.infer<typeof verificationSchema>): Verification {
  const expectedColumns = raw.expectedColumns;
  const error = raw.error ?? null;
  return {
    data: raw.table?.data ?? asTable(raw.data, expectedColumns),
    sql: raw.sql ?? null,
    error: raw.referenceError === undefined || raw.referenceError === null ? error : null,
    // The original's backend says only `error`: without data that is a failed extraction.
    errorKind: raw.errorKind ?? (error !== null && raw.data === null ? 'extraction-failed' : null),
    expectedData: raw.table?.expected ?? asTable(raw.expectedData, expectedColumns),
    expectedColumns,
    referenceError: raw.referenceError ?? null,
    snapshotConsistent: raw.snapshotConsistent ?? null,
    attempts: raw.attempts ?? 1,
    usage: raw.usage ?? { ...EMPTY_USAGE },
    cost: raw.cost,
  };
}

/**
 * nao's backend sends its own verification fields beside `verification` (in `naoVerification`,
 * so the original's strict clients can read `verification`); older nao backends sent them inside.
 * Either way they are read as one object.
 */
function withNaoVerification(body: unknown): unknown {
  if (body === null || typeof body !== 'object') return body;
  const { naoVerification, ...rest } = body as { naoVerification?: unknown; verification?: unknown };
  if (naoVerification === null || typeof naoVerification !== 'object') return rest;
  if (rest.verification === null || typeof rest.verification !== 'object') return rest;
  return { ...rest, verification: { ...rest.verification, ...naoVerification } };
}

export type ParsedTestRunResponse =
  | { success: true; response: TestRunResponse }
  | { success: false; error: string };

/** Checks a backend answer before the runner judges it: a malformed one must not become a verdict. */
export function parseTestRunResponse(body: unknown): ParsedTestRunResponse {
  const parsed = responseSchema.safeParse(withNaoVerification(body));
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const where =
      first === undefined || first.path.length === 0 ? 'the body' : first.path.map(String).join('.');
    return {
      success: false,
      error: `The backend's answer is not a test run result (${where}: ${first?.message ?? 'invalid'}). Are the CLI and \`nao chat\` the same version?`,
    };
  }
  const { verification, ...rest } = parsed.data;
  return {
    success: true,
    response: {
      ...rest,
      verification: verification == null ? null : readVerification(verification),
      toolCalls: rest.toolCalls.map((call) => ({ ...call, args: call.args, result: call.result ?? null })),
    },
  };
}
