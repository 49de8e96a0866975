import { describe, expect, it } from 'vitest';
import type { NaoConfig } from '../config/nao-config.js';
import type { Costs, ProviderConfig } from '../config/schema.js';
import { resolvePrices } from './resolve-prices.js';

function config(providers: ProviderConfig[], deprecatedCosts?: Costs): Pick<NaoConfig, 'llm'> {
  return { llm: { providers, ...(deprecatedCosts === undefined ? {} : { deprecatedCosts }) } };
}

const proxy: ProviderConfig = {
  provider: 'openai',
  base_url: 'http://0.0.0.0:4000',
  models: [
    { id: 'my-proxy-alias', costs: { input_no_cache: 2.5, output: 10 } },
    { id: 'gpt-4.1', costs: { output: 7 } },
    { id: 'half-priced', costs: { output: 1 } },
    { id: 'no-costs' },
  ],
};

describe('resolvePrices', () => {
  it('prices a known model from the table', () => {
    expect(
      resolvePrices({ provider: 'anthropic', modelId: 'claude-sonnet-4-5-20250929', config: config([]) }),
    ).toEqual({
      prices: { inputNoCache: 3, inputCacheRead: 0.3, inputCacheWrite: 3.75, output: 15 },
      source: 'table',
      tableModel: 'claude-sonnet-4-5',
      warning: null,
    });
  });

  it('prices a model the table does not know from its declared costs', () => {
    const resolved = resolvePrices({
      provider: 'openai',
      modelId: 'my-proxy-alias',
      config: config([proxy]),
    });
    expect(resolved.prices).toEqual({ inputNoCache: 2.5, output: 10 });
    expect(resolved.source).toBe('config');
  });

  it('lets declared costs win over the table bucket by bucket', () => {
    const resolved = resolvePrices({ provider: 'openai', modelId: 'gpt-4.1', config: config([proxy]) });
    expect(resolved.prices).toEqual({ inputNoCache: 2, inputCacheRead: 0.5, inputCacheWrite: 2, output: 7 });
    expect(resolved.source).toBe('config');
  });

  it('uses the deprecated block as the last resort for any model', () => {
    const deprecated = { input_no_cache: 1, input_cache_read: 0.1, output: 4 };
    expect(
      resolvePrices({ provider: 'openai', modelId: 'unknown-model', config: config([], deprecated) }),
    ).toEqual({
      prices: { inputNoCache: 1, inputCacheRead: 0.1, output: 4 },
      source: 'deprecated',
      tableModel: null,
      warning: null,
    });
    // A table price is complete, so the deprecated block changes nothing there.
    expect(
      resolvePrices({ provider: 'openai', modelId: 'gpt-4.1', config: config([], deprecated) }).prices,
    ).toEqual({
      inputNoCache: 2,
      inputCacheRead: 0.5,
      inputCacheWrite: 2,
      output: 8,
    });
  });

  it('fills what declared costs leave out from the deprecated block', () => {
    const resolved = resolvePrices({
      provider: 'openai',
      modelId: 'half-priced',
      config: config([proxy], { input_no_cache: 0.5, output: 99 }),
    });
    expect(resolved.prices).toEqual({ inputNoCache: 0.5, output: 1 });
    expect(resolved.source).toBe('config');
  });

  it('reports an unknown price as null, never 0', () => {
    expect(resolvePrices({ provider: 'openai', modelId: 'no-costs', config: config([proxy]) })).toEqual({
      prices: null,
      source: null,
      tableModel: null,
      warning: null,
    });
  });

  it('keeps the cost unknown and warns when declared prices lack the input price', () => {
    const resolved = resolvePrices({ provider: 'openai', modelId: 'half-priced', config: config([proxy]) });
    expect(resolved.prices).toBeNull();
    expect(resolved.warning).toContain('openai:half-priced has prices without input_no_cache');
    expect(resolved.warning).toContain('llm.providers[].models[].costs');
  });

  it('never takes table prices for an openaiCompatible or ollama model, whatever its id', () => {
    const vllm: ProviderConfig = {
      provider: 'openaiCompatible',
      name: 'vllm',
      base_url: 'http://localhost:8000/v1',
      models: [{ id: 'served', costs: { input_no_cache: 0, output: 0 } }],
    };
    expect(
      resolvePrices({ provider: 'openaiCompatible/vllm', modelId: 'gpt-4.1', config: config([vllm]) }).prices,
    ).toBeNull();
    expect(resolvePrices({ provider: 'ollama', modelId: 'gpt-4.1', config: config([]) }).prices).toBeNull();
    // Declared zero prices are a real price: free, not unknown.
    expect(
      resolvePrices({ provider: 'openaiCompatible/vllm', modelId: 'served', config: config([vllm]) }),
    ).toMatchObject({
      prices: { inputNoCache: 0, output: 0 },
      source: 'config',
    });
  });

  it('reads costs only from the entry of the named openaiCompatible provider', () => {
    const a: ProviderConfig = {
      provider: 'openaiCompatible',
      name: 'a',
      base_url: 'http://a/v1',
      models: [{ id: 'm', costs: { input_no_cache: 1, output: 1 } }],
    };
    const b: ProviderConfig = {
      provider: 'openaiCompatible',
      name: 'b',
      base_url: 'http://b/v1',
      models: [],
    };
    expect(
      resolvePrices({ provider: 'openaiCompatible/a', modelId: 'm', config: config([a, b]) }).prices,
    ).not.toBeNull();
    expect(
      resolvePrices({ provider: 'openaiCompatible/b', modelId: 'm', config: config([a, b]) }).prices,
    ).toBeNull();
  });

  it.each([
    ['openai/gpt-4.1', 'gpt-4.1'],
    ['anthropic/claude-sonnet-4.5', 'claude-sonnet-4-5'],
    ['google/gemini-2.5-pro', 'gemini-2.5-pro'],
    ['mistralai/mistral-large-2411', 'mistral-large-latest'],
    ['meta-llama/llama-3.1-70b-instruct', null],
    ['openai/gpt-4.1:free', null],
    ['gpt-4.1', null],
  ])('prices OpenRouter id %s from the table entry %s', (modelId, tableModel) => {
    const resolved = resolvePrices({ provider: 'openrouter', modelId, config: config([]) });
    expect(resolved.tableModel).toBe(tableModel);
    expect(resolved.source).toBe(tableModel === null ? null : 'table');
  });
});
