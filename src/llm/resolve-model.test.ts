import { generateText, Output, stepCountIs, streamText, tool } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type ScriptFunction,
  startTestLlmServer,
  type TestLlmServer,
  type Turn,
} from '../../test-support/llm-server/index.js';
import type { NaoConfig } from '../config/nao-config.js';
import type { ProviderConfig } from '../config/schema.js';
import { NaoError } from '../errors/index.js';
import { findProviderError, ProviderError, ProviderTimeoutError } from './provider-error.js';
import { type ResolveModelOptions, resolveModel } from './resolve-model.js';
import { NO_SDK_RETRIES, type RetryOptions } from './retry-fetch.js';
import { costOf, usageFromSteps } from './usage.js';

let server: TestLlmServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

const KEY = 'sk-test-SECRET-0123456789abcdef';
const noWait: RetryOptions = { sleep: async () => undefined };

async function serve(script: Turn[] | ScriptFunction) {
  server = await startTestLlmServer({ script });
  return server;
}

function config(providers: ProviderConfig[], extra: Partial<NaoConfig['llm']> = {}) {
  return { configPath: '/project/nao_config.yaml', llm: { providers, ...extra } };
}

/** Points every provider kind the test uses at the test server. */
function serverConfig(extraModels: ProviderConfig['models'] = []) {
  const url = server?.url ?? '';
  return config([
    { provider: 'openai', base_url: url, models: extraModels },
    { provider: 'anthropic', base_url: url, models: [] },
    { provider: 'openrouter', base_url: url, models: [] },
    { provider: 'ollama', base_url: url, models: [] },
    { provider: 'openaiCompatible', name: 'vllm', base_url: url, api_key: 'vllm-key-123456', models: [] },
  ]);
}

function resolve(modelString: string, options: Partial<ResolveModelOptions> = {}) {
  return resolveModel({
    modelString,
    config: serverConfig(),
    env: { OPENAI_API_KEY: KEY, ANTHROPIC_API_KEY: KEY, OPENROUTER_API_KEY: KEY },
    retry: noWait,
    ...options,
  });
}

const sqlTool = {
  execute_sql: tool({
    description: 'Run a SQL query',
    inputSchema: z.object({ sql: z.string() }),
    execute: async ({ sql }) => ({ sql, rows: [[42]] }),
  }),
};

/** Calls the tool first, then answers from its result; usage differs per step so sums are checkable. */
const toolLoop: ScriptFunction = (request) => {
  const last = request.messages.at(-1);
  if (last?.role === 'tool') {
    return {
      text: `The answer is ${JSON.parse(last.content).rows[0][0]}.`,
      usage: { input: 1_000, output: 200, cachedInput: 600, cacheWrite: 100, reasoning: 50 },
    };
  }
  return {
    text: 'Let me query.',
    toolCalls: [{ name: 'execute_sql', args: { sql: 'SELECT 42' } }],
    usage: { input: 500, output: 100, reasoning: 20 },
  };
};

const protocols = [
  ['openai:gpt-4.1', 'openai-responses', {}],
  ['openai:gpt-4.1', 'openai-chat', { openaiApi: 'chat' as const }],
  ['anthropic:claude-sonnet-4-5', 'anthropic-messages', {}],
] as const;

describe('resolveModel against the wire protocols', () => {
  it.each(protocols)('%s runs a two-step tool loop over %s', async (modelString, protocol, extra) => {
    await serve(toolLoop);
    const resolved = resolve(modelString, extra);
    const result = await generateText({
      model: resolved.model,
      tools: sqlTool,
      prompt: 'What is the answer?',
      stopWhen: stepCountIs(5),
      ...NO_SDK_RETRIES,
    });
    expect(result.text).toBe('The answer is 42.');
    expect(result.steps).toHaveLength(2);
    expect(result.steps[0]?.toolCalls.map((call) => [call.toolName, call.input])).toEqual([
      ['execute_sql', { sql: 'SELECT 42' }],
    ]);
    expect(server?.requests.map((request) => request.protocol)).toEqual([protocol, protocol]);
    const second = server?.requests[1];
    const toolMessage = second?.messages.find((message) => message.role === 'tool');
    expect(toolMessage?.toolName).toBe('execute_sql');
    expect(second?.messages.find((message) => message.role === 'assistant')?.toolCalls?.[0]?.name).toBe(
      'execute_sql',
    );

    const usage = usageFromSteps(result.steps);
    expect(usage).toEqual({
      inputTotalTokens: 1_500,
      inputNoCacheTokens: 800,
      inputCacheReadTokens: 600,
      inputCacheWriteTokens: 100,
      outputTotalTokens: 300,
      outputTextTokens: 230,
      outputReasoningTokens: 70,
      totalTokens: 1_800,
    });
    // Table prices: gpt-4.1 2 / 0.5 / 2 / 8; claude-sonnet-4-5 3 / 0.3 / 3.75 / 15 (USD per million).
    const expected =
      modelString === 'openai:gpt-4.1'
        ? (800 * 2 + 600 * 0.5 + 100 * 2 + 300 * 8) / 1e6
        : (800 * 3 + 600 * 0.3 + 100 * 3.75 + 300 * 15) / 1e6;
    expect(resolved.priceSource).toBe('table');
    expect(costOf(usage, resolved.prices)?.totalCost).toBeCloseTo(expected, 12);
  });

  it.each(protocols)('%s returns structured output over %s', async (modelString, protocol, extra) => {
    await serve([{ json: { total_revenue: 1234.5, currency: 'EUR' } }]);
    const result = await generateText({
      model: resolve(modelString, extra).model,
      prompt: 'Extract the answer',
      output: Output.object({ schema: z.object({ total_revenue: z.number(), currency: z.string() }) }),
      ...NO_SDK_RETRIES,
    });
    expect(result.output).toEqual({ total_revenue: 1234.5, currency: 'EUR' });
    expect(server?.requests[0]?.protocol).toBe(protocol);
    expect(server?.requests[0]?.wantsJson).toBe(true);
  });

  it.each(protocols)('%s streams a tool loop over %s', async (modelString, _protocol, extra) => {
    await serve(toolLoop);
    const result = streamText({
      model: resolve(modelString, extra).model,
      tools: sqlTool,
      prompt: 'What is the answer?',
      stopWhen: stepCountIs(5),
      ...NO_SDK_RETRIES,
    });
    let text = '';
    for await (const delta of result.textStream) text += delta;
    expect(text).toBe('Let me query.The answer is 42.');
    const steps = await result.steps;
    expect(steps).toHaveLength(2);
    expect(usageFromSteps(steps)).toMatchObject({
      inputTotalTokens: 1_500,
      inputCacheReadTokens: 600,
      inputCacheWriteTokens: 100,
      outputTotalTokens: 300,
      outputReasoningTokens: 70,
    });
  });

  it.each([
    ['openrouter:openai/gpt-4.1', `Bearer ${KEY}`, 'table'],
    ['ollama:llama3.1:8b', undefined, null],
    ['openaiCompatible/vllm:llama-3:8b', 'Bearer vllm-key-123456', null],
  ])('%s speaks chat completions with the right key', async (modelString, authorization, priceSource) => {
    await serve([{ text: 'hello', usage: { input: 10, output: 2 } }]);
    const resolved = resolve(modelString);
    const result = await generateText({ model: resolved.model, prompt: 'hi', ...NO_SDK_RETRIES });
    expect(result.text).toBe('hello');
    expect(result.usage.inputTokens).toBe(10);
    const request = server?.requests[0];
    expect(request?.protocol).toBe('openai-chat');
    expect(request?.model).toBe(resolved.modelId);
    expect(request?.headers.authorization).toBe(authorization);
    expect(resolved.priceSource).toBe(priceSource);
  });

  it('streams with usage over an OpenAI-compatible provider', async () => {
    await serve([{ text: 'streamed', usage: { input: 12, output: 3, cachedInput: 4 } }]);
    const result = streamText({ model: resolve('ollama:qwen3').model, prompt: 'hi', ...NO_SDK_RETRIES });
    let text = '';
    for await (const delta of result.textStream) text += delta;
    expect(text).toBe('streamed');
    expect(usageFromSteps(await result.steps)).toMatchObject({
      inputTotalTokens: 12,
      inputCacheReadTokens: 4,
    });
    expect(server?.requests[0]?.body.stream_options).toEqual({ include_usage: true });
  });
});

describe('resolveModel configuration', () => {
  it('describes the model it built', () => {
    const resolved = resolveModel({
      modelString: ' openai : gpt-4.1 ',
      config: config([]),
      env: { OPENAI_API_KEY: KEY },
    });
    expect(resolved).toMatchObject({
      id: 'openai:gpt-4.1',
      provider: 'openai',
      modelId: 'gpt-4.1',
      kind: 'openai',
      baseUrl: 'https://api.openai.com/v1',
      prices: { inputNoCache: 2, inputCacheRead: 0.5, inputCacheWrite: 2, output: 8 },
      priceSource: 'table',
      priceWarning: null,
    });
  });

  it.each([
    ['openai:gpt-4.1', 'https://api.openai.com/v1'],
    ['anthropic:claude-sonnet-4-5', 'https://api.anthropic.com/v1'],
    ['google:gemini-2.5-pro', 'https://generativelanguage.googleapis.com/v1beta'],
    ['mistral:mistral-large-latest', 'https://api.mistral.ai/v1'],
    ['openrouter:openai/gpt-4.1', 'https://openrouter.ai/api/v1'],
    ['ollama:llama3.1', 'http://localhost:11434/v1'],
  ])('defaults %s to %s', (modelString, baseUrl) => {
    const env = {
      OPENAI_API_KEY: KEY,
      ANTHROPIC_API_KEY: KEY,
      GEMINI_API_KEY: KEY,
      MISTRAL_API_KEY: KEY,
      OPENROUTER_API_KEY: KEY,
    };
    expect(resolveModel({ modelString, config: config([]), env }).baseUrl).toBe(baseUrl);
  });

  it.each([
    ['google:gemini-2.5-flash', 'google', 'x-goog-api-key', '/models/gemini-2.5-flash:generateContent'],
    ['mistral:mistral-small-latest', 'mistral', 'authorization', '/chat/completions'],
    ['anthropic:claude-haiku-4-5', 'anthropic', 'x-api-key', '/messages'],
  ] as const)(
    'sends %s to the configured base_url with the configured key',
    async (modelString, kind, header, path) => {
      const seen: { url: string; headers: Headers }[] = [];
      const capture: typeof fetch = async (input, init) => {
        seen.push({ url: String(input), headers: new Headers(init?.headers) });
        return new Response(JSON.stringify({ error: { message: 'stop here' } }), {
          status: 400,
          headers: { 'content-type': 'application/json' },
        });
      };
      const resolved = resolveModel({
        modelString,
        config: config([{ provider: kind, base_url: 'https://proxy.example/api', api_key: KEY, models: [] }]),
        env: {},
        fetch: capture,
      });
      const error = await generateText({ model: resolved.model, prompt: 'hi', ...NO_SDK_RETRIES }).catch(
        (caught: unknown) => caught,
      );
      expect(seen[0]?.url).toBe(`https://proxy.example/api${path}`);
      expect(seen[0]?.headers.get(header)).toContain(KEY);
      expect(error).toBeInstanceOf(ProviderError);
      expect((error as ProviderError).message).toBe(
        `${kind}:${resolved.modelId} failed with HTTP 400: stop here`,
      );
    },
  );

  it('prefers the api_key in the config over the environment', async () => {
    await serve([{ text: 'ok' }]);
    const resolved = resolveModel({
      modelString: 'openai:gpt-4.1',
      config: config([
        { provider: 'openai', base_url: server?.url, api_key: 'config-key-123456', models: [] },
      ]),
      env: { OPENAI_API_KEY: KEY },
    });
    await generateText({ model: resolved.model, prompt: 'hi', ...NO_SDK_RETRIES });
    expect(server?.requests[0]?.headers.authorization).toBe('Bearer config-key-123456');
  });

  it('falls back to the environment when api_key is empty (an unset env template)', async () => {
    await serve([{ text: 'ok' }]);
    const resolved = resolveModel({
      modelString: 'openai:gpt-4.1',
      config: config([{ provider: 'openai', base_url: server?.url, api_key: '', models: [] }]),
      env: { OPENAI_API_KEY: KEY },
    });
    await generateText({ model: resolved.model, prompt: 'hi', ...NO_SDK_RETRIES });
    expect(server?.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('reads GEMINI_API_KEY when GOOGLE_GENERATIVE_AI_API_KEY is absent', () => {
    expect(() =>
      resolveModel({
        modelString: 'google:gemini-2.5-pro',
        config: config([]),
        env: { GEMINI_API_KEY: KEY },
      }),
    ).not.toThrow();
  });

  it.each([
    ['openai:gpt-4.1', 'the openai entry', 'OPENAI_API_KEY'],
    ['anthropic:claude-sonnet-4-5', 'the anthropic entry', 'ANTHROPIC_API_KEY'],
    ['google:gemini-2.5-pro', 'the google entry', 'GOOGLE_GENERATIVE_AI_API_KEY or GEMINI_API_KEY'],
    ['mistral:mistral-large-latest', 'the mistral entry', 'MISTRAL_API_KEY'],
    ['openrouter:openai/gpt-4.1', 'the openrouter entry', 'OPENROUTER_API_KEY'],
  ])('names both places a key for %s can come from when it is missing', (modelString, entry, envNames) => {
    let error: unknown;
    try {
      resolveModel({ modelString, config: config([]), env: { OTHER: 'x', OPENAI_API_KEY: '  ' } });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(NaoError);
    expect((error as NaoError).code).toBe('MISSING_API_KEY');
    const { message } = error as NaoError;
    expect(message).toContain(`No API key for ${modelString}.`);
    expect(message).toContain(`Set \`api_key\` on ${entry} under llm.providers in /project/nao_config.yaml`);
    expect(message).toContain(`set the ${envNames} environment variable`);
  });

  it('needs no key for Ollama or an openaiCompatible server', () => {
    const providers: ProviderConfig[] = [
      { provider: 'openaiCompatible', name: 'local', base_url: 'http://localhost:8000/v1', models: [] },
    ];
    expect(() => resolveModel({ modelString: 'ollama:llama3.1', config: config([]), env: {} })).not.toThrow();
    expect(() =>
      resolveModel({ modelString: 'openaiCompatible/local:m', config: config(providers), env: {} }),
    ).not.toThrow();
  });

  it('rejects an openaiCompatible entry without base_url', () => {
    const providers = [{ provider: 'openaiCompatible', name: 'local', models: [] }] as ProviderConfig[];
    expect(() =>
      resolveModel({ modelString: 'openaiCompatible/local:m', config: config(providers), env: {} }),
    ).toThrow(expect.objectContaining({ code: 'MISSING_BASE_URL' }));
  });

  it('reports invalid model strings as INVALID_MODEL', () => {
    expect(() => resolveModel({ modelString: 'gpt-4.1', config: config([]), env: {} })).toThrow(
      expect.objectContaining({ code: 'INVALID_MODEL' }),
    );
  });

  it('prices from declared costs over the table, the deprecated block, or not at all', () => {
    const env = { OPENAI_API_KEY: KEY };
    const providers: ProviderConfig[] = [
      {
        provider: 'openai',
        models: [
          { id: 'gpt-4.1', costs: { input_no_cache: 1, output: 4 } },
          { id: 'my-proxy-alias', costs: { input_no_cache: 2.5, output: 10 } },
        ],
      },
    ];
    expect(resolveModel({ modelString: 'openai:gpt-4.1', config: config(providers), env })).toMatchObject({
      prices: { inputNoCache: 1, inputCacheRead: 0.5, inputCacheWrite: 2, output: 4 },
      priceSource: 'config',
    });
    expect(
      resolveModel({ modelString: 'openai:my-proxy-alias', config: config(providers), env }),
    ).toMatchObject({
      prices: { inputNoCache: 2.5, output: 10 },
      priceSource: 'config',
    });
    const deprecated = config([], { deprecatedCosts: { input_no_cache: 0.7, output: 0.9 } });
    expect(resolveModel({ modelString: 'openai:unknown', config: deprecated, env })).toMatchObject({
      prices: { inputNoCache: 0.7, output: 0.9 },
      priceSource: 'deprecated',
    });
    const unknown = resolveModel({ modelString: 'openai:unknown', config: config([]), env });
    expect(unknown).toMatchObject({ prices: null, priceSource: null });
    expect(costOf(usageFromSteps([]), unknown.prices)).toBeNull();
  });
});

describe('resolveModel failures through the AI SDK', () => {
  it('retries a 429 with Retry-After, waiting what it asks, then succeeds', async () => {
    await serve([{ status: 429, headers: { 'retry-after': '2' } }, { text: 'finally' }]);
    const waits: number[] = [];
    const resolved = resolve('anthropic:claude-sonnet-4-5', {
      retry: {
        sleep: async (ms) => {
          waits.push(ms);
        },
      },
    });
    const result = await generateText({ model: resolved.model, prompt: 'hi', ...NO_SDK_RETRIES });
    expect(result.text).toBe('finally');
    expect(waits).toEqual([2000]);
    expect(server?.requests).toHaveLength(2);
  });

  it('fails with a PROVIDER_ERROR after the bounded retries of a provider that keeps failing', async () => {
    await serve(() => ({
      status: 503,
      errorBody: { error: { message: 'Service Unavailable', type: 'server_error' } },
    }));
    const error = await generateText({
      model: resolve('openai:gpt-4.1').model,
      prompt: 'hi',
      ...NO_SDK_RETRIES,
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ code: 'PROVIDER_ERROR', status: 503, attempts: 5 });
    expect((error as ProviderError).message).toContain(
      'openai:gpt-4.1 failed with HTTP 503 after 5 attempts: Service Unavailable (server_error)',
    );
    expect(server?.requests).toHaveLength(5);
  });

  it('times out a hung provider', async () => {
    await serve(() => ({ hang: true }));
    const resolved = resolve('openai:gpt-4.1', { timeoutMs: 100, retry: { ...noWait, maxRetries: 1 } });
    const error = await generateText({ model: resolved.model, prompt: 'hi', ...NO_SDK_RETRIES }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ProviderTimeoutError);
    expect((error as ProviderTimeoutError).code).toBe('PROVIDER_TIMEOUT');
  });

  it('surfaces a stream that stalls mid-answer as a findable timeout', async () => {
    await serve([{ text: 'a long streamed answer', hang: 'mid-body' }]);
    const result = streamText({
      // Long enough for the first half to come in time on a loaded machine, so the stall is what times out.
      model: resolve('anthropic:claude-sonnet-4-5', { timeoutMs: 1000 }).model,
      prompt: 'hi',
      ...NO_SDK_RETRIES,
    });
    let text = '';
    const error = await (async () => {
      for await (const delta of result.textStream) text += delta;
    })().catch((caught: unknown) => caught);
    expect(text.length).toBeGreaterThan(0);
    expect(findProviderError(error)).toBeInstanceOf(ProviderTimeoutError);
    expect(findProviderError(error)?.message).toBe(
      'anthropic:claude-sonnet-4-5 stopped sending its streamed answer for 1 s (per-attempt timeout).',
    );
  });

  it('stops when the caller aborts', async () => {
    await serve(() => ({ hang: true }));
    const controller = new AbortController();
    const started = performance.now();
    setTimeout(() => controller.abort(), 50);
    const error = await generateText({
      model: resolve('anthropic:claude-sonnet-4-5').model,
      prompt: 'hi',
      abortSignal: controller.signal,
      ...NO_SDK_RETRIES,
    }).catch((caught: unknown) => caught);
    expect((error as Error).name).toBe('AbortError');
    // The provider hangs for good: only the abort can have ended the call this soon.
    expect(performance.now() - started).toBeLessThan(20_000);
  });

  it('keeps the API key out of every error message', async () => {
    await serve((request) => {
      const prompt = request.messages.at(-1)?.content ?? '';
      // Each provider echoes the key it was sent, as some real ones do.
      const sent =
        request.headers['x-api-key'] ?? request.headers.authorization?.replace('Bearer ', '') ?? '';
      if (prompt === 'bad') return { status: 400, errorBody: { message: `bad request for key ${sent}` } };
      if (prompt === 'auth') {
        return {
          status: 401,
          errorBody: { error: { message: `Invalid x-api-key ${KEY}`, type: 'authentication_error' } },
        };
      }
      if (prompt === 'down') return { status: 500, errorBody: `upstream said: key=${sent}` };
      return { hang: true };
    });
    const errors: unknown[] = [];
    for (const [modelString, prompt] of [
      ['anthropic:claude-sonnet-4-5', 'auth'],
      ['openai:gpt-4.1', 'down'],
      ['openaiCompatible/vllm:m', 'bad'],
      ['openrouter:openai/gpt-4.1', 'hang'],
    ] as const) {
      // Only the hanging provider should time out; the others get time to answer on a loaded machine.
      const timeoutMs = prompt === 'hang' ? 100 : 10_000;
      const resolved = resolve(modelString, { timeoutMs, retry: { ...noWait, maxRetries: 1 } });
      errors.push(
        await generateText({ model: resolved.model, prompt, ...NO_SDK_RETRIES }).catch((caught) => caught),
      );
    }
    errors.push(
      (() => {
        try {
          return resolveModel({ modelString: 'mistral:m', config: config([]), env: { OPENAI_API_KEY: KEY } });
        } catch (caught) {
          return caught;
        }
      })(),
    );
    expect(errors.map((error) => (error as NaoError).code)).toEqual([
      'PROVIDER_ERROR',
      'PROVIDER_ERROR',
      'PROVIDER_ERROR',
      'PROVIDER_TIMEOUT',
      'MISSING_API_KEY',
    ]);
    for (const error of errors) {
      const text = `${String(error)} ${JSON.stringify(error)} ${(error as Error).stack ?? ''}`;
      expect(text).not.toContain(KEY);
      expect(text).not.toContain('vllm-key-123456');
    }
    expect((errors[0] as ProviderError).message).toContain('Invalid x-api-key [redacted]');
  });
});
