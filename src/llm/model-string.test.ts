import { describe, expect, it } from 'vitest';
import type { ProviderConfig } from '../config/schema.js';
import { UsageError } from '../errors/index.js';
import { knownProviders, parseModelString, UnsupportedProviderError } from './model-string.js';

const providers: ProviderConfig[] = [
  { provider: 'openai', models: [] },
  { provider: 'openaiCompatible', name: 'vllm', base_url: 'http://localhost:8000/v1', models: [] },
];

describe('parseModelString', () => {
  it.each([
    ['openai:gpt-4.1', 'openai', 'gpt-4.1', 'openai'],
    ['anthropic:claude-sonnet-4-5', 'anthropic', 'claude-sonnet-4-5', 'anthropic'],
    // Built-in providers need no config entry: their key comes from the environment.
    ['google:gemini-2.5-pro', 'google', 'gemini-2.5-pro', 'google'],
    ['mistral:mistral-large-latest', 'mistral', 'mistral-large-latest', 'mistral'],
    ['openrouter:anthropic/claude-sonnet-4.5', 'openrouter', 'anthropic/claude-sonnet-4.5', 'openrouter'],
    ['ollama:llama3.1:8b', 'ollama', 'llama3.1:8b', 'ollama'],
    ['openaiCompatible/vllm:llama-3:8b', 'openaiCompatible/vllm', 'llama-3:8b', 'openaiCompatible'],
    ['  openai : gpt-4.1  ', 'openai', 'gpt-4.1', 'openai'],
    // nao's built-in mock: answers each test with its own reference SQL.
    ['mock:reference', 'mock', 'reference', 'mock'],
  ])('reads %j', (value, provider, modelId, kind) => {
    const parsed = parseModelString(value, { providers });
    expect(parsed).toMatchObject({ provider, modelId, kind });
  });

  it('names the openaiCompatible entry', () => {
    expect(parseModelString('openaiCompatible/vllm:m', { providers }).name).toBe('vllm');
  });

  it.each([
    ['gpt-4.1', 'there is no ":" between the provider and the model id'],
    [':gpt-4.1', 'the provider before ":" is empty'],
    ['  :gpt-4.1', 'the provider before ":" is empty'],
    ['openai:', 'the model id after ":" is empty'],
    ['openai:   ', 'the model id after ":" is empty'],
    ['', 'there is no ":"'],
    ['azure:gpt-4.1', 'unknown provider "azure"'],
    ['OpenAI:gpt-4.1', 'unknown provider "OpenAI" (did you mean openai?)'],
    ['openaiCompatible:llama', 'openaiCompatible/<name>:model_id'],
    ['openaiCompatible/tgi:llama', 'no openaiCompatible provider named "tgi" is configured'],
  ])('rejects %j', (value, reason) => {
    let error: unknown;
    try {
      parseModelString(value, { providers });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(UsageError);
    const usageError = error as UsageError;
    expect(usageError.code).toBe('INVALID_MODEL');
    expect(usageError.message).toContain(reason);
    expect(usageError.message).toContain(`Invalid model ${JSON.stringify(value)}`);
    expect(usageError.message).toContain('provider:model_id');
    expect(usageError.message).toContain('openaiCompatible/vllm');
    expect(usageError.message).toContain(
      'Configured under llm.providers in nao_config.yaml: openai, openaiCompatible/vllm.',
    );
  });

  it('says when no provider is configured', () => {
    expect(() => parseModelString('foo:bar', { providers: [] })).toThrow(
      'None is configured under llm.providers in nao_config.yaml',
    );
  });
});

describe('knownProviders', () => {
  it('lists the built-ins, every configured openaiCompatible entry and the mock', () => {
    expect(knownProviders(providers)).toEqual([
      'openai',
      'anthropic',
      'google',
      'mistral',
      'openrouter',
      'ollama',
      'requesty',
      'qwen',
      'minimax',
      'moonshot',
      'openaiCompatible/vllm',
      'mock',
    ]);
  });
});

describe("parseModelString: the original nao's providers", () => {
  it.each([
    ['gemini:gemini-2.5-flash', 'google', 'google'],
    ['requesty:openai/gpt-4o-mini', 'requesty', 'requesty'],
    ['qwen:qwen3-max', 'qwen', 'qwen'],
    ['minimax:MiniMax-M2', 'minimax', 'minimax'],
    ['moonshot:kimi-k2.5', 'moonshot', 'moonshot'],
    ['openai-compatible/vllm:llama', 'openaiCompatible/vllm', 'openaiCompatible'],
  ])('reads %j', (value, provider, kind) => {
    expect(parseModelString(value, { providers })).toMatchObject({ provider, kind });
  });

  it('addresses an openaiCompatible entry without a name as plain openaiCompatible', () => {
    const unnamed: ProviderConfig[] = [{ provider: 'openaiCompatible', base_url: 'http://x/v1', models: [] }];
    expect(parseModelString('openaiCompatible:llama', { providers: unnamed })).toMatchObject({
      provider: 'openaiCompatible',
      kind: 'openaiCompatible',
    });
    expect(knownProviders(unnamed)).toContain('openaiCompatible');
  });

  it.each(['bedrock', 'vertex'])('refuses %s models with a message, not as a usage error', (provider) => {
    let error: unknown;
    try {
      parseModelString(`${provider}:some-model`, { providers });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(UnsupportedProviderError);
    expect(error).not.toBeInstanceOf(UsageError);
    expect((error as UnsupportedProviderError).code).toBe('PROVIDER_UNSUPPORTED');
    expect((error as Error).message).toContain(
      `${provider}:some-model: the ${provider} provider of the original nao is not supported`,
    );
  });
});
