import { describe, expect, it } from 'vitest';
import { canonicalModelId, PRICE_TABLE, PRICE_TABLE_VERSION, tablePrices } from './price-table.js';

describe('tablePrices', () => {
  it.each([
    ['gpt-4.1', 'gpt-4.1'],
    ['gpt-4.1-2025-04-14', 'gpt-4.1'],
    ['gpt-4.1-mini-2025-04-14', 'gpt-4.1-mini'],
    ['gpt-4o-mini-2024-07-18', 'gpt-4o-mini'],
    ['gpt-5-2025-08-07', 'gpt-5'],
    ['gpt-5-chat-latest', 'gpt-5'],
    ['o3-2025-04-16', 'o3'],
    ['o4-mini', 'o4-mini'],
    ['claude-sonnet-4-5', 'claude-sonnet-4-5'],
    ['claude-sonnet-4-5-20250929', 'claude-sonnet-4-5'],
    ['claude-opus-4-1-20250805', 'claude-opus-4-1'],
    ['claude-haiku-4-5-20251001', 'claude-haiku-4-5'],
    ['claude-3-5-haiku-latest', 'claude-3-5-haiku'],
    ['claude-3-5-haiku-20241022', 'claude-3-5-haiku'],
    ['claude-sonnet-4-0', 'claude-sonnet-4'],
    ['claude-sonnet-4-20250514', 'claude-sonnet-4'],
    ['claude-opus-4-20250514', 'claude-opus-4'],
    ['claude-sonnet-4.5', 'claude-sonnet-4-5'],
    ['gemini-2.5-pro', 'gemini-2.5-pro'],
    ['models/gemini-2.5-flash', 'gemini-2.5-flash'],
    ['gemini-2.5-flash-lite', 'gemini-2.5-flash-lite'],
    ['gemini-2.0-flash-001', 'gemini-2.0-flash'],
    ['mistral-large-latest', 'mistral-large-latest'],
    ['mistral-large-2411', 'mistral-large-latest'],
    ['mistral-medium-latest', 'mistral-medium-latest'],
    ['mistral-small-latest', 'mistral-small-latest'],
    ['codestral-latest', 'codestral-latest'],
    ['GPT-4.1', 'gpt-4.1'],
  ])('prices %s as %s', (modelId, model) => {
    expect(tablePrices(modelId)?.model).toBe(model);
  });

  it.each([
    ['a prefix of a known id', 'gpt-4.1-preview'],
    ['a known id inside another', 'my-gpt-4.1'],
    ['two snapshot suffixes', 'gpt-4.1-2025-04-14-2025-04-14'],
    ['a snapshot of an unknown model', 'gpt-9-2030-01-01'],
    ['a Gemini preview (priced differently from GA)', 'gemini-2.5-flash-preview-05-20'],
    ['a local model', 'llama3.1:8b'],
    ['an empty id', ''],
  ])('does not price %s', (_name, modelId) => {
    expect(tablePrices(modelId)).toBeNull();
  });

  it('keeps the launch price of the first gpt-4o snapshot', () => {
    expect(tablePrices('gpt-4o-2024-05-13')?.prices).toMatchObject({ inputNoCache: 5, output: 15 });
    expect(tablePrices('gpt-4o-2024-08-06')?.prices).toMatchObject({ inputNoCache: 2.5, output: 10 });
  });

  it.each([
    ['gpt-4.1', { inputNoCache: 2, inputCacheRead: 0.5, inputCacheWrite: 2, output: 8 }],
    ['gpt-5-mini', { inputNoCache: 0.25, inputCacheRead: 0.025, inputCacheWrite: 0.25, output: 2 }],
    ['claude-sonnet-4-5', { inputNoCache: 3, inputCacheRead: 0.3, inputCacheWrite: 3.75, output: 15 }],
    ['claude-opus-4-1', { inputNoCache: 15, inputCacheRead: 1.5, inputCacheWrite: 18.75, output: 75 }],
    ['claude-3-5-haiku', { inputNoCache: 0.8, inputCacheRead: 0.08, inputCacheWrite: 1, output: 4 }],
    ['gemini-2.5-pro', { inputNoCache: 1.25, inputCacheRead: 0.125, inputCacheWrite: 1.25, output: 10 }],
    ['mistral-large-latest', { inputNoCache: 2, inputCacheRead: 2, inputCacheWrite: 2, output: 6 }],
  ])('lists %s at its public price', (modelId, prices) => {
    expect(tablePrices(modelId)?.prices).toEqual(prices);
  });

  it('covers the models the documentation names', () => {
    for (const model of [
      'gpt-4.1',
      'gpt-4.1-mini',
      'gpt-4.1-nano',
      'gpt-4o',
      'gpt-4o-mini',
      'o3',
      'o4-mini',
      'gpt-5',
      'gpt-5-mini',
      'gpt-5-nano',
      'claude-sonnet-4-5',
      'claude-opus-4-1',
      'claude-haiku-4-5',
      'claude-3-5-haiku',
      'claude-sonnet-4',
      'claude-opus-4',
      'gemini-2.5-pro',
      'gemini-2.5-flash',
      'gemini-2.5-flash-lite',
      'gemini-2.0-flash',
      'mistral-large-latest',
      'mistral-medium-latest',
      'mistral-small-latest',
      'codestral-latest',
    ]) {
      expect(tablePrices(model), model).not.toBeNull();
    }
  });
});

describe('PRICE_TABLE', () => {
  it('gives every id and alias one entry only', () => {
    const seen = new Map<string, string>();
    for (const entry of PRICE_TABLE) {
      for (const id of [entry.model, ...(entry.aliases ?? [])]) {
        const key = canonicalModelId(id);
        expect(seen.get(key), `${id} collides with ${seen.get(key)}`).toBeUndefined();
        seen.set(key, entry.model);
      }
    }
  });

  it('holds sane prices: positive, cache reads no dearer than input', () => {
    for (const { model, prices } of PRICE_TABLE) {
      for (const value of Object.values(prices)) expect(value, model).toBeGreaterThan(0);
      expect(prices.inputCacheRead, model).toBeLessThanOrEqual(prices.inputNoCache);
      expect(prices.output, model).toBeGreaterThanOrEqual(prices.inputNoCache);
    }
  });

  it('has a version date', () => {
    expect(PRICE_TABLE_VERSION).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });
});
