import { providerAddress } from '../config/llm-providers.js';
import type { NaoConfig } from '../config/nao-config.js';
import type { ProviderKind } from '../config/schema.js';
import { UsageError } from '../errors/index.js';
import { DEFAULT_CALL_SETTINGS, type ModelCallSettings } from './call-settings.js';
import { type FetchFunction, failFastFetch } from './fail-fast-fetch.js';
import { MOCK_PROVIDER, type MockReference, mockReferenceModel } from './mock-model.js';
import { parseModelString } from './model-string.js';
import type { PricedModel } from './priced-model.js';
import { explainProviderFailure } from './provider-error.js';
import { type LanguageModelInstance, type OpenAIApi, PROVIDER_DEFINITIONS } from './providers.js';
import { type PriceSource, resolvePrices } from './resolve-prices.js';

export interface ResolveModelOptions {
  /** `provider:model_id`, as given to `-m` or listed under `test.models`. */
  modelString: string;
  config: Pick<NaoConfig, 'llm'> & Partial<Pick<NaoConfig, 'configPath'>>;
  /** The environment to read API keys from (the CLI passes `process.env`). */
  env: Record<string, string | undefined>;
  /** The transport under the provider packages (default: the standard fetch). */
  fetch?: FetchFunction;
  /** Retries and timeouts of every call (default `DEFAULT_CALL_SETTINGS`). */
  callSettings?: ModelCallSettings;
  /** Endpoint for `openai:` models (default `responses`, like the SDK). */
  openaiApi?: OpenAIApi;
  /**
   * Replay answers every call from recordings and sends nothing anywhere: a missing key is then
   * no error, and the provider package gets a placeholder it would otherwise look for in the environment.
   */
  allowMissingKey?: boolean;
}

/** The key given to provider packages when replaying without one; never reaches a provider. */
export const REPLAY_PLACEHOLDER_KEY = 'nao-replay-no-key';

/** Its `id` is `provider:model_id`, trimmed: the name results are recorded under. */
export interface ResolvedModel extends PricedModel {
  provider: string;
  modelId: string;
  kind: ProviderKind | typeof MOCK_PROVIDER;
  /** Pass to `generateText` / `streamText` together with `callSettings`. */
  model: LanguageModelInstance;
  callSettings: ModelCallSettings;
  /** What a failed call of this model threw, as nao's `ProviderError` (see `explainProviderFailure`). */
  explainError(error: unknown): unknown;
  baseUrl: string;
  priceSource: PriceSource | null;
  /** Set when declared prices were incomplete (the cost stays unknown); the runtime reports it (onPriceWarning). */
  priceWarning: string | null;
  /**
   * Only `mock:reference` has it: the model instance for one test run, told that test's
   * reference SQL. No real model has this channel, so a real agent never sees the reference.
   */
  withReference?: (reference: MockReference) => LanguageModelInstance;
}

/** `mock:reference`: answers from the test's reference SQL, costs 0, sends nothing anywhere. */
function mockModel(modelId: string): ResolvedModel {
  return {
    id: `${MOCK_PROVIDER}:${modelId}`,
    provider: MOCK_PROVIDER,
    modelId,
    kind: MOCK_PROVIDER,
    model: mockReferenceModel(),
    callSettings: DEFAULT_CALL_SETTINGS,
    explainError: (error) => error,
    baseUrl: '',
    prices: { inputNoCache: 0, output: 0 },
    priceSource: null,
    priceWarning: null,
    withReference: (reference) => mockReferenceModel(reference),
  };
}

function present(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}

/**
 * Builds the AI SDK model for `provider:model_id`: the key from the provider's `api_key`
 * in nao_config.yaml or else its usual environment variable, the configured `base_url`,
 * the settings and error messages of its calls, and its prices. Built-in providers work
 * without a config entry.
 */
export function resolveModel(options: ResolveModelOptions): ResolvedModel {
  const { config, env } = options;
  const providers = config.llm.providers;
  const parsed = parseModelString(options.modelString, { providers });
  if (parsed.kind === MOCK_PROVIDER) return mockModel(parsed.modelId);
  const definition = PROVIDER_DEFINITIONS[parsed.kind];
  const keyRequired = definition.keyEnv.length > 0;
  const entry = providers.find((candidate) => providerAddress(candidate) === parsed.provider);
  const id = `${parsed.provider}:${parsed.modelId}`;
  const configFile = config.configPath ?? 'nao_config.yaml';
  const entryLabel =
    parsed.kind === 'openaiCompatible' && parsed.name !== undefined
      ? `the openaiCompatible entry named ${parsed.name}`
      : `the ${parsed.kind} entry`;

  const configuredKey = present(entry?.api_key);
  const envKeyName = definition.keyEnv.find((name) => present(env[name]) !== undefined);
  const apiKey = configuredKey ?? (envKeyName === undefined ? undefined : present(env[envKeyName]));
  if (apiKey === undefined && keyRequired && options.allowMissingKey !== true) {
    const envNames = definition.keyEnv.join(' or ');
    const unresolved = entry?.unresolved?.api_key;
    throw new UsageError({
      code: 'MISSING_API_KEY',
      message:
        unresolved === undefined
          ? `No API key for ${id}. Set \`api_key\` on ${entryLabel} under llm.providers in ${configFile} ` +
            `(e.g. api_key: {{ env('${definition.keyEnv[0]}') }}), or set the ${envNames} environment variable.`
          : `No API key for ${id}: ${unresolved} in ${configFile}, and ${envNames} is not set either. Set it and run again.`,
    });
  }

  const baseUrl = present(entry?.base_url) ?? definition.defaultBaseUrl;
  if (baseUrl === '') {
    throw new UsageError({
      code: 'MISSING_BASE_URL',
      message:
        entry?.unresolved?.base_url === undefined
          ? `${id} needs a base_url: set \`base_url\` on ${entryLabel} under llm.providers in ${configFile}.`
          : `${id} needs a base_url: ${entry.unresolved.base_url} in ${configFile}. Set it and run again.`,
    });
  }

  const authHint =
    configuredKey !== undefined
      ? `it came from api_key on ${entryLabel} in ${configFile}`
      : envKeyName !== undefined
        ? `it came from the ${envKeyName} environment variable`
        : `none was sent; set api_key on ${entryLabel} in ${configFile}`;
  const secrets = apiKey === undefined ? [] : [apiKey];
  const failure = { provider: parsed.provider, modelId: parsed.modelId, secrets, authHint };
  const model = definition.create({
    modelId: parsed.modelId,
    apiKey: apiKey ?? (keyRequired ? REPLAY_PLACEHOLDER_KEY : undefined),
    baseURL: baseUrl,
    fetch: failFastFetch({ ...failure, fetch: options.fetch }),
    name: parsed.name ?? parsed.kind,
    openaiApi: options.openaiApi ?? 'responses',
  });
  const priced = resolvePrices({ provider: parsed.provider, modelId: parsed.modelId, config });
  return {
    id,
    provider: parsed.provider,
    modelId: parsed.modelId,
    kind: parsed.kind,
    model,
    callSettings: options.callSettings ?? DEFAULT_CALL_SETTINGS,
    explainError: (error) => explainProviderFailure(error, failure),
    baseUrl,
    prices: priced.prices,
    priceSource: priced.source,
    priceWarning: priced.warning,
  };
}
