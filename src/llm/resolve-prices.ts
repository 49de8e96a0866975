import type { NaoConfig } from '../config/nao-config.js';
import type { Costs, ProviderConfig } from '../config/schema.js';
import { tablePrices } from './price-table.js';
import type { ModelPrices } from './usage.js';

/** The price layers, highest first. */
const PRICE_SOURCES = ['config', 'table', 'deprecated'] as const;
export type PriceSource = (typeof PRICE_SOURCES)[number];

export interface ResolvedPrices {
  /** `null`: no price known anywhere, so costs are unknown (never 0). */
  prices: ModelPrices | null;
  /** The highest layer that gave a bucket: declared config, then the table, then the deprecated block. */
  source: PriceSource | null;
  /** The table entry used, when one was. */
  tableModel: string | null;
  /** Set when prices were declared but incomplete, so the cost had to stay unknown. */
  warning: string | null;
}

type Bucket = keyof ModelPrices;

const BUCKETS: Record<Bucket, keyof Costs> = {
  inputNoCache: 'input_no_cache',
  inputCacheRead: 'input_cache_read',
  inputCacheWrite: 'input_cache_write',
  output: 'output',
};

/** OpenRouter ids are `<vendor>/<model>`; only vendors whose list prices the table holds count. */
const OPENROUTER_VENDORS = new Set(['openai', 'anthropic', 'google', 'mistralai']);

/**
 * The table answers for providers whose model ids name the vendor's own models (openai,
 * anthropic, google, mistral, and OpenRouter's `vendor/model` ids, billed at list price).
 * An openaiCompatible or Ollama id is whatever the server calls it, so only config prices apply.
 */
function tableLookup(provider: string, modelId: string) {
  switch (provider) {
    case 'openai':
    case 'anthropic':
    case 'google':
    case 'mistral':
      return tablePrices(modelId);
    case 'openrouter': {
      const slash = modelId.indexOf('/');
      if (slash < 0 || !OPENROUTER_VENDORS.has(modelId.slice(0, slash))) return null;
      // `:free`, `:thinking` and similar variants are billed differently.
      if (modelId.includes(':')) return null;
      return tablePrices(modelId.slice(slash + 1));
    }
    default:
      return null;
  }
}

function entriesFor(provider: string, providers: readonly ProviderConfig[]): ProviderConfig[] {
  if (provider.startsWith('openaiCompatible/')) {
    const name = provider.slice('openaiCompatible/'.length);
    return providers.filter((entry) => entry.provider === 'openaiCompatible' && entry.name === name);
  }
  return providers.filter((entry) => entry.provider === provider);
}

function declaredCosts(options: { provider: string; modelId: string; config: Pick<NaoConfig, 'llm'> }) {
  for (const entry of entriesFor(options.provider, options.config.llm.providers)) {
    const model = entry.models.find((candidate) => candidate.id === options.modelId);
    if (model?.costs !== undefined) return model.costs;
  }
  return undefined;
}

/**
 * The prices of a model, bucket by bucket: a `costs` block declared on the model under
 * `llm.providers[].models[]` wins over the built-in table, and the deprecated
 * `llm.meta.costs` fills what neither gives. Input (no cache) and output prices are required;
 * when they cannot be found, the prices are `null` (unknown, never 0).
 */
export function resolvePrices(options: {
  provider: string;
  modelId: string;
  config: Pick<NaoConfig, 'llm'>;
}): ResolvedPrices {
  const declared = declaredCosts(options);
  const table = tableLookup(options.provider, options.modelId);
  const deprecated = options.config.llm.deprecatedCosts;

  const prices: Partial<ModelPrices> = {};
  const used = new Set<PriceSource>();
  for (const [bucket, key] of Object.entries(BUCKETS) as [Bucket, keyof Costs][]) {
    const layers = { config: declared?.[key], table: table?.prices[bucket], deprecated: deprecated?.[key] };
    const layer = PRICE_SOURCES.find((name) => layers[name] !== undefined);
    if (layer !== undefined) {
      prices[bucket] = layers[layer];
      used.add(layer);
    }
  }
  const source = PRICE_SOURCES.find((layer) => used.has(layer)) ?? null;
  const tableModel = table?.model ?? null;
  if (prices.inputNoCache === undefined || prices.output === undefined) {
    const missing = [
      ...(prices.inputNoCache === undefined ? ['input_no_cache'] : []),
      ...(prices.output === undefined ? ['output'] : []),
    ];
    const warning =
      source === null
        ? null
        : `${options.provider}:${options.modelId} has prices without ${missing.join(' and ')}, and the built-in table does not know the model; its cost is reported as unknown. Declare ${missing.join(' and ')} under llm.providers[].models[].costs in nao_config.yaml.`;
    return { prices: null, source: null, tableModel, warning };
  }
  const complete = { ...prices, inputNoCache: prices.inputNoCache, output: prices.output };
  return { prices: complete, source, tableModel, warning: null };
}
