import { z } from 'zod';

/** Providers nao can build a model for; `openaiCompatible` is addressed as `openaiCompatible/<name>`. */
export const PROVIDER_KINDS = [
  'openai',
  'anthropic',
  'google',
  'mistral',
  'openrouter',
  'ollama',
  'openaiCompatible',
] as const;
export type ProviderKind = (typeof PROVIDER_KINDS)[number];

export const DATABASE_TYPES = ['duckdb', 'sqlite', 'postgres', 'mysql'] as const;
export type DatabaseType = (typeof DATABASE_TYPES)[number];

const nonEmpty = z.string().trim().min(1, 'must not be empty');
const price = z.number().min(0, 'must be >= 0 (USD per million tokens)');

/** USD per million tokens, by bucket. Every bucket is optional: a missing bucket falls back. */
export const costsSchema = z.object({
  input_no_cache: price.optional(),
  input_cache_read: price.optional(),
  input_cache_write: price.optional(),
  output: price.optional(),
});

const fileDatabase = {
  name: nonEmpty,
  path: nonEmpty,
};

const serverDatabase = {
  name: nonEmpty,
  url: nonEmpty.optional(),
  host: nonEmpty.optional(),
  port: z.number().int().min(1).max(65535).optional(),
  user: z.string().optional(),
  password: z.string().optional(),
  database: nonEmpty.optional(),
};

function requireUrlOrDatabase(
  value: { url?: string | undefined; database?: string | undefined },
  ctx: z.RefinementCtx,
) {
  if (value.url === undefined && value.database === undefined) {
    ctx.addIssue({
      code: 'custom',
      message: 'give either `url` or `host`/`database` (with optional port, user, password)',
    });
  }
}

export const databaseSchema = z.discriminatedUnion(
  'type',
  [
    z.object({ type: z.literal('duckdb'), ...fileDatabase }),
    z.object({ type: z.literal('sqlite'), ...fileDatabase }),
    z
      .object({ type: z.literal('postgres'), ...serverDatabase, schema: nonEmpty.optional() })
      .superRefine(requireUrlOrDatabase),
    z.object({ type: z.literal('mysql'), ...serverDatabase }).superRefine(requireUrlOrDatabase),
  ],
  { error: () => `expected one of ${DATABASE_TYPES.join(', ')}` },
);

export const modelEntrySchema = z.object({
  id: nonEmpty,
  costs: costsSchema.optional(),
});

export const providerSchema = z
  .object({
    provider: z.enum(PROVIDER_KINDS, { error: () => `expected one of ${PROVIDER_KINDS.join(', ')}` }),
    name: nonEmpty.optional(),
    api_key: z.string().optional(),
    base_url: nonEmpty.optional(),
    models: z.array(modelEntrySchema).default([]),
  })
  .superRefine((value, ctx) => {
    if (value.provider !== 'openaiCompatible') return;
    if (value.name === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['name'],
        message: 'an openaiCompatible provider needs a `name`',
      });
    }
    if (value.base_url === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['base_url'],
        message: 'an openaiCompatible provider needs a `base_url`',
      });
    }
  });

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

/** A share of the machine's memory (`25%`) or a size (`4GB`, `512MiB`), as DuckDB spells sizes. */
export const MEMORY_LIMIT_PATTERN = /^\s*(\d+(?:\.\d+)?)\s*(%|B|KB|MB|GB|TB|KiB|MiB|GiB|TiB)\s*$/i;
const memoryLimit = z.string().refine(
  (value) => {
    const match = MEMORY_LIMIT_PATTERN.exec(value);
    const amount = Number(match?.[1]);
    return match !== null && amount > 0 && (match[2] !== '%' || amount <= 100);
  },
  { message: 'expected a share of the machine memory up to 100% (`25%`) or a size (`4GB`, `512MB`)' },
);
const seconds = z.number().positive('must be > 0 (seconds)');

export const comparisonSchema = z.object({
  rtol: z.number().min(0, 'must be >= 0').default(DEFAULT_COMPARISON.rtol),
  atol: z.number().min(0, 'must be >= 0').default(DEFAULT_COMPARISON.atol),
  decimals: z.number().int('must be an integer').min(0, 'must be >= 0').default(DEFAULT_COMPARISON.decimals),
});

export const configSchema = z.object({
  project_name: nonEmpty.optional(),
  databases: z.array(databaseSchema).default([]),
  llm: z
    .object({
      providers: z.array(providerSchema).default([]),
      meta: z.object({ costs: costsSchema.optional() }).optional(),
    })
    .default({ providers: [] }),
  test: z
    .object({
      models: z.array(modelStringSchema).min(1, 'list at least one model').optional(),
      threads: z.number().int('must be an integer').min(1, 'must be >= 1').optional(),
      comparison: comparisonSchema.default(DEFAULT_COMPARISON),
      judge_model: modelStringSchema.optional(),
      timeout_s: seconds.optional(),
    })
    .default({ comparison: DEFAULT_COMPARISON }),
  agent: z
    .object({
      max_steps: z.number().int('must be an integer').min(1, 'must be >= 1').default(DEFAULT_AGENT.max_steps),
      max_result_rows: z
        .number()
        .int('must be an integer')
        .min(1, 'must be >= 1')
        .default(DEFAULT_AGENT.max_result_rows),
      query_timeout_s: seconds.default(DEFAULT_AGENT.query_timeout_s),
      query_memory_limit: memoryLimit.default(DEFAULT_AGENT.query_memory_limit),
    })
    .default(DEFAULT_AGENT),
});

/** The file as written (after env substitution and validation, snake_case keys). */
export type RawConfig = z.output<typeof configSchema>;
export type Costs = z.output<typeof costsSchema>;
export type DatabaseConfig = z.output<typeof databaseSchema>;
export type ProviderConfig = z.output<typeof providerSchema>;
export type ComparisonOptions = z.output<typeof comparisonSchema>;
