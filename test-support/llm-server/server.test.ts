import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestLlmServer, type TestLlmServer } from './server.js';
import type { Script } from './types.js';

let server: TestLlmServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Reads a JSON body for assertions, which check its shape. */
// biome-ignore lint/suspicious/noExplicitAny: the assertions inspect arbitrary response JSON
async function json(response: Response | Promise<Response>): Promise<any> {
  return (await response).json();
}

async function start(script: Script) {
  server = await startTestLlmServer({ script });
  return server;
}

function post(path: string, body: unknown, init: RequestInit = {}) {
  if (server === undefined) throw new Error('start the server first');
  return fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer test-key' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...init,
  });
}

const chatBody = (prompt: string, extra: Record<string, unknown> = {}) => ({
  model: 'gpt-4.1',
  messages: [{ role: 'user', content: prompt }],
  ...extra,
});

describe('startTestLlmServer', () => {
  it('listens on 127.0.0.1 with a /v1 base url', async () => {
    const { url, port } = await start([]);
    expect(url).toBe(`http://127.0.0.1:${port}/v1`);
    expect(port).toBeGreaterThan(0);
  });

  it('answers a list of turns in arrival order and records each request', async () => {
    await start([{ text: 'first' }, { text: 'second' }]);
    const one = await json(post('/chat/completions', chatBody('a')));
    const two = await json(post('/chat/completions', chatBody('b')));
    expect(one.choices[0].message.content).toBe('first');
    expect(two.choices[0].message.content).toBe('second');
    expect(server?.requests.map((request) => [request.index, request.messages.at(-1)?.content])).toEqual([
      [0, 'a'],
      [1, 'b'],
    ]);
    expect(server?.requests[0]?.headers.authorization).toBe('Bearer test-key');
    expect(server?.requests[0]?.path).toBe('/v1/chat/completions');
  });

  it('answers an unscripted request with a 500 that names the request', async () => {
    await start([{ text: 'only one' }]);
    await post('/chat/completions', chatBody('first'));
    const response = await post('/chat/completions', chatBody('what is the total revenue?'));
    expect(response.status).toBe(500);
    const body = await json(response);
    expect(body.error.message).toContain('no scripted turn for request #1');
    expect(body.error.message).toContain('openai-chat');
    expect(body.error.message).toContain('what is the total revenue?');
    expect(body.error.message).toContain('the script has 1 turn(s)');
  });

  it('lets a script function answer from the conversation', async () => {
    await start((request) => {
      const last = request.messages.at(-1);
      return last?.role === 'tool'
        ? { text: `got ${last.content} from ${last.toolName}` }
        : { text: 'no tool yet' };
    });
    const response = await post('/chat/completions', {
      model: 'gpt-4.1',
      messages: [
        { role: 'user', content: 'go' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'c1', type: 'function', function: { name: 'execute_sql', arguments: '{"q":1}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'c1', content: '42' },
      ],
    });
    expect((await json(response)).choices[0].message.content).toBe('got 42 from execute_sql');
  });

  it('turns a throwing script function into a 500 naming the error', async () => {
    await start(() => {
      throw new Error('no answer for this prompt');
    });
    const response = await post('/messages', {
      model: 'claude-sonnet-4-5',
      max_tokens: 10,
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(response.status).toBe(500);
    const body = await json(response);
    expect(body.type).toBe('error');
    expect(body.error.message).toContain('no answer for this prompt');
  });

  it('sends scripted errors with headers and the protocol error shape', async () => {
    await start([
      { status: 429, headers: { 'retry-after': '3' } },
      { status: 503, errorBody: { error: { message: 'overloaded, try later' } } },
      { status: 502, errorBody: '<html>bad gateway</html>' },
      { status: 529 },
    ]);
    const limited = await post('/chat/completions', chatBody('x'));
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('3');
    expect((await json(limited)).error.type).toBe('rate_limit_exceeded');

    const custom = await post('/responses', { model: 'gpt-4.1', input: 'x' });
    expect(custom.status).toBe(503);
    expect(await json(custom)).toEqual({ error: { message: 'overloaded, try later' } });

    const html = await post('/chat/completions', chatBody('x'));
    expect(html.headers.get('content-type')).toBe('text/plain');
    expect(await html.text()).toBe('<html>bad gateway</html>');

    const overloaded = await post('/messages', { model: 'claude-sonnet-4-5', messages: [] });
    expect((await json(overloaded)).error.type).toBe('overloaded_error');
  });

  it('waits delayMs before answering', async () => {
    await start([{ text: 'slow', delayMs: 150 }]);
    const started = performance.now();
    const response = await post('/chat/completions', chatBody('x'));
    expect((await json(response)).choices[0].message.content).toBe('slow');
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('counts delayMs from the arrival of the request, not from the end of its body', async () => {
    const { port } = await start([{ text: 'slow', delayMs: 400 }]);
    const started = performance.now();
    const answered = new Promise<number>((resolve, reject) => {
      const request = http.request(
        { host: '127.0.0.1', port, path: '/v1/chat/completions', method: 'POST' },
        (response) => {
          response.resume();
          response.on('end', () => resolve(performance.now() - started));
        },
      );
      request.on('error', reject);
      request.flushHeaders();
      // The body takes 300 ms to come: a wait started after it would answer 700 ms in.
      setTimeout(() => request.end(JSON.stringify(chatBody('x'))), 300);
    });
    const elapsed = await answered;
    expect(elapsed).toBeGreaterThanOrEqual(390);
    expect(elapsed).toBeLessThan(650);
  });

  it('keeps a hung request open until the client gives up, and close() still returns', async () => {
    await start([{ hang: true }]);
    const controller = new AbortController();
    const pending = post('/chat/completions', chatBody('x'), { signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(server?.requests).toHaveLength(1);
    controller.abort();
    await expect(pending).rejects.toThrow();
    await server?.close();
  });

  it('closes while a request hangs', async () => {
    await start([{ hang: true }]);
    const pending = post('/chat/completions', chatBody('x')).then(
      () => 'answered',
      () => 'dropped',
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    await server?.close();
    expect(await pending).toBe('dropped');
  });

  it('sends half a body then stalls with hang: mid-body', async () => {
    await start([{ text: 'never complete', hang: 'mid-body' }]);
    const response = await post('/chat/completions', chatBody('x'));
    expect(response.status).toBe(200);
    const reader = response.body?.getReader();
    const first = await reader?.read();
    expect(first?.done).toBe(false);
    const next = await Promise.race([
      reader?.read().then(() => 'more'),
      new Promise((resolve) => setTimeout(() => resolve('stalled'), 150)),
    ]);
    expect(next).toBe('stalled');
    await reader?.cancel();
  });

  it('rejects a turn whose usage does not add up', async () => {
    await start([{ text: 'x', usage: { input: 10, cachedInput: 20 } }]);
    const response = await post('/chat/completions', chatBody('x'));
    expect(response.status).toBe(500);
    expect((await json(response)).error.message).toContain(
      'usage.cachedInput + usage.cacheWrite (20) exceed usage.input (10)',
    );
  });

  it.each([
    ['an unknown path', '/embeddings', chatBody('x'), 404, 'no endpoint POST /v1/embeddings'],
    ['a body that is not JSON', '/chat/completions', '{not json', 400, 'not a JSON object'],
    ['a JSON body that is not an object', '/chat/completions', '[1,2]', 400, 'not a JSON object'],
  ])('answers %s with a clear error', async (_name, path, body, status, message) => {
    await start([{ text: 'unused' }]);
    const response = await post(path, body);
    expect(response.status).toBe(status);
    expect((await json(response)).error.message).toContain(message);
    expect(server?.requests).toHaveLength(0);
  });

  it('routes concurrent conversations by their prompt', async () => {
    await start((request) => ({ text: `answer to ${request.messages.at(-1)?.content}`, delayMs: 20 }));
    const answers = await Promise.all(
      ['q1', 'q2', 'q3'].map(async (prompt) => {
        const body = await json(post('/chat/completions', chatBody(prompt)));
        return body.choices[0].message.content;
      }),
    );
    expect(answers).toEqual(['answer to q1', 'answer to q2', 'answer to q3']);
  });

  it('tells onRequest about each request before answering', async () => {
    const seen: string[] = [];
    server = await startTestLlmServer({
      script: [{ text: 'ok' }],
      onRequest: (request) => seen.push(`${request.protocol}:${request.model}`),
    });
    await post('/chat/completions', chatBody('x'));
    expect(seen).toEqual(['openai-chat:gpt-4.1']);
  });
});

describe('wire formats', () => {
  const usage = { input: 100, output: 30, cachedInput: 40, cacheWrite: 10, reasoning: 12 };

  it('reports usage in the chat completions field names', async () => {
    await start([{ text: 'hi', usage }]);
    const body = await json(post('/chat/completions', chatBody('x')));
    expect(body.usage).toEqual({
      prompt_tokens: 100,
      completion_tokens: 30,
      total_tokens: 130,
      prompt_tokens_details: { cached_tokens: 40, cache_write_tokens: 10 },
      completion_tokens_details: { reasoning_tokens: 12 },
    });
  });

  it('reports usage in the responses field names', async () => {
    await start([{ text: 'hi', usage }]);
    const body = await json(post('/responses', { model: 'gpt-4.1', input: 'x' }));
    expect(body.usage).toEqual({
      input_tokens: 100,
      input_tokens_details: { cached_tokens: 40, cache_write_tokens: 10 },
      output_tokens: 30,
      output_tokens_details: { reasoning_tokens: 12 },
      total_tokens: 130,
    });
  });

  it('reports usage in the anthropic field names, input excluding cached tokens', async () => {
    await start([{ text: 'hi', usage }]);
    const body = await json(post('/messages', { model: 'claude-sonnet-4-5', messages: [] }));
    expect(body.usage).toEqual({
      input_tokens: 50,
      cache_creation_input_tokens: 10,
      cache_read_input_tokens: 40,
      output_tokens: 30,
      output_tokens_details: { thinking_tokens: 12 },
    });
  });

  it('streams chat completions with a final usage chunk only when asked', async () => {
    await start([{ text: 'hello world' }, { text: 'hello world' }]);
    const withUsage = await (
      await post(
        '/chat/completions',
        chatBody('x', { stream: true, stream_options: { include_usage: true } }),
      )
    ).text();
    const without = await (await post('/chat/completions', chatBody('x', { stream: true }))).text();
    expect(withUsage.trim().endsWith('data: [DONE]')).toBe(true);
    expect(withUsage).toContain('"prompt_tokens":10');
    expect(without).not.toContain('prompt_tokens');
    const text = withUsage
      .split('\n')
      .filter((line) => line.startsWith('data: {'))
      .map((line) => JSON.parse(line.slice(6)).choices[0]?.delta?.content ?? '')
      .join('');
    expect(text).toBe('hello world');
  });

  it('gives tool calls distinct ids per request and position', async () => {
    await start([
      {
        toolCalls: [
          { name: 'a', args: { x: 1 } },
          { name: 'b', args: {}, id: 'custom' },
        ],
      },
    ]);
    const body = await json(post('/chat/completions', chatBody('x')));
    expect(body.choices[0].finish_reason).toBe('tool_calls');
    expect(body.choices[0].message.tool_calls).toEqual([
      { id: 'call_0_0', type: 'function', function: { name: 'a', arguments: '{"x":1}' } },
      { id: 'custom', type: 'function', function: { name: 'b', arguments: '{}' } },
    ]);
  });

  it('returns structured output as the JSON text of the reply', async () => {
    await start([{ json: { total: 1.5, rows: [1, 2] } }]);
    const body = await json(
      post('/responses', {
        model: 'gpt-4.1',
        input: 'x',
        text: { format: { type: 'json_schema', name: 'answer', schema: {} } },
      }),
    );
    expect(JSON.parse(body.output[0].content[0].text)).toEqual({ total: 1.5, rows: [1, 2] });
    expect(server?.requests[0]?.wantsJson).toBe(true);
  });
});
