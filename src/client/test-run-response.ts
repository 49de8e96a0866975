import { z } from 'zod';
import type { TestRunResponse } from '../pipeline/index.js';

const count = z.number().finite().nonnegative();
const usageSchema = z.object({
  inputTotalTokens: count,
  inputNoCacheTokens: count,
  inputCacheReadTokens: count,
  inputCacheWriteTokens: count,
  outputTotalTokens: count,
  outputTextTokens: count,
  outputReasoningTokens: count,
  totalTokens: count,
});
const costSchema = z.object({
  inputNoCache: z.number().finite(),
  inputCacheRead: z.number().finite(),
  inputCacheWrite: z.number().finite(),
  output: z.number().finite(),
  totalCost: z.number().finite(),
});
const cellSchema = z.union([z.string(), z.number(), z.boolean(), z.null()]);
const tableSchema = z.object({ columns: z.array(z.string()), rows: z.array(z.array(cellSchema)) });

const verificationSchema = z.object({
  data: tableSchema.nullable(),
  sql: z.string().nullable(),
  error: z.string().nullable(),
  errorKind: z.enum(['no-queries', 'cannot-answer', 'extraction-failed']).nullable(),
  expectedData: tableSchema.nullable(),
  expectedColumns: z.array(z.string()),
  referenceError: z.string().nullable(),
  snapshotConsistent: z.boolean().nullable(),
  attempts: count,
  usage: usageSchema,
  cost: costSchema.nullable(),
});

const judgementSchema = z.object({
  model: z.string(),
  verdict: z.enum(['pass', 'fail']).nullable(),
  reason: z.string(),
  error: z.string().nullable(),
  attempts: count,
  usage: usageSchema,
  cost: costSchema.nullable(),
});

/** `POST /api/test/run`'s answer; extra keys from a newer backend are ignored. */
const responseSchema = z.object({
  text: z.string(),
  toolCalls: z.array(
    z.object({ toolName: z.string(), toolCallId: z.string(), args: z.unknown(), result: z.unknown() }),
  ),
  usage: usageSchema,
  cost: costSchema.nullable(),
  finishReason: z.string(),
  durationMs: count,
  verification: verificationSchema.nullable(),
  replayed: z.boolean().optional(),
  // Absent from backends that predate them: the judge then reports the run as not judged.
  clarification: z
    .object({ question: z.string(), options: z.array(z.string()) })
    .nullable()
    .optional(),
  judgement: judgementSchema.nullable().optional(),
});

export type ParsedTestRunResponse =
  | { success: true; response: TestRunResponse }
  | { success: false; error: string };

/** Checks a backend answer before the runner judges it: a malformed one must not become a verdict. */
export function parseTestRunResponse(body: unknown): ParsedTestRunResponse {
  const parsed = responseSchema.safeParse(body);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const where =
      first === undefined || first.path.length === 0 ? 'the body' : first.path.map(String).join('.');
    return {
      success: false,
      error: `The backend's answer is not a test run result (${where}: ${first?.message ?? 'invalid'}). Are the CLI and \`nao chat\` the same version?`,
    };
  }
  const data = parsed.data;
  return {
    success: true,
    response: {
      ...data,
      toolCalls: data.toolCalls.map((call) => ({
        toolName: call.toolName,
        toolCallId: call.toolCallId,
        args: call.args,
        result: call.result ?? null,
      })),
    },
  };
}
