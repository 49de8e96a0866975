import { z } from 'zod';
import { lenientBoolean, lenientNumber, nonEmpty } from '../yaml-fields/lenient-fields.js';
import { costsSchema } from './llm-providers.js';

export type { DatabaseConfig, DatabaseType } from '../warehouse/database-config.js';

import { MEMORY_LIMIT_PATTERN } from '../warehouse/memory-limit.js';

export type { Costs, ProviderConfig, ProviderKind } from './llm-providers.js';

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
export const DEFAULT_AGENT = {
  max_steps: 20,
  max_result_rows: 1_000_000,
  query_timeout_s: 300,
  query_memory_limit: '25%',
} as const;
/** `test.timeout_s`: the wall-clock limit of one run (agent, reference, extraction, judge) when `--timeout` is not given. */
export const DEFAULT_RUN_TIMEOUT_S = 900;

const memoryLimit = z.string().refine(
  (value) => {
    const match = MEMORY_LIMIT_PATTERN.exec(value);
    const amount = Number(match?.[1]);
    return match !== null && amount > 0 && (match[2] !== '%' || amount <= 100);
  },
  { message: 'expected a share of the machine memory up to 100% (`25%`) or a size (`4GB`, `512MB`)' },
);
/**
 * The longest time limit nao takes, in seconds (about 24 days): Node's timers hold at most
 * 2^31−1 ms and fire at once past it, which would end every run or query immediately.
 */
export const MAX_TIMEOUT_S = Math.floor((2 ** 31 - 1) / 1000);
const seconds = lenientNumber(
  z
    .number()
    .positive('must be > 0 (seconds)')
    .max(MAX_TIMEOUT_S, `must be at most ${MAX_TIMEOUT_S} (seconds, about 24 days)`),
);

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
      timeout_s: seconds.optional(),
      /** What the pass-rate intervals cluster on: each test (default) or each test's folder. */
      stats: z.object({ cluster: z.enum(['test', 'folder']).optional() }).optional(),
    })
    .default({ comparison: DEFAULT_COMPARISON }),
  agent: z
    .object({
      max_steps: integer(1).default(DEFAULT_AGENT.max_steps),
      max_result_rows: integer(1).default(DEFAULT_AGENT.max_result_rows),
      query_timeout_s: seconds.default(DEFAULT_AGENT.query_timeout_s),
      query_memory_limit: memoryLimit.default(DEFAULT_AGENT.query_memory_limit),
    })
    .default(DEFAULT_AGENT),
});

/** The file's top-level blocks as written (after env substitution and validation, snake_case keys). */
export type RawConfig = z.output<typeof configSchema>;
export type ComparisonOptions = z.output<typeof comparisonSchema>;
