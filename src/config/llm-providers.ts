import { z } from 'zod';
import { lenientNumber, nonEmpty } from '../yaml-fields/lenient-fields.js';
import { isMapping } from '../yaml-fields/mapping.js';

/**
 * Providers nao can build a model for. `openaiCompatible` entries are addressed as
 * `openaiCompatible/<name>`, or `openaiCompatible` for an entry without a name.
 */
export const PROVIDER_KINDS = [
  'openai',
  'anthropic',
  'google',
  'mistral',
  'openrouter',
  'ollama',
  'openaiCompatible',
  'requesty',
  'qwen',
  'minimax',
  'moonshot',
] as const;
export type ProviderKind = (typeof PROVIDER_KINDS)[number];

/** Providers of the original nao that need an SDK nao does not ship: they load, their runs fail. */
export const UNSUPPORTED_PROVIDER_KINDS = ['bedrock', 'vertex'] as const;
export type UnsupportedProviderKind = (typeof UNSUPPORTED_PROVIDER_KINDS)[number];

/** Other spellings of a provider, as the original nao accepts them in config and model strings. */
export const PROVIDER_ALIASES: Readonly<Record<string, ProviderKind>> = {
  gemini: 'google',
  'openai-compatible': 'openaiCompatible',
  openai_compatible: 'openaiCompatible',
  openaicompatible: 'openaiCompatible',
};

export function isUnsupportedProviderKind(value: string): value is UnsupportedProviderKind {
  return (UNSUPPORTED_PROVIDER_KINDS as readonly string[]).includes(value);
}

/** `gemini` → `google`; anything else as written. */
export function canonicalProvider(value: string): string {
  return PROVIDER_ALIASES[value] ?? value;
}

/** How model strings address an entry: `openaiCompatible/<name>` for a named one, else its kind. */
export function providerAddress(entry: { provider: string; name?: string | undefined }): string {
  return entry.provider === 'openaiCompatible' && entry.name !== undefined
    ? `openaiCompatible/${entry.name}`
    : entry.provider;
}

const price = lenientNumber(z.number().min(0, 'must be >= 0 (USD per million tokens)'));

/** USD per million tokens, by bucket. Every bucket is optional: a missing bucket falls back. */
export const costsSchema = z.object({
  input_no_cache: price.optional(),
  input_cache_read: price.optional(),
  input_cache_write: price.optional(),
  output: price.optional(),
});

export const modelEntrySchema = z.object({
  id: nonEmpty,
  costs: costsSchema.optional(),
});

/** Keys of the original nao's provider entries that `nao test` reads but does not use. */
export const ORIGINAL_PROVIDER_KEYS = [
  'access_key',
  'secret_key',
  'aws_region',
  'aws_profile',
  'gcp_project',
  'gcp_location',
  'service_account_json',
  'key_file',
  'budget',
] as const;
/** Keys of a model entry read as known (the chat app's display name, default pick, settings). */
export const ORIGINAL_MODEL_KEYS = ['name', 'default', 'settings'] as const;

const kinds = [...PROVIDER_KINDS, ...UNSUPPORTED_PROVIDER_KINDS];

export const providerSchema = z
  .preprocess(
    (value) => {
      // `provider: openai-compatible/my-vllm` names the entry in the provider field.
      if (!isMapping(value) || typeof value.provider !== 'string') return value;
      const slash = value.provider.indexOf('/');
      const kind = canonicalProvider(slash < 0 ? value.provider : value.provider.slice(0, slash));
      const name = slash < 0 ? value.name : value.provider.slice(slash + 1) || value.name;
      return { ...value, provider: kind, ...(name === undefined || name === null ? {} : { name }) };
    },
    z.object({
      provider: z.enum(kinds, { error: () => `expected one of ${kinds.join(', ')}` }),
      name: nonEmpty.optional(),
      api_key: z.string().optional(),
      base_url: z.string().optional(),
      models: z.preprocess((value) => (value === null ? [] : value), z.array(modelEntrySchema).default([])),
    }),
  )
  .superRefine((value, ctx) => {
    if (value.name !== undefined && value.provider !== 'openaiCompatible') {
      ctx.addIssue({
        code: 'custom',
        path: ['name'],
        message: `only openaiCompatible providers are named; ${value.provider} is addressed as \`${value.provider}\``,
      });
    }
    if (value.provider === 'openaiCompatible' && (value.base_url ?? '').trim() === '') {
      ctx.addIssue({
        code: 'custom',
        path: ['base_url'],
        message: 'an openaiCompatible provider needs a `base_url`',
      });
    }
  });

export type Costs = z.output<typeof costsSchema>;

/** One `llm.providers[]` entry (provider aliases resolved). */
export type ProviderConfig = z.output<typeof providerSchema> & {
  /** Fields whose placeholders had no value (each reads as `""`), e.g. `api_key` → its description. */
  unresolved?: Record<string, string>;
};
