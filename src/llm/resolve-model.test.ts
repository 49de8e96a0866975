import { createConnection, createServer, type Socket } from 'node:net';
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
import { DEFAULT_CALL_SETTINGS } from './call-settings.js';
import { ProviderError, ProviderTimeoutError } from './provider-error.js';
import { type ResolvedModel, type ResolveModelOptions, resolveModel } from './resolve-model.js';
import { MAX_RESPONSE_BYTES } from './response-size-limit.js';
import { costOf, usageFromSteps } from './usage.js';

let server: TestLlmServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

const KEY = 'sk-test-SECRET-0123456789abcdef';

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
    ...options,
  });
}

/** A call as nao makes it: the model's call settings, and its errors explained. */
async function failureOf(resolved: ResolvedModel, params: { prompt: string; abortSignal?: AbortSignal }) {
  try {
    await generateText({ model: resolved.model, ...resolved.callSettings, ...params });
  } catch (error) {
    return resolved.explainError(error);
  }
  throw new Error('expected the call to fail');
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
    const result = await generateText({ model: resolved.model, prompt: 'hi' });
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
    const result = streamText({ model: resolve('ollama:qwen3').model, prompt: 'hi' });
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
      const error = await failureOf(resolved, { prompt: 'hi' });
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
    await generateText({ model: resolved.model, prompt: 'hi' });
    expect(server?.requests[0]?.headers.authorization).toBe('Bearer config-key-123456');
  });

  it('falls back to the environment when api_key is empty (an unset env template)', async () => {
    await serve([{ text: 'ok' }]);
    const resolved = resolveModel({
      modelString: 'openai:gpt-4.1',
      config: config([{ provider: 'openai', base_url: server?.url, api_key: '', models: [] }]),
      env: { OPENAI_API_KEY: KEY },
    });
    await generateText({ model: resolved.model, prompt: 'hi' });
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

/** Lets the SDK retry at once: without a header it waits 2 s, then 4, 8 and 16. */
const NO_WAIT = { 'retry-after-ms': '0' };

/** Aborts once the test server has received the first request (timers race on a busy machine). */
async function abortOnceRequested(controller: AbortController): Promise<void> {
  while ((server?.requests.length ?? 0) === 0) await new Promise((resolve) => setTimeout(resolve, 5));
  await new Promise((resolve) => setTimeout(resolve, 20));
  controller.abort();
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** A TCP proxy to `target` that resets the first `resets` connections as soon as a request arrives. */
async function resettingProxy(target: TestLlmServer, resets: number) {
  const sockets = new Set<Socket>();
  let seen = 0;
  const proxy = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    if (seen++ < resets) {
      socket.once('data', () => socket.resetAndDestroy());
      return;
    }
    const upstream = createConnection(target.port, '127.0.0.1');
    sockets.add(upstream);
    upstream.on('error', () => socket.destroy());
    socket.pipe(upstream).pipe(socket);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const { port } = proxy.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/v1`,
    connections: () => seen,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        proxy.close(() => resolve());
      }),
  };
}

describe('resolveModel failures through the AI SDK', () => {
  it.each([408, 409, 429, 500, 503, 529])('retries HTTP %i, then succeeds', async (status) => {
    await serve([{ status, headers: NO_WAIT }, { text: 'finally' }]);
    const resolved = resolve('anthropic:claude-sonnet-4-5');
    const result = await generateText({ model: resolved.model, prompt: 'hi', ...resolved.callSettings });
    expect(result.text).toBe('finally');
    expect(server?.requests).toHaveLength(2);
  });

  it('waits what Retry-After or retry-after-ms asks', async () => {
    // Longer than the SDK's own first backoff (2 s), so only the header can explain the wait.
    const cases: [Record<string, string>, number][] = [
      [{ 'retry-after': '3' }, 3000],
      [{ 'retry-after-ms': '2500' }, 2500],
      [{ 'retry-after': new Date(Date.now() + 4000).toUTCString() }, 2500],
    ];
    const waited = await Promise.all(
      cases.map(async ([headers]) => {
        const own = await startTestLlmServer({ script: [{ status: 429, headers }, { text: 'ok' }] });
        try {
          const resolved = resolveModel({
            modelString: 'openai:gpt-4.1',
            config: config([{ provider: 'openai', base_url: own.url, models: [] }]),
            env: { OPENAI_API_KEY: KEY },
          });
          const started = performance.now();
          const result = await generateText({
            model: resolved.model,
            prompt: 'hi',
            ...resolved.callSettings,
          });
          expect(result.text).toBe('ok');
          expect(own.requests).toHaveLength(2);
          return performance.now() - started;
        } finally {
          await own.close();
        }
      }),
    );
    for (const [index, [, atLeast]] of cases.entries()) expect(waited[index]).toBeGreaterThanOrEqual(atLeast);
  });

  it('fails with a PROVIDER_ERROR after the bounded retries of a provider that keeps failing', async () => {
    await serve(() => ({
      status: 503,
      headers: NO_WAIT,
      errorBody: { error: { message: 'Service Unavailable', type: 'server_error' } },
    }));
    const error = await failureOf(resolve('openai:gpt-4.1'), { prompt: 'hi' });
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ code: 'PROVIDER_ERROR', status: 503, attempts: 5, failure: 'http' });
    expect((error as ProviderError).message).toBe(
      'openai:gpt-4.1 failed with HTTP 503 after 5 attempts: Service Unavailable (server_error) The provider had a server error; try again later.',
    );
    expect(server?.requests).toHaveLength(1 + DEFAULT_CALL_SETTINGS.maxRetries);
  });

  it.each([
    [400, 'Invalid parameter: messages', ''],
    [401, 'Bad key', ' Check the API key (it came from the OPENAI_API_KEY environment variable).'],
    [403, 'Forbidden', ' Check the API key (it came from the OPENAI_API_KEY environment variable).'],
    [404, 'The model `gpt-9` does not exist', ' Check the model id and the base_url of the provider.'],
    [422, 'Unprocessable', ''],
  ])('does not retry HTTP %i', async (status, message, hint) => {
    await serve([{ status, headers: NO_WAIT, errorBody: { error: { message } } }, { text: 'never reached' }]);
    const error = await failureOf(resolve('openai:gpt-4.1'), { prompt: 'hi' });
    expect(server?.requests).toHaveLength(1);
    expect(error).toMatchObject({ code: 'PROVIDER_ERROR', status, attempts: 1 });
    expect((error as ProviderError).message).toBe(
      `openai:gpt-4.1 failed with HTTP ${status}: ${message}${hint}`,
    );
  });

  it('retries a connection reset', async () => {
    await serve([{ text: 'after the reset' }]);
    if (server === undefined) throw new Error('no server');
    const proxy = await resettingProxy(server, 1);
    try {
      const resolved = resolveModel({
        modelString: 'openai:gpt-4.1',
        config: config([{ provider: 'openai', base_url: proxy.url, models: [] }]),
        env: { OPENAI_API_KEY: KEY },
      });
      const result = await generateText({ model: resolved.model, prompt: 'hi', ...resolved.callSettings });
      expect(result.text).toBe('after the reset');
      expect(proxy.connections()).toBe(2);
    } finally {
      await proxy.close();
    }
  });

  it('fails at once, with a hint, when nothing listens at base_url', async () => {
    const port = await freePort();
    let calls = 0;
    const counting: typeof fetch = (input, init) => {
      calls++;
      return fetch(input, init);
    };
    const resolved = resolveModel({
      modelString: 'ollama:llama3.1',
      config: config([{ provider: 'ollama', base_url: `http://127.0.0.1:${port}/v1`, models: [] }]),
      env: {},
      fetch: counting,
    });
    const error = await failureOf(resolved, { prompt: 'hi' });
    expect(calls).toBe(1);
    expect(error).toMatchObject({ code: 'PROVIDER_ERROR', failure: 'network', status: null, attempts: 1 });
    const { message } = error as ProviderError;
    expect(message).toContain(`ollama:llama3.1 could not be reached at http://127.0.0.1:${port}: `);
    expect(message).toContain('ECONNREFUSED');
    expect(message).toMatch(/ Is the server running, and is base_url right\?$/);
  });

  it('fails at once, naming the port, when base_url uses a port that fetch refuses', async () => {
    let calls = 0;
    const counting: typeof fetch = (input, init) => {
      calls++;
      return fetch(input, init);
    };
    // 6000 is on the fetch standard's list of blocked ports: Node's fetch refuses it before connecting.
    const resolved = resolveModel({
      modelString: 'openai:gpt-4.1',
      config: config([
        { provider: 'openai', api_key: 'sk-test', base_url: 'http://127.0.0.1:6000/v1', models: [] },
      ]),
      env: {},
      fetch: counting,
    });
    const error = await failureOf(resolved, { prompt: 'hi' });
    expect(calls).toBe(1);
    expect(error).toMatchObject({ code: 'PROVIDER_ERROR', failure: 'network', status: null, attempts: 1 });
    expect((error as ProviderError).message).toBe(
      'openai:gpt-4.1 could not be reached at http://127.0.0.1:6000: fetch failed: bad port. ' +
        "Node's fetch never connects to port 6000, which the fetch standard blocks: serve the provider on another port and change base_url.",
    );
  });

  it.each(['openai:gpt-4.1', 'anthropic:claude-sonnet-4-5'])(
    '%s: stops reading an answer of more than 32 MiB, once, naming the model',
    async (modelString) => {
      await serve([{ text: 'a'.repeat(MAX_RESPONSE_BYTES + 1024) }]);
      const error = await failureOf(resolve(modelString), { prompt: 'hi' });
      expect(error).toMatchObject({ code: 'PROVIDER_ERROR', status: 200, attempts: 1 });
      expect((error as ProviderError).message).toBe(
        `${modelString} sent an answer of more than 32 MiB; nao stops reading there. A model's answer is far smaller: check base_url and the proxy behind it.`,
      );
      expect(server?.requests).toHaveLength(1);
    },
  );

  it('stops reading a streamed answer of more than 32 MiB too, with the same message', async () => {
    await serve([{ text: 'a'.repeat(MAX_RESPONSE_BYTES + 1024) }]);
    const resolved = resolve('openai:gpt-4.1');
    // As the agent streams for nao chat: the stream's failure is thrown from the iteration.
    const error = await (async () => {
      try {
        const stream = streamText({ model: resolved.model, prompt: 'hi', ...resolved.callSettings });
        for await (const part of stream.fullStream) if (part.type === 'error') throw part.error;
      } catch (caught) {
        return resolved.explainError(caught);
      }
      throw new Error('expected the stream to fail');
    })();
    expect((error as ProviderError).message).toBe(
      "openai:gpt-4.1 sent an answer of more than 32 MiB; nao stops reading there. A model's answer is far smaller: check base_url and the proxy behind it.",
    );
    expect(server?.requests).toHaveLength(1);
  });

  it('ends a hung provider with a PROVIDER_TIMEOUT', async () => {
    await serve(() => ({ hang: true }));
    // Long enough for the request to reach the server on a loaded machine: the hang is what times out.
    const resolved = resolve('openai:gpt-4.1', {
      callSettings: { ...DEFAULT_CALL_SETTINGS, timeout: { stepMs: 1500 } },
    });
    const error = await failureOf(resolved, { prompt: 'hi' });
    expect(error).toBeInstanceOf(ProviderTimeoutError);
    expect(error).toMatchObject({ code: 'PROVIDER_TIMEOUT', failure: 'timeout' });
    expect((error as ProviderTimeoutError).message).toBe(
      'openai:gpt-4.1 did not finish a step within 1.5 s (step timeout: the model call with its retries, and the tools it asked for).',
    );
    expect(server?.requests).toHaveLength(1);
  });

  it('ends a stream that stalls mid-answer with a PROVIDER_TIMEOUT', async () => {
    await serve([{ text: 'a long streamed answer', hang: 'mid-body' }]);
    const resolved = resolve('anthropic:claude-sonnet-4-5', {
      // Long enough for the first half to come in time on a loaded machine, so the stall is what times out.
      callSettings: { ...DEFAULT_CALL_SETTINGS, timeout: { stepMs: 60_000, chunkMs: 1000 } },
    });
    const result = streamText({ model: resolved.model, prompt: 'hi', ...resolved.callSettings });
    let text = '';
    for await (const delta of result.textStream) text += delta;
    const error = await result.text.then(
      () => undefined,
      (caught: unknown) => resolved.explainError(caught),
    );
    expect(text.length).toBeGreaterThan(0);
    expect(error).toBeInstanceOf(ProviderTimeoutError);
    expect((error as ProviderTimeoutError).message).toBe(
      'anthropic:claude-sonnet-4-5 stopped sending its streamed answer for 1 s (chunk timeout).',
    );
  });

  it('stops at once when the caller aborts a pending call', async () => {
    await serve(() => ({ hang: true }));
    const controller = new AbortController();
    const started = performance.now();
    const pending = failureOf(resolve('anthropic:claude-sonnet-4-5'), {
      prompt: 'hi',
      abortSignal: controller.signal,
    });
    await abortOnceRequested(controller);
    expect(((await pending) as Error).name).toBe('AbortError');
    // The provider hangs for good: only the abort can have ended the call this soon.
    expect(performance.now() - started).toBeLessThan(20_000);
  });

  it('stops at once when the caller aborts while the SDK waits to retry', async () => {
    await serve([{ status: 429, headers: { 'retry-after': '30' } }, { text: 'never reached' }]);
    const controller = new AbortController();
    const started = performance.now();
    const pending = failureOf(resolve('openai:gpt-4.1'), { prompt: 'hi', abortSignal: controller.signal });
    await abortOnceRequested(controller);
    expect(((await pending) as Error).name).toBe('AbortError');
    // Retry-After asked for 30 s: ending well before means the abort cut the wait.
    expect(performance.now() - started).toBeLessThan(20_000);
    expect(server?.requests).toHaveLength(1);
  });

  it('sends nothing when the signal is already aborted', async () => {
    await serve([{ text: 'unused' }]);
    const error = await failureOf(resolve('openai:gpt-4.1'), {
      prompt: 'hi',
      abortSignal: AbortSignal.abort(),
    });
    expect((error as Error).name).toBe('AbortError');
    expect(server?.requests).toHaveLength(0);
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
      if (prompt === 'down')
        return { status: 500, headers: NO_WAIT, errorBody: `upstream said: key=${sent}` };
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
      const stepMs = prompt === 'hang' ? 200 : 20_000;
      const resolved = resolve(modelString, { callSettings: { maxRetries: 1, timeout: { stepMs } } });
      errors.push(await failureOf(resolved, { prompt }));
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
    expect((errors[1] as ProviderError).message).toContain('upstream said: key=[redacted]');
    expect((errors[2] as ProviderError).message).toContain('bad request for key [redacted]');
  });
});
