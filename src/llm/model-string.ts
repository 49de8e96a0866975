import {
  canonicalProvider,
  isUnsupportedProviderKind,
  PROVIDER_KINDS,
  providerAddress,
} from '../config/llm-providers.js';
import type { ProviderConfig, ProviderKind } from '../config/schema.js';
import { NaoError, UsageError } from '../errors/index.js';
import { MOCK_MODEL_ID, MOCK_PROVIDER } from './mock-model.js';

/** Providers usable without a config entry (their key comes from the environment, or none is needed). */
export type BuiltInProvider = Exclude<ProviderKind, 'openaiCompatible'>;
export const BUILT_IN_PROVIDERS = PROVIDER_KINDS.filter(
  (kind): kind is BuiltInProvider => kind !== 'openaiCompatible',
);

const COMPATIBLE_PREFIX = 'openaiCompatible/';

export interface ParsedModel {
  /** As written: `openai`, or `openaiCompatible/<name>` for a configured OpenAI-compatible server. */
  provider: string;
  modelId: string;
  /** `mock`: nao's built-in `mock:reference`, which calls no model (see mock-model.ts). */
  kind: ProviderKind | typeof MOCK_PROVIDER;
  /** The `name` of the openaiCompatible entry; absent for other kinds. */
  name?: string;
}

/**
 * A provider of the original nao that needs an SDK nao does not ship (bedrock, vertex). Not a
 * usage error: the runs of its models fail with this message, the others run.
 */
export class UnsupportedProviderError extends NaoError {
  readonly provider: string;

  constructor(options: { provider: string; model: string }) {
    super({
      code: 'PROVIDER_UNSUPPORTED',
      message:
        `${options.model}: the ${options.provider} provider of the original nao is not supported by this nao yet. ` +
        'Reach the model through an OpenAI-compatible gateway instead (an `openaiCompatible` entry with ' +
        'its `base_url`, e.g. a LiteLLM proxy), or run these tests with the original nao.',
    });
    this.provider = options.provider;
  }
}

function isBuiltIn(value: string): value is BuiltInProvider {
  return (BUILT_IN_PROVIDERS as readonly string[]).includes(value);
}

/** Every provider a model string may name with this configuration. */
export function knownProviders(providers: readonly ProviderConfig[]): string[] {
  const compatible = providers.filter((entry) => entry.provider === 'openaiCompatible');
  return [...BUILT_IN_PROVIDERS, ...compatible.map(providerAddress), MOCK_PROVIDER];
}

function invalid(value: string, reason: string, providers: readonly ProviderConfig[]): UsageError {
  const configured = providers.map(providerAddress);
  return new UsageError({
    code: 'INVALID_MODEL',
    message: [
      `Invalid model ${JSON.stringify(value)}: ${reason}.`,
      'Write it as provider:model_id, e.g. openai:gpt-4.1 or anthropic:claude-sonnet-4-5.',
      `Providers: ${knownProviders(providers).join(', ')} (provider kinds: ${[...BUILT_IN_PROVIDERS, 'openaiCompatible/<name>'].join(', ')}).`,
      configured.length === 0
        ? 'None is configured under llm.providers in nao_config.yaml; built-in providers take their API key from the environment.'
        : `Configured under llm.providers in nao_config.yaml: ${configured.join(', ')}.`,
    ].join(' '),
  });
}

/**
 * Splits `provider:model_id` on the first colon, so model ids may hold colons
 * (`ollama:llama3.1:8b`, `openaiCompatible/vllm:llama-3:8b`). Built-in providers are
 * accepted without a config entry; `openaiCompatible/<name>` needs a configured entry.
 */
export function parseModelString(
  value: string,
  options: { providers: readonly ProviderConfig[] },
): ParsedModel {
  const { providers } = options;
  const colon = value.indexOf(':');
  if (colon < 0) throw invalid(value, 'there is no ":" between the provider and the model id', providers);
  const written = value.slice(0, colon).trim();
  const modelId = value.slice(colon + 1).trim();
  // `gemini` and `openai-compatible/<name>` are the original nao's spellings.
  const slash = written.indexOf('/');
  const provider =
    slash < 0
      ? canonicalProvider(written)
      : `${canonicalProvider(written.slice(0, slash))}${written.slice(slash)}`;
  if (provider === '') throw invalid(value, 'the provider before ":" is empty', providers);
  if (modelId === '') throw invalid(value, 'the model id after ":" is empty', providers);

  if (isBuiltIn(provider)) return { provider, modelId, kind: provider };
  if (provider === MOCK_PROVIDER) {
    if (modelId === MOCK_MODEL_ID) return { provider, modelId, kind: MOCK_PROVIDER };
    throw invalid(
      value,
      `the built-in mock provider has one model, ${MOCK_PROVIDER}:${MOCK_MODEL_ID} (it answers each test with its reference SQL)`,
      providers,
    );
  }
  if (isUnsupportedProviderKind(provider))
    throw new UnsupportedProviderError({ provider, model: value.trim() });
  // An entry without a name is addressed as plain `openaiCompatible`, as in the original nao.
  const plain = provider === 'openaiCompatible';
  if (plain || provider.startsWith(COMPATIBLE_PREFIX)) {
    const name = provider.slice(COMPATIBLE_PREFIX.length);
    if (providers.some((entry) => providerAddress(entry) === provider)) {
      return { provider, modelId, kind: 'openaiCompatible', ...(plain ? {} : { name }) };
    }
    const reason = plain
      ? 'an openaiCompatible provider is named after its llm.providers entry: openaiCompatible/<name>:model_id'
      : `no openaiCompatible provider named ${JSON.stringify(name)} is configured`;
    throw invalid(value, reason, providers);
  }
  const lower = provider.toLowerCase();
  const near = knownProviders(providers).find((known) => known.toLowerCase() === lower);
  const hint = near === undefined ? '' : ` (did you mean ${near}?)`;
  throw invalid(value, `unknown provider ${JSON.stringify(provider)}${hint}`, providers);
}
