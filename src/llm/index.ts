export { httpFetch, isBufferedResponse, NULL_BODY_STATUSES } from './http-fetch.js';
export {
  BUILT_IN_PROVIDERS,
  type BuiltInProvider,
  knownProviders,
  type ParsedModel,
  parseModelString,
  UnsupportedProviderError,
} from './model-string.js';
export {
  canonicalModelId,
  PRICE_TABLE,
  PRICE_TABLE_VERSION,
  type PriceEntry,
  type PriceVendor,
  tablePrices,
} from './price-table.js';
export {
  findProviderError,
  ProviderError,
  type ProviderFailure,
  ProviderTimeoutError,
  providerMessageOf,
  redactSecrets,
} from './provider-error.js';
export {
  type CreateModelOptions,
  type LanguageModelInstance,
  type OpenAIApi,
  PROVIDER_DEFINITIONS,
  type ProviderDefinition,
} from './providers.js';
export { type ResolvedModel, type ResolveModelOptions, resolveModel } from './resolve-model.js';
export { type PriceSource, type ResolvedPrices, resolvePrices } from './resolve-prices.js';
export {
  backoffMs,
  createRetryingFetch,
  DEFAULT_RETRY,
  DEFAULT_TIMEOUT_MS,
  type FetchFunction,
  isRetryableStatus,
  NO_SDK_RETRIES,
  type RetryEvent,
  type RetryingFetchOptions,
  type RetryOptions,
  retryAfterMs,
} from './retry-fetch.js';
export {
  addCosts,
  addUsage,
  type Cost,
  costOf,
  EMPTY_USAGE,
  type ModelPrices,
  type TokenUsage,
  usageFromSdk,
  usageFromSteps,
} from './usage.js';
