import type { ModelPrices } from './usage.js';

/**
 * The date the list prices below were last checked against the vendors' pricing pages.
 * Results record it, so a cost can be traced to the table that produced it.
 */
export const PRICE_TABLE_VERSION = '2025-11-24';

export type PriceVendor = 'openai' | 'anthropic' | 'google' | 'mistral';

export interface PriceEntry {
  vendor: PriceVendor;
  /** The model id as the vendor's API spells its undated alias. */
  model: string;
  /** Other ids billed the same, when the snapshot rule does not already cover them. */
  aliases?: readonly string[];
  /** USD per million tokens; every bucket explicit, so a table price never falls back. */
  prices: Required<ModelPrices>;
}

function entry(
  vendor: PriceVendor,
  model: string,
  prices: PriceEntry['prices'],
  aliases: string[] | undefined,
): PriceEntry {
  return { vendor, model, ...(aliases === undefined ? {} : { aliases }), prices };
}

/** OpenAI: cached input at the listed discount; writing the cache costs nothing extra. */
function openai(
  model: string,
  input: number,
  cached: number | null,
  output: number,
  aliases?: string[],
): PriceEntry {
  const prices = { inputNoCache: input, inputCacheRead: cached ?? input, inputCacheWrite: input, output };
  return entry('openai', model, prices, aliases);
}

/** Anthropic: cache reads at 0.1x and 5-minute cache writes at 1.25x the input price. */
function anthropic(model: string, input: number, output: number, aliases?: string[]): PriceEntry {
  const prices = {
    inputNoCache: input,
    inputCacheRead: round(input * 0.1),
    inputCacheWrite: round(input * 1.25),
    output,
  };
  return entry('anthropic', model, prices, aliases);
}

/** Google: context-cache reads at the listed price; cache storage is billed per hour and not modelled. */
function google(
  model: string,
  input: number,
  cached: number,
  output: number,
  aliases?: string[],
): PriceEntry {
  const prices = { inputNoCache: input, inputCacheRead: cached, inputCacheWrite: input, output };
  return entry('google', model, prices, aliases);
}

/** Mistral: no prompt-cache pricing, every input token at the input price. */
function mistral(model: string, input: number, output: number, aliases?: string[]): PriceEntry {
  const prices = { inputNoCache: input, inputCacheRead: input, inputCacheWrite: input, output };
  return entry('mistral', model, prices, aliases);
}

function round(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

/**
 * Public list prices (standard tier, prompts up to 200K tokens where a vendor charges more
 * above; batch and priority tiers excluded), USD per million tokens.
 */
export const PRICE_TABLE: readonly PriceEntry[] = [
  // OpenAI
  openai('gpt-5.1', 1.25, 0.125, 10, ['gpt-5.1-chat-latest', 'gpt-5.1-codex']),
  openai('gpt-5', 1.25, 0.125, 10, ['gpt-5-chat-latest', 'gpt-5-codex']),
  openai('gpt-5-mini', 0.25, 0.025, 2),
  openai('gpt-5-nano', 0.05, 0.005, 0.4),
  openai('gpt-5-pro', 15, null, 120),
  openai('gpt-4.1', 2, 0.5, 8),
  openai('gpt-4.1-mini', 0.4, 0.1, 1.6),
  openai('gpt-4.1-nano', 0.1, 0.025, 0.4),
  openai('gpt-4o', 2.5, 1.25, 10),
  // The first gpt-4o snapshot kept its launch price.
  openai('gpt-4o-2024-05-13', 5, null, 15),
  openai('gpt-4o-mini', 0.15, 0.075, 0.6),
  openai('chatgpt-4o-latest', 5, null, 15),
  openai('o3', 2, 0.5, 8),
  openai('o3-pro', 20, null, 80),
  openai('o3-mini', 1.1, 0.55, 4.4),
  openai('o4-mini', 1.1, 0.275, 4.4),
  openai('o1', 15, 7.5, 60),
  openai('o1-pro', 150, null, 600),
  openai('o1-mini', 1.1, 0.55, 4.4),
  openai('gpt-4-turbo', 10, null, 30),
  openai('gpt-4', 30, null, 60),
  openai('gpt-3.5-turbo', 0.5, null, 1.5),
  // Anthropic
  anthropic('claude-opus-4-5', 5, 25),
  anthropic('claude-opus-4-1', 15, 75),
  anthropic('claude-opus-4', 15, 75, ['claude-opus-4-0']),
  anthropic('claude-sonnet-4-5', 3, 15),
  anthropic('claude-sonnet-4', 3, 15, ['claude-sonnet-4-0']),
  anthropic('claude-3-7-sonnet', 3, 15),
  anthropic('claude-3-5-sonnet', 3, 15),
  anthropic('claude-haiku-4-5', 1, 5),
  anthropic('claude-3-5-haiku', 0.8, 4),
  anthropic('claude-3-opus', 15, 75),
  anthropic('claude-3-haiku', 0.25, 1.25),
  // Google
  google('gemini-3-pro-preview', 2, 0.2, 12),
  google('gemini-2.5-pro', 1.25, 0.125, 10),
  google('gemini-2.5-flash', 0.3, 0.03, 2.5),
  google('gemini-2.5-flash-lite', 0.1, 0.01, 0.4),
  google('gemini-2.0-flash', 0.1, 0.025, 0.4, ['gemini-2.0-flash-001']),
  google('gemini-2.0-flash-lite', 0.075, 0.075, 0.3, ['gemini-2.0-flash-lite-001']),
  // Mistral: `-latest` aliases and the dated versions known to share their price.
  mistral('mistral-large-latest', 2, 6, ['mistral-large-2411', 'mistral-large-2407']),
  mistral('mistral-medium-latest', 0.4, 2, ['mistral-medium', 'mistral-medium-2505', 'mistral-medium-2508']),
  mistral('mistral-small-latest', 0.1, 0.3, ['mistral-small-2503', 'mistral-small-2506']),
  mistral('codestral-latest', 0.3, 0.9, ['codestral-2501', 'codestral-2508']),
  mistral('magistral-medium-latest', 2, 5),
  mistral('magistral-small-latest', 0.5, 1.5),
  mistral('ministral-8b-latest', 0.1, 0.1, ['ministral-8b-2410']),
  mistral('ministral-3b-latest', 0.04, 0.04, ['ministral-3b-2410']),
  mistral('open-mistral-nemo', 0.15, 0.15, ['open-mistral-nemo-2407']),
];

/**
 * The key ids are compared on: lower case, a leading `models/` (Google's resource form)
 * dropped, and dots turned into hyphens, so `claude-sonnet-4.5` (OpenRouter's spelling)
 * meets `claude-sonnet-4-5` and `gpt-4.1` stays distinct from every other entry.
 */
export function canonicalModelId(modelId: string): string {
  return modelId
    .trim()
    .toLowerCase()
    .replace(/^models\//, '')
    .replace(/\./g, '-');
}

/**
 * Snapshot suffixes that name a dated build of an undated model billed the same:
 * `-2025-04-14` (OpenAI), `-20250929` (Anthropic), `-latest`, and `-001` (Google).
 */
const SNAPSHOT_SUFFIX = /-(?:\d{4}-\d{2}-\d{2}|\d{8}|latest|\d{3})$/;

const INDEX: ReadonlyMap<string, PriceEntry> = (() => {
  const index = new Map<string, PriceEntry>();
  for (const entry of PRICE_TABLE) {
    for (const id of [entry.model, ...(entry.aliases ?? [])]) index.set(canonicalModelId(id), entry);
  }
  return index;
})();

/**
 * Finds the list price of a model id. The rule: an exact id or alias wins; otherwise one
 * snapshot suffix is removed and the rest must match exactly (`gpt-4.1-2025-04-14` →
 * gpt-4.1, `claude-sonnet-4-5-20250929` → claude-sonnet-4-5). No prefix or fuzzy matching:
 * `gpt-4.1-preview` or `my-gpt-4.1` are unknown, never priced as something else.
 */
export function tablePrices(modelId: string): PriceEntry | null {
  const id = canonicalModelId(modelId);
  const exact = INDEX.get(id);
  if (exact !== undefined) return exact;
  const undated = id.replace(SNAPSHOT_SUFFIX, '');
  return undated === id ? null : (INDEX.get(undated) ?? null);
}
