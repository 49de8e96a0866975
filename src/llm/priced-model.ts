import type { LanguageModel } from 'ai';
import type { ModelCallSettings } from './call-settings.js';
import type { ModelPrices } from './usage.js';

/**
 * A model as nao calls it (the agent, the extraction, the answer judge): named, priced, with
 * its call settings and nao's error translation. A `ResolvedModel` is one.
 */
export interface PricedModel {
  /** `provider:model_id`, for messages and reports. */
  id: string;
  model: LanguageModel;
  /** `null`: no price known anywhere, so the cost is unknown (not zero). */
  prices: ModelPrices | null;
  /** Retries and timeouts of each model call (default: the SDK's). */
  callSettings?: ModelCallSettings;
  /** Turns a failed call's error into the one to report (nao's provider messages). */
  explainError?: (error: unknown) => unknown;
}
