import type { LanguageModelUsage } from 'ai';

/** Token counts by bucket, summed over every model call of a run (never only the last step). */
export interface TokenUsage {
  inputTotalTokens: number;
  inputNoCacheTokens: number;
  inputCacheReadTokens: number;
  inputCacheWriteTokens: number;
  outputTotalTokens: number;
  outputTextTokens: number;
  outputReasoningTokens: number;
  totalTokens: number;
}

export const EMPTY_USAGE: TokenUsage = Object.freeze({
  inputTotalTokens: 0,
  inputNoCacheTokens: 0,
  inputCacheReadTokens: 0,
  inputCacheWriteTokens: 0,
  outputTotalTokens: 0,
  outputTextTokens: 0,
  outputReasoningTokens: 0,
  totalTokens: 0,
});

/** Converts one AI SDK usage record into our buckets, deriving what the provider left out. */
export function usageFromSdk(usage: LanguageModelUsage | undefined): TokenUsage {
  if (usage === undefined) return { ...EMPTY_USAGE };
  const inputTotal = usage.inputTokens ?? 0;
  const cacheRead = usage.inputTokenDetails?.cacheReadTokens ?? usage.cachedInputTokens ?? 0;
  const cacheWrite = usage.inputTokenDetails?.cacheWriteTokens ?? 0;
  const noCache = usage.inputTokenDetails?.noCacheTokens ?? Math.max(0, inputTotal - cacheRead - cacheWrite);
  const outputTotal = usage.outputTokens ?? 0;
  const reasoning = usage.outputTokenDetails?.reasoningTokens ?? usage.reasoningTokens ?? 0;
  const text = usage.outputTokenDetails?.textTokens ?? Math.max(0, outputTotal - reasoning);
  return {
    inputTotalTokens: inputTotal,
    inputNoCacheTokens: noCache,
    inputCacheReadTokens: cacheRead,
    inputCacheWriteTokens: cacheWrite,
    outputTotalTokens: outputTotal,
    outputTextTokens: text,
    outputReasoningTokens: reasoning,
    totalTokens: usage.totalTokens ?? inputTotal + outputTotal,
  };
}

/** Adds usage records bucket by bucket. */
export function addUsage(...records: TokenUsage[]): TokenUsage {
  const sum = { ...EMPTY_USAGE };
  for (const record of records) {
    for (const key of Object.keys(sum) as (keyof TokenUsage)[]) sum[key] += record[key];
  }
  return sum;
}

/** Sums the usage of every step of an AI SDK result (`result.usage` in ai@6 is the last step only). */
export function usageFromSteps(steps: ReadonlyArray<{ usage: LanguageModelUsage }>): TokenUsage {
  return addUsage(...steps.map((step) => usageFromSdk(step.usage)));
}

/** USD, by bucket. `null` where it stands in place of a Cost means: no price known anywhere. */
export interface Cost {
  inputNoCache: number;
  inputCacheRead: number;
  inputCacheWrite: number;
  output: number;
  totalCost: number;
}

/** USD per million tokens, by bucket, after the config/table/deprecated fallbacks were applied. */
export interface ModelPrices {
  inputNoCache: number;
  /** Missing → priced as `inputNoCache`. */
  inputCacheRead?: number;
  /** Missing → priced as `inputNoCache`. */
  inputCacheWrite?: number;
  output: number;
}

/** Prices a usage record; reasoning tokens are output tokens. `null` prices → `null` cost (unknown, not free). */
export function costOf(usage: TokenUsage, prices: ModelPrices | null): Cost | null {
  if (prices === null) return null;
  const perToken = (perMillion: number) => perMillion / 1_000_000;
  const inputNoCache = usage.inputNoCacheTokens * perToken(prices.inputNoCache);
  const inputCacheRead = usage.inputCacheReadTokens * perToken(prices.inputCacheRead ?? prices.inputNoCache);
  const inputCacheWrite =
    usage.inputCacheWriteTokens * perToken(prices.inputCacheWrite ?? prices.inputNoCache);
  const output = usage.outputTotalTokens * perToken(prices.output);
  return {
    inputNoCache,
    inputCacheRead,
    inputCacheWrite,
    output,
    totalCost: inputNoCache + inputCacheRead + inputCacheWrite + output,
  };
}
