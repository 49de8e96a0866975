import { z } from 'zod';
import { lenientBoolean, lenientNumber } from './databases/fields.js';
import { costsSchema } from './llm-providers.js';

export type { DatabaseConfig, DatabaseType } from './databases/index.js';
export type { Costs, ProviderConfig, ProviderKind } from './llm-providers.js';

const nonEmpty = z.string().trim().min(1, 'must not be empty');
const integer = (min: number) =>
  lenientNumber(z.number().int('must be an integer').min(min, `must be >= ${min}`));
const tolerance = lenientNumber(z.number().min(0, 'must be >= 0'));

/** `provider:model_id`, split on the first colon, both sides non-empty. */
export const modelStringSchema = z.string().refine(
  (value) => {
    const colon = value.indexOf(':');
    return colon > 0 && colon < value.length - 1 && value.slice(0, colon).trim() !== '';
  },
  { message: 'expected `provider:model_id`, e.g. openai:gpt-4.1' },
);

export const DEFAULT_COMPARISON = { rtol: 0.00001, atol: 0.00000001, decimals: 2 } as const;
export const DEFAULT_MODELS = ['openai:gpt-4.1'] as const;
export const DEFAULT_AGENT = { max_steps: 20, max_result_rows: 1_000_000 } as const;

export const comparisonSchema = z.object({
  rtol: tolerance.default(DEFAULT_COMPARISON.rtol),
  atol: tolerance.default(DEFAULT_COMPARISON.atol),
  decimals: integer(0).default(DEFAULT_COMPARISON.decimals),
});

/**
 * The file's blocks apart from `databases` and `llm.providers`, which are validated entry by
 * entry (an entry of a type nao cannot run, or with unresolved placeholders, fails only the
 * runs that use it). `null` for a block is the same as leaving it out, as the original's
 * `nao init` writes `llm: null`.
 */
export const configSchema = z.object({
  project_name: nonEmpty.optional(),
  llm: z
    .object({
      meta: z.object({ costs: costsSchema.optional() }).optional(),
    })
    .default({}),
  test: z
    .object({
      models: z.array(modelStringSchema).min(1, 'list at least one model').optional(),
      threads: integer(1).optional(),
      fail_fast: lenientBoolean().optional(),
      comparison: comparisonSchema.default(DEFAULT_COMPARISON),
      judge_model: modelStringSchema.optional(),
    })
    .default({ comparison: DEFAULT_COMPARISON }),
  agent: z
    .object({
      max_steps: integer(1).default(DEFAULT_AGENT.max_steps),
      max_result_rows: integer(1).default(DEFAULT_AGENT.max_result_rows),
    })
    .default(DEFAULT_AGENT),
});

/** The file's top-level blocks as written (after env substitution and validation, snake_case keys). */
export type RawConfig = z.output<typeof configSchema>;
export type ComparisonOptions = z.output<typeof comparisonSchema>;
