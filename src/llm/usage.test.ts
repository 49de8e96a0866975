import type { LanguageModelUsage } from 'ai';
import { describe, expect, it } from 'vitest';
import { addUsage, costOf, EMPTY_USAGE, type TokenUsage, usageFromSdk, usageFromSteps } from './usage.js';

function sdkUsage(partial: Partial<LanguageModelUsage>): LanguageModelUsage {
  return {
    inputTokens: undefined,
    inputTokenDetails: { noCacheTokens: undefined, cacheReadTokens: undefined, cacheWriteTokens: undefined },
    outputTokens: undefined,
    outputTokenDetails: { textTokens: undefined, reasoningTokens: undefined },
    totalTokens: undefined,
    ...partial,
  } as LanguageModelUsage;
}

describe('usageFromSdk', () => {
  it('reads every bucket the SDK reports', () => {
    expect(
      usageFromSdk(
        sdkUsage({
          inputTokens: 100,
          inputTokenDetails: { noCacheTokens: 50, cacheReadTokens: 40, cacheWriteTokens: 10 },
          outputTokens: 30,
          outputTokenDetails: { textTokens: 18, reasoningTokens: 12 },
          totalTokens: 130,
        }),
      ),
    ).toEqual({
      inputTotalTokens: 100,
      inputNoCacheTokens: 50,
      inputCacheReadTokens: 40,
      inputCacheWriteTokens: 10,
      outputTotalTokens: 30,
      outputTextTokens: 18,
      outputReasoningTokens: 12,
      totalTokens: 130,
    });
  });

  it('derives the buckets a provider left out', () => {
    expect(
      usageFromSdk(
        sdkUsage({ inputTokens: 100, cachedInputTokens: 30, outputTokens: 20, reasoningTokens: 5 }),
      ),
    ).toEqual({
      inputTotalTokens: 100,
      inputNoCacheTokens: 70,
      inputCacheReadTokens: 30,
      inputCacheWriteTokens: 0,
      outputTotalTokens: 20,
      outputTextTokens: 15,
      outputReasoningTokens: 5,
      totalTokens: 120,
    });
  });

  it('treats a missing usage as zero tokens', () => {
    expect(usageFromSdk(undefined)).toEqual(EMPTY_USAGE);
  });
});

describe('addUsage and usageFromSteps', () => {
  it('sums every step, not only the last one', () => {
    const steps = [
      { usage: sdkUsage({ inputTokens: 100, outputTokens: 10, totalTokens: 110 }) },
      {
        usage: sdkUsage({
          inputTokens: 200,
          inputTokenDetails: { noCacheTokens: 150, cacheReadTokens: 50, cacheWriteTokens: 0 },
          outputTokens: 20,
          outputTokenDetails: { textTokens: 15, reasoningTokens: 5 },
          totalTokens: 220,
        }),
      },
    ];
    expect(usageFromSteps(steps)).toEqual({
      inputTotalTokens: 300,
      inputNoCacheTokens: 250,
      inputCacheReadTokens: 50,
      inputCacheWriteTokens: 0,
      outputTotalTokens: 30,
      outputTextTokens: 25,
      outputReasoningTokens: 5,
      totalTokens: 330,
    });
  });

  it('returns zero usage for no records and does not alter EMPTY_USAGE', () => {
    expect(addUsage()).toEqual(EMPTY_USAGE);
    expect(usageFromSteps([])).toEqual(EMPTY_USAGE);
    expect(Object.isFrozen(EMPTY_USAGE)).toBe(true);
  });
});

describe('costOf', () => {
  const usage: TokenUsage = {
    inputTotalTokens: 1_000_000,
    inputNoCacheTokens: 500_000,
    inputCacheReadTokens: 400_000,
    inputCacheWriteTokens: 100_000,
    outputTotalTokens: 200_000,
    outputTextTokens: 150_000,
    outputReasoningTokens: 50_000,
    totalTokens: 1_200_000,
  };

  it('prices each bucket and counts reasoning as output', () => {
    const cost = costOf(usage, { inputNoCache: 3, inputCacheRead: 0.3, inputCacheWrite: 3.75, output: 15 });
    expect(cost?.inputNoCache).toBeCloseTo(1.5, 12);
    expect(cost?.inputCacheRead).toBeCloseTo(0.12, 12);
    expect(cost?.inputCacheWrite).toBeCloseTo(0.375, 12);
    expect(cost?.output).toBeCloseTo(3, 12);
    expect(cost?.totalCost).toBeCloseTo(4.995, 12);
  });

  it('prices cache buckets at the input price when they have none', () => {
    const cost = costOf(usage, { inputNoCache: 2, output: 8 });
    expect(cost?.inputCacheRead).toBeCloseTo(0.8, 12);
    expect(cost?.inputCacheWrite).toBeCloseTo(0.2, 12);
    expect(cost?.totalCost).toBeCloseTo(2 + 1.6, 12);
  });

  it('is unknown (null), not free, without prices', () => {
    expect(costOf(usage, null)).toBeNull();
  });

  it('is exactly zero for zero tokens at a known price', () => {
    expect(costOf(EMPTY_USAGE, { inputNoCache: 2, output: 8 })?.totalCost).toBe(0);
  });
});
