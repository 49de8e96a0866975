import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestLlmServer, type TestLlmServer, type Turn } from '../../test-support/llm-server/index.js';
import { ProviderError, ProviderTimeoutError } from './provider-error.js';
import {
  backoffMs,
  createRetryingFetch,
  isRetryableStatus,
  type RetryEvent,
  type RetryOptions,
  retryAfterMs,
} from './retry-fetch.js';

let server: TestLlmServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

const KEY = 'sk-test-SECRET-0123456789';

/** Records waits instead of sleeping, so backoff costs no time. */
function recordingSleep() {
  const waits: number[] = [];
  const sleep: RetryOptions['sleep'] = async (ms) => {
    waits.push(ms);
  };
  return { waits, sleep };
}

async function serve(turns: Turn[]) {
  server = await startTestLlmServer({ script: turns });
  return server;
}

function call(fetchFn: typeof fetch, init: RequestInit = {}) {
  if (server === undefined) throw new Error('start the server first');
  return fetchFn(`${server.url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
    body: JSON.stringify({ model: 'gpt-4.1', messages: [{ role: 'user', content: 'hi' }] }),
    ...init,
  });
}

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ProviderError) return error;
    throw error;
  }
  throw new Error('expected a ProviderError');
}

function retryingFetch(options: { retry?: RetryOptions; timeoutMs?: number; fetch?: typeof fetch } = {}) {
  return createRetryingFetch({
    provider: 'openai',
    modelId: 'gpt-4.1',
    secrets: [KEY],
    authHint: 'it came from the OPENAI_API_KEY environment variable',
    ...options,
  });
}

/** The text of a non-streamed chat completion. */
async function replyText(response: Response): Promise<string | null | undefined> {
  const body = (await response.json()) as { choices: { message: { content: string | null } }[] };
  return body.choices[0]?.message.content;
}

/** Aborts once the test server has received the first request (timers race on a busy machine). */
async function abortOnceRequested(controller: AbortController, reason?: Error): Promise<void> {
  while ((server?.requests.length ?? 0) === 0) await new Promise((resolve) => setTimeout(resolve, 5));
  await new Promise((resolve) => setTimeout(resolve, 20));
  controller.abort(reason);
}

describe('retryAfterMs', () => {
  const now = Date.parse('2025-06-01T12:00:00Z');
  it.each<[Record<string, string>, number | undefined]>([
    [{ 'retry-after': '2' }, 2000],
    [{ 'retry-after': '1.5' }, 1500],
    [{ 'retry-after': '0' }, 0],
    [{ 'retry-after': 'Sun, 01 Jun 2025 12:00:05 GMT' }, 5000],
    [{ 'retry-after': 'Sun, 01 Jun 2025 11:59:00 GMT' }, 0],
    [{ 'retry-after-ms': '250' }, 250],
    [{ 'retry-after-ms': '250', 'retry-after': '9' }, 250],
    [{ 'retry-after-ms': '-5', 'retry-after': '3' }, 3000],
    [{ 'retry-after': 'soon' }, undefined],
    [{ 'retry-after': '' }, undefined],
    [{}, undefined],
  ])('reads %j as %s ms', (headers, expected) => {
    expect(retryAfterMs(new Headers(headers), now)).toBe(expected);
  });
});

describe('backoffMs', () => {
  it.each([
    [0, 0.5, 500],
    [1, 0.5, 1000],
    [3, 0.5, 4000],
    [10, 0.5, 15_000],
    [2, 0, 0],
    [2, 0.999, 3996],
  ])('retry %i with random %d waits %i ms', (retry, random, expected) => {
    expect(backoffMs({ retry, baseDelayMs: 1000, maxDelayMs: 30_000, random })).toBe(expected);
  });
});

describe('isRetryableStatus', () => {
  it.each([
    [408, true],
    [409, true],
    [429, true],
    [500, true],
    [503, true],
    [529, true],
    [400, false],
    [401, false],
    [403, false],
    [404, false],
    [422, false],
  ])('HTTP %i → %s', (status, expected) => {
    expect(isRetryableStatus(status)).toBe(expected);
  });
});

describe('createRetryingFetch', () => {
  it('waits what Retry-After asks after a 429, then succeeds', async () => {
    await serve([{ status: 429, headers: { 'retry-after': '2' } }, { text: 'ok' }]);
    const { waits, sleep } = recordingSleep();
    const response = await call(retryingFetch({ retry: { sleep } }));
    expect(await replyText(response)).toBe('ok');
    expect(waits).toEqual([2000]);
    expect(server?.requests).toHaveLength(2);
  });

  it('honours retry-after-ms', async () => {
    await serve([{ status: 503, headers: { 'retry-after-ms': '1250' } }, { text: 'ok' }]);
    const { waits, sleep } = recordingSleep();
    expect((await call(retryingFetch({ retry: { sleep } }))).ok).toBe(true);
    expect(waits).toEqual([1250]);
  });

  it('honours Retry-After as an HTTP date', async () => {
    const now = Date.parse('2025-06-01T12:00:00Z');
    await serve([
      { status: 429, headers: { 'retry-after': 'Sun, 01 Jun 2025 12:00:07 GMT' } },
      { text: 'ok' },
    ]);
    const { waits, sleep } = recordingSleep();
    expect((await call(retryingFetch({ retry: { sleep, now: () => now } }))).ok).toBe(true);
    expect(waits).toEqual([7000]);
  });

  it('backs off exponentially with full jitter and gives up after the bounded retries', async () => {
    const body = {
      error: { message: 'The server had an error while processing your request', type: 'server_error' },
    };
    await serve(Array.from({ length: 6 }, () => ({ status: 500, errorBody: body })));
    const { waits, sleep } = recordingSleep();
    const events: RetryEvent[] = [];
    const error = await failure(
      call(retryingFetch({ retry: { sleep, random: () => 0.5, onRetry: (event) => events.push(event) } })),
    );
    expect(waits).toEqual([500, 1000, 2000, 4000]);
    expect(server?.requests).toHaveLength(5);
    expect(error.code).toBe('PROVIDER_ERROR');
    expect(error).toMatchObject({
      provider: 'openai',
      modelId: 'gpt-4.1',
      status: 500,
      attempts: 5,
      failure: 'http',
    });
    expect(error.providerMessage).toBe(
      'The server had an error while processing your request (server_error)',
    );
    expect(error.message).toBe(
      'openai:gpt-4.1 failed with HTTP 500 after 5 attempts: The server had an error while processing your request (server_error) The provider had a server error; try again later.',
    );
    expect(events.map((event) => [event.attempt, event.delayMs, event.reason])).toEqual([
      [1, 500, 'HTTP 500'],
      [2, 1000, 'HTTP 500'],
      [3, 2000, 'HTTP 500'],
      [4, 4000, 'HTTP 500'],
    ]);
  });

  it('takes the number of retries from the options', async () => {
    await serve([{ status: 502 }, { status: 502 }, { status: 502 }]);
    const { sleep } = recordingSleep();
    const error = await failure(call(retryingFetch({ retry: { sleep, maxRetries: 1 } })));
    expect(error.attempts).toBe(2);
    expect(server?.requests).toHaveLength(2);
  });

  it.each([
    [400, 'Invalid parameter: messages', ''],
    [404, 'The model `gpt-9` does not exist', ' Check the model id and the base_url of the provider.'],
    [422, 'Unprocessable', ''],
  ])('does not retry HTTP %i', async (status, message, hint) => {
    await serve([{ status, errorBody: { error: { message } } }, { text: 'never reached' }]);
    const { waits, sleep } = recordingSleep();
    const error = await failure(call(retryingFetch({ retry: { sleep } })));
    expect(waits).toEqual([]);
    expect(error.status).toBe(status);
    expect(error.attempts).toBe(1);
    expect(error.message).toBe(`openai:gpt-4.1 failed with HTTP ${status}: ${message}${hint}`);
  });

  it('keeps the API key out of an auth error that echoes it, and says where the key came from', async () => {
    await serve([
      {
        status: 401,
        errorBody: { error: { message: `Incorrect API key provided: ${KEY}.`, code: 'invalid_api_key' } },
      },
    ]);
    const error = await failure(call(retryingFetch()));
    expect(error.message).toBe(
      'openai:gpt-4.1 failed with HTTP 401: Incorrect API key provided: [redacted]. (invalid_api_key) Check the API key (it came from the OPENAI_API_KEY environment variable).',
    );
    expect(JSON.stringify(error)).not.toContain(KEY);
    expect(String(error)).not.toContain(KEY);
    expect(error.cause).toBeUndefined();
  });

  it('fails at once when Retry-After asks for longer than nao waits', async () => {
    await serve([{ status: 429, headers: { 'retry-after': '3600' } }, { text: 'ok' }]);
    const { waits, sleep } = recordingSleep();
    const error = await failure(call(retryingFetch({ retry: { sleep } })));
    expect(waits).toEqual([]);
    expect(error.attempts).toBe(1);
    expect(error.message).toContain(
      'The provider asked to wait 3600 s before retrying, more than the 60 s nao waits.',
    );
  });

  it('retries connection resets', async () => {
    let calls = 0;
    const flaky: typeof fetch = async () => {
      calls++;
      if (calls < 3) {
        throw new TypeError('fetch failed', {
          cause: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }),
        });
      }
      return new Response('{"ok":true}', { status: 200, headers: { 'content-type': 'application/json' } });
    };
    const { waits, sleep } = recordingSleep();
    const response = await retryingFetch({ fetch: flaky, retry: { sleep } })('http://provider.test/v1/x', {
      method: 'POST',
      body: '{}',
    });
    expect(await response.text()).toBe('{"ok":true}');
    expect(calls).toBe(3);
    expect(waits).toHaveLength(2);
  });

  it('passes a 204 answer through', async () => {
    const empty: typeof fetch = async () => new Response(null, { status: 204 });
    const response = await retryingFetch({ fetch: empty })('http://provider.test/v1/x', {
      method: 'POST',
      body: '{}',
    });
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
  });

  it('does not retry a refused connection and suggests checking the server', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const { waits, sleep } = recordingSleep();
    const error = await failure(
      retryingFetch({ retry: { sleep } })(`http://127.0.0.1:${port}/v1/chat/completions`, {
        method: 'POST',
        body: '{}',
      }),
    );
    expect(waits).toEqual([]);
    expect(error).toMatchObject({ failure: 'network', status: null, attempts: 1 });
    expect(error.message).toContain(`could not be reached at http://127.0.0.1:${port}`);
    expect(error.message).toContain('ECONNREFUSED');
    expect(error.message).toContain('Is the server running, and is base_url right?');
  });

  it('times out a hung provider on every attempt, then fails with PROVIDER_TIMEOUT', async () => {
    await serve([{ hang: true }, { hang: true }, { text: 'too late' }]);
    const { sleep } = recordingSleep();
    const started = performance.now();
    const error = await failure(call(retryingFetch({ timeoutMs: 100, retry: { sleep, maxRetries: 1 } })));
    expect(error).toBeInstanceOf(ProviderTimeoutError);
    expect(error.code).toBe('PROVIDER_TIMEOUT');
    expect(error.attempts).toBe(2);
    expect(error.message).toBe(
      'openai:gpt-4.1 did not answer within 0.1 s (per-attempt timeout), on each of 2 attempts.',
    );
    expect(performance.now() - started).toBeGreaterThanOrEqual(190);
    expect(server?.requests).toHaveLength(2);
  });

  it('retries a JSON body that stalls halfway', async () => {
    await serve([{ text: 'partial', hang: 'mid-body' }, { text: 'whole' }]);
    const { sleep } = recordingSleep();
    // The whole reply must come within the timeout even on a loaded CI machine; 150 ms did not.
    const response = await call(retryingFetch({ timeoutMs: 1000, retry: { sleep } }));
    expect(await replyText(response)).toBe('whole');
  });

  it('stops a stream that goes silent with a timeout error', async () => {
    await serve([{ text: 'a long streamed answer', hang: 'mid-body' }]);
    // Long enough for the headers to come in time on a loaded machine, so the stall is what times out.
    const response = await call(retryingFetch({ timeoutMs: 1000 }), {
      body: JSON.stringify({ model: 'gpt-4.1', stream: true, messages: [] }),
    });
    const reading = response.text();
    await expect(reading).rejects.toBeInstanceOf(ProviderTimeoutError);
    await expect(reading).rejects.toThrow('openai:gpt-4.1 stopped sending its streamed answer for 1 s');
  });

  it('does not count a slow consumer against the stream timeout', async () => {
    await serve([{ text: 'streamed in several chunks' }]);
    const response = await call(retryingFetch({ timeoutMs: 300 }), {
      body: JSON.stringify({ model: 'gpt-4.1', stream: true, messages: [] }),
    });
    const reader = response.body?.getReader();
    let chunks = 0;
    for (;;) {
      const { done } = (await reader?.read()) ?? { done: true };
      if (done) break;
      chunks++;
      await new Promise((resolve) => setTimeout(resolve, 400));
    }
    expect(chunks).toBeGreaterThan(0);
  });

  it('stops at once when the caller aborts a pending request', async () => {
    await serve([{ hang: true }]);
    const controller = new AbortController();
    const started = performance.now();
    const pending = call(retryingFetch(), { signal: controller.signal });
    void abortOnceRequested(controller);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    // The server hangs for good: only the abort can have ended the call this soon.
    expect(performance.now() - started).toBeLessThan(20_000);
    expect(server?.requests).toHaveLength(1);
  });

  it('stops at once when the caller aborts during a backoff wait, even if the sleep ignores the signal', async () => {
    await serve([{ status: 500 }, { text: 'never reached' }]);
    const controller = new AbortController();
    const neverWakes: RetryOptions['sleep'] = () => new Promise(() => undefined);
    const pending = call(retryingFetch({ retry: { sleep: neverWakes } }), { signal: controller.signal });
    void abortOnceRequested(controller, new Error('run cancelled'));
    await expect(pending).rejects.toThrow('run cancelled');
    expect(server?.requests).toHaveLength(1);
  });

  it('waits with the real clock by default and aborts the wait', async () => {
    await serve([{ status: 429, headers: { 'retry-after': '30' } }, { text: 'never reached' }]);
    const controller = new AbortController();
    const started = performance.now();
    const pending = call(retryingFetch(), { signal: controller.signal });
    void abortOnceRequested(controller);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    // Retry-After asked for 30 s: ending well before means the abort cut the wait.
    expect(performance.now() - started).toBeLessThan(20_000);
  });

  it('sends nothing when the signal is already aborted', async () => {
    await serve([{ text: 'unused' }]);
    const controller = new AbortController();
    controller.abort();
    await expect(call(retryingFetch(), { signal: controller.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(server?.requests).toHaveLength(0);
  });

  it.each<[string, Parameters<typeof retryingFetch>[0], string]>([
    ['negative retries', { retry: { maxRetries: -1 } }, 'maxRetries must be an integer >= 0, got -1'],
    ['fractional retries', { retry: { maxRetries: 1.5 } }, 'maxRetries must be an integer >= 0, got 1.5'],
    ['a negative delay', { retry: { baseDelayMs: -1 } }, 'baseDelayMs must be a number >= 0, got -1'],
    [
      'a zero timeout',
      { timeoutMs: 0 },
      'the per-attempt timeout must be a number of milliseconds > 0, got 0',
    ],
    ['a NaN timeout', { timeoutMs: Number.NaN }, 'got NaN'],
  ])('rejects %s', (_name, options, message) => {
    expect(() => retryingFetch(options)).toThrow(expect.objectContaining({ code: 'INVALID_RETRY_SETTINGS' }));
    expect(() => retryingFetch(options)).toThrow(message);
  });

  it('does not retry a request whose body cannot be sent twice', async () => {
    await serve([{ status: 500 }, { text: 'ok' }]);
    const { waits, sleep } = recordingSleep();
    const body = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{}'));
        controller.close();
      },
    });
    const error = await failure(
      call(retryingFetch({ retry: { sleep } }), { body, duplex: 'half' } as RequestInit),
    );
    expect(error.attempts).toBe(1);
    expect(waits).toEqual([]);
  });
});
