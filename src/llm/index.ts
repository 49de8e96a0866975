export { DEFAULT_CALL_SETTINGS, isRetryableStatus } from './call-settings.js';
export { isMockModel } from './mock-model.js';
export { parseModelString, UnsupportedProviderError } from './model-string.js';
export { PRICE_TABLE_VERSION } from './price-table.js';
export { ProviderError, ProviderTimeoutError, redactSecrets } from './provider-error.js';
export type { OpenAIApi } from './providers.js';
export { type ResolvedModel, resolveModel } from './resolve-model.js';
export { resolvePrices } from './resolve-prices.js';
export {
  addUsage,
  type Cost,
  costOf,
  EMPTY_USAGE,
  type ModelPrices,
  type TokenUsage,
  usageFromSdk,
  usageFromSteps,
} from './usage.js';
export { meteredModel } from './usage-meter.js';
