import { z } from 'zod';
import type { TestRunRequest } from '../test-run/index.js';
import { invalidBody } from './request-body.js';

const nonBlank = (field: string) =>
  z
    .string({
      error: (issue) => (issue.input === undefined ? `${field} is required` : `${field} must be a string`),
    })
    .refine((value) => value.trim() !== '', `${field} must not be empty`);

const price = (field: string) =>
  z
    .number({ error: `${field} must be a number (USD per million tokens)` })
    .min(0, `${field} must be >= 0`)
    .optional();

/** The body of `POST /api/test/run`. Unknown keys are ignored, so newer CLIs can send more. */
export const testRunBodySchema = z.object(
  {
    prompt: nonBlank('prompt'),
    model: z.object(
      { provider: nonBlank('model.provider'), modelId: nonBlank('model.modelId') },
      {
        error: (issue) =>
          issue.input === undefined
            ? 'model is required, as {"provider": "openai", "modelId": "gpt-4.1"}'
            : 'model must be an object {"provider": …, "modelId": …}',
      },
    ),
    // The original nao's CLI always sends a string; "" means no reference SQL.
    sql: z.string({ error: 'sql must be a string or null' }).nullish(),
    databaseId: nonBlank('databaseId').nullish(),
    extractAnswer: z.boolean({ error: 'extractAnswer must be true or false' }).optional(),
    expectedAnswer: nonBlank('expectedAnswer').nullish(),
    judgeModel: z
      .object(
        { provider: nonBlank('judgeModel.provider'), modelId: nonBlank('judgeModel.modelId') },
        { error: 'judgeModel must be an object {"provider": …, "modelId": …} or null' },
      )
      .nullish(),
    allowClarification: z.boolean({ error: 'allowClarification must be true or false' }).optional(),
    /** The CLI's prices for the model (the original nao's CLI sends its config's `costs`). */
    meta: z
      .object({
        costs: z
          .object({
            inputNoCache: price('meta.costs.inputNoCache'),
            inputCacheRead: price('meta.costs.inputCacheRead'),
            inputCacheWrite: price('meta.costs.inputCacheWrite'),
            output: price('meta.costs.output'),
          })
          .optional(),
      })
      .nullish(),
  },
  { error: 'the body must be a JSON object' },
);

export type ParsedTestRunBody =
  | { success: true; request: TestRunRequest }
  | { success: false; error: string; fields: Record<string, string[]> };

/** Validates a request body; a bad one comes back with messages per field (`model.provider`, …). */
export function parseTestRunBody(body: unknown): ParsedTestRunBody {
  const parsed = testRunBodySchema.safeParse(body);
  if (!parsed.success) return { success: false, ...invalidBody(parsed.error.issues) };
  const { model, sql, extractAnswer, expectedAnswer, judgeModel, allowClarification } = parsed.data;
  const costs = parsed.data.meta?.costs;
  return {
    success: true,
    request: {
      prompt: parsed.data.prompt,
      model: { provider: model.provider.trim(), modelId: model.modelId.trim() },
      sql: sql?.trim() ? sql : null,
      databaseId: parsed.data.databaseId ?? null,
      ...(extractAnswer === true ? { extractAnswer } : {}),
      ...(expectedAnswer == null
        ? {}
        : {
            expectedAnswer,
            judgeModel:
              judgeModel == null
                ? null
                : { provider: judgeModel.provider.trim(), modelId: judgeModel.modelId.trim() },
          }),
      ...(allowClarification === true ? { allowClarification } : {}),
      ...(costs === undefined ? {} : { costs }),
    },
  };
}
