import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import zlib from 'node:zlib';
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, streamText } from 'ai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { httpFetch, isBufferedResponse } from './http-fetch.js';

interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

interface TestServer {
  url: string;
  server: Server;
  received: Received[];
  /** TCP connections accepted so far. */
  connections: () => number;
}

type Handler = (request: IncomingMessage, response: ServerResponse, body: string) => void;

const servers: Server[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A real node:http server on 127.0.0.1 that records each request, body included, before `handler` answers. */
async function serve(handler: Handler): Promise<TestServer> {
  const received: Received[] = [];
  let connections = 0;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      received.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body });
      handler(request, response, body);
    });
  });
  server.on('connection', () => {
    connections++;
  });
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, server, received, connections: () => connections };
}

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

/** Settles a promise from outside, to hold a server response until the test says so. */
function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

/**
 * Runs `lines` as an ES module that imports `httpFetch`, in a child `node` (for what only a
 * fresh process shows: start-up settings, and whether it exits). Killed after 15 s.
 */
async function runWithHttpFetch(options: {
  lines: string[];
  args: string[];
  env?: NodeJS.ProcessEnv;
}): Promise<{ code: number | null; stdout: string; stderr: string; lastOutputAt: number; exitedAt: number }> {
  const dir = await mkdtemp(join(tmpdir(), 'http-fetch-'));
  const script = join(dir, 'script.mjs');
  const moduleUrl = pathToFileURL(fileURLToPath(new URL('./http-fetch.ts', import.meta.url))).href;
  await writeFile(
    script,
    [`import { httpFetch } from ${JSON.stringify(moduleUrl)};`, ...options.lines].join('\n'),
  );
  try {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...options.args], {
      cwd: fileURLToPath(new URL('../..', import.meta.url)),
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let lastOutputAt = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      lastOutputAt = Date.now();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const limit = setTimeout(() => child.kill(), 15_000);
    const [code] = (await once(child, 'exit')) as [number | null];
    clearTimeout(limit);
    return { code, stdout, stderr, lastOutputAt, exitedAt: Date.now() };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('httpFetch', () => {
  it('round-trips a JSON POST and reads the whole body before resolving', async () => {
    const { url, received } = await serve((_request, response, body) => {
      response.setHeader('set-cookie', ['a=1', 'b=2']);
      response.setHeader('x-multi', ['one', 'two']);
      response.statusMessage = 'Created Fine';
      json(response, 201, { echoed: JSON.parse(body) });
    });
    const payload = JSON.stringify({ model: 'gpt-4.1', text: 'héllo' });

    const response = await httpFetch(`${url}/v1/things?x=1`, {
      method: 'post',
      headers: { 'content-type': 'application/json', authorization: 'Bearer k' },
      body: payload,
    });

    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ method: 'POST', url: '/v1/things?x=1', body: payload });
    expect(received[0]?.headers).toMatchObject({
      'content-type': 'application/json',
      authorization: 'Bearer k',
      'content-length': String(Buffer.byteLength(payload)),
      'accept-encoding': 'gzip, deflate, br',
    });
    expect(response.ok).toBe(true);
    expect(response.status).toBe(201);
    expect(response.statusText).toBe('Created Fine');
    expect(response.url).toBe(`${url}/v1/things?x=1`);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('x-multi')).toBe('one, two');
    expect(response.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(isBufferedResponse(response)).toBe(true);
    expect(await response.json()).toEqual({ echoed: { model: 'gpt-4.1', text: 'héllo' } });
  });

  it.each([
    ['gzip', zlib.gzipSync],
    ['x-gzip', zlib.gzipSync],
    ['deflate', zlib.deflateSync],
    ['deflate', zlib.deflateRawSync],
    ['br', zlib.brotliCompressSync],
  ] as const)('decodes a %s response (%o)', async (coding, compress) => {
    const text = JSON.stringify({ answer: 'x'.repeat(5_000) });
    const { url } = await serve((_request, response) => {
      const bytes = compress(Buffer.from(text));
      response.writeHead(200, {
        'content-type': 'application/json',
        'content-encoding': coding,
        'content-length': bytes.byteLength,
      });
      response.end(bytes);
    });

    const response = await httpFetch(url);

    expect(await response.text()).toBe(text);
    expect(response.headers.get('content-encoding')).toBeNull();
    expect(response.headers.get('content-length')).toBeNull();
  });

  it('passes a body in an unknown coding through untouched', async () => {
    const { url } = await serve((_request, response) => {
      response.writeHead(200, { 'content-encoding': 'zstd' });
      response.end('opaque');
    });

    const response = await httpFetch(url);

    expect(response.headers.get('content-encoding')).toBe('zstd');
    expect(await response.text()).toBe('opaque');
  });

  it('streams an event-stream response: the first chunk arrives before the server ends', async () => {
    const rest = gate();
    const { url } = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'gzip' });
      const gzip = zlib.createGzip({ flush: zlib.constants.Z_SYNC_FLUSH });
      gzip.pipe(response);
      gzip.write('data: first\n\n');
      void rest.opened.then(() => gzip.end('data: second\n\n'));
    });

    const response = await httpFetch(url);
    expect(isBufferedResponse(response)).toBe(false);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();

    const first = await reader.read();
    expect(decoder.decode(first.value)).toBe('data: first\n\n');
    rest.open();
    let tail = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      tail += decoder.decode(chunk.value, { stream: true });
    }
    expect(tail).toBe('data: second\n\n');
  });

  it.each([204, 205, 304])('gives a %i response a null body', async (status) => {
    const { url } = await serve((_request, response) => {
      response.writeHead(status);
      response.end();
    });

    const response = await httpFetch(url, { method: 'DELETE' });

    expect(response.status).toBe(status);
    expect(response.body).toBeNull();
  });

  it('gives a HEAD response a null body', async () => {
    const { url } = await serve((_request, response) => json(response, 200, { ignored: true }));

    const response = await httpFetch(url, { method: 'HEAD' });

    expect(response.body).toBeNull();
    expect(response.headers.get('content-type')).toBe('application/json');
  });

  it('sends a Request: its URL, method, headers and body', async () => {
    const { url, received } = await serve((_request, response) => json(response, 200, {}));

    await httpFetch(new Request(`${url}/r`, { method: 'PUT', headers: { 'x-id': '7' }, body: 'payload' }));

    expect(received[0]).toMatchObject({ method: 'PUT', url: '/r', body: 'payload' });
    expect(received[0]?.headers['x-id']).toBe('7');
  });

  it('encodes URLSearchParams with the form content-type', async () => {
    const { url, received } = await serve((_request, response) => json(response, 200, {}));

    await httpFetch(url, { method: 'POST', body: new URLSearchParams({ a: '1', b: 'x y' }) });

    expect(received[0]?.body).toBe('a=1&b=x+y');
    expect(received[0]?.headers['content-type']).toBe('application/x-www-form-urlencoded;charset=UTF-8');
  });

  it('hands a Blob body to the built-in fetch', async () => {
    const { url, received } = await serve((_request, response) => json(response, 200, {}));

    const response = await httpFetch(url, { method: 'POST', body: new Blob(['from a blob']) });

    expect(received[0]?.body).toBe('from a blob');
    expect(isBufferedResponse(response)).toBe(false);
  });

  describe('redirects', () => {
    /** Redirects `/start` with `status` to `/end`, which echoes what it received. */
    async function redirecting(status: number) {
      return serve((request, response, body) => {
        if (request.url === '/start') {
          response.writeHead(status, { location: '/end' });
          response.end('moved');
          return;
        }
        json(response, 200, { method: request.method, body });
      });
    }

    it('307 repeats the POST with its body', async () => {
      const { url } = await redirecting(307);

      const response = await httpFetch(`${url}/start`, { method: 'POST', body: '{"a":1}' });

      expect(await response.json()).toEqual({ method: 'POST', body: '{"a":1}' });
      expect(response.redirected).toBe(true);
      expect(response.url).toBe(`${url}/end`);
    });

    it('303 turns the POST into a GET without body or content headers', async () => {
      const { url, received } = await redirecting(303);

      const response = await httpFetch(`${url}/start`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"a":1}',
      });

      expect(await response.json()).toEqual({ method: 'GET', body: '' });
      expect(received[1]?.headers['content-type']).toBeUndefined();
      expect(received[1]?.headers['content-length']).toBeUndefined();
    });

    it("'manual' returns the redirect itself", async () => {
      const { url, received } = await redirecting(302);

      const response = await httpFetch(`${url}/start`, { redirect: 'manual' });

      expect(response.status).toBe(302);
      expect(response.headers.get('location')).toBe('/end');
      expect(await response.text()).toBe('moved');
      expect(received).toHaveLength(1);
    });

    it("'error' rejects with a TypeError", async () => {
      const { url } = await redirecting(301);

      const error = await rejection(httpFetch(`${url}/start`, { redirect: 'error' }));

      expect(error).toBeInstanceOf(TypeError);
    });

    it('drops the authorization header on a redirect to another origin', async () => {
      const target = await serve((request, response) =>
        json(response, 200, { auth: request.headers.authorization }),
      );
      const { url } = await serve((_request, response) => {
        response.writeHead(307, { location: `${target.url}/end` });
        response.end();
      });

      const response = await httpFetch(url, { headers: { authorization: 'Bearer secret' } });

      expect(await response.json()).toEqual({});
    });

    it('gives up after 20 redirects', async () => {
      const { url } = await serve((_request, response) => {
        response.writeHead(302, { location: '/again' });
        response.end();
      });

      const error = await rejection(httpFetch(url));

      expect(error).toBeInstanceOf(TypeError);
      expect((error as TypeError).cause).toEqual(new Error('redirect count exceeded'));
    });
  });

  describe('abort', () => {
    it('rejects at once with the reason of an already aborted signal', async () => {
      const { url, received } = await serve((_request, response) => json(response, 200, {}));
      const reason = new Error('stopped before');

      const error = await rejection(httpFetch(url, { signal: AbortSignal.abort(reason) }));

      expect(error).toBe(reason);
      expect(received).toHaveLength(0);
    });

    it('rejects with the reason while waiting for the headers, and closes the connection', async () => {
      const controller = new AbortController();
      const { url, server } = await serve(() => controller.abort(new Error('stopped during headers')));
      const closed = new Promise((resolve) =>
        server.once('connection', (socket) => socket.once('close', resolve)),
      );

      const error = await rejection(httpFetch(url, { signal: controller.signal }));

      expect(error).toEqual(new Error('stopped during headers'));
      await closed;
    });

    it('rejects with the reason while reading the body', async () => {
      const controller = new AbortController();
      const { url } = await serve((_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.write('{"partial":');
        setTimeout(() => controller.abort(new Error('stopped during body')), 20);
      });

      const error = await rejection(httpFetch(url, { signal: controller.signal }));

      expect(error).toEqual(new Error('stopped during body'));
    });

    it('errors an event stream with the reason', async () => {
      const controller = new AbortController();
      const { url } = await serve((_request, response) => {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.write('data: first\n\n');
      });
      const response = await httpFetch(url, { signal: controller.signal });
      const reader = response.body!.getReader();
      await reader.read();

      controller.abort(new Error('stopped mid-stream'));

      expect(await rejection(reader.read())).toEqual(new Error('stopped mid-stream'));
    });
  });

  describe('failures', () => {
    it('reports a refused connection as fetch failed with cause.code ECONNREFUSED', async () => {
      const { url, server } = await serve(() => {});
      await new Promise((resolve) => server.close(resolve));

      const error = await rejection(httpFetch(url));

      expect(error).toBeInstanceOf(TypeError);
      expect((error as TypeError).message).toBe('fetch failed');
      expect(((error as TypeError).cause as NodeJS.ErrnoException).code).toBe('ECONNREFUSED');
    });

    it('reports a connection cut mid-body as fetch failed with cause.code ECONNRESET', async () => {
      const { url } = await serve((_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
        response.write('{"partial":', () => response.socket?.destroy());
      });

      const error = await rejection(httpFetch(url));

      expect((error as TypeError).message).toBe('fetch failed');
      expect(((error as TypeError).cause as NodeJS.ErrnoException).code).toBe('ECONNRESET');
    });

    it.each(['ftp://example.com/file', 'file:///etc/hosts', 'data:text/plain,hi'])(
      'rejects %s, naming its scheme',
      async (address) => {
        const error = await rejection(httpFetch(address));

        expect(error).toBeInstanceOf(TypeError);
        expect((error as TypeError).message).toContain(`"${new URL(address).protocol}"`);
      },
    );
  });

  it('reuses one connection for sequential requests', async () => {
    const { url, connections } = await serve((_request, response) => json(response, 200, { ok: true }));

    await (await httpFetch(url)).json();
    await (await httpFetch(url, { method: 'POST', body: '{}' })).json();

    expect(connections()).toBe(1);
  });

  it('waits past the idle-socket limit for a model that takes long to answer', async () => {
    // The agents close sockets idle for 4 s; a busy one must not be cut, since a model call
    // without streaming routinely takes longer than that.
    const { url } = await serve((_request, response) => {
      setTimeout(() => json(response, 200, { late: true }), 4_500);
    });
    const response = await httpFetch(url, { method: 'POST', body: '{}' });
    expect(await response.json()).toEqual({ late: true });
  }, 15_000);

  describe('over https', () => {
    // A self-signed certificate for localhost, made with the openssl command line: Node cannot
    // sign certificates itself.
    const openssl = spawnSync('openssl', ['version']).status === 0;
    if (!openssl) console.warn('http-fetch https tests skipped: the openssl command is not installed.');
    let tls: { dir: string; cert: string; key: string } | undefined;

    beforeAll(async () => {
      if (!openssl) return;
      const dir = await mkdtemp(join(tmpdir(), 'http-fetch-tls-'));
      const made = spawnSync('openssl', [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ]);
      if (made.status !== 0) throw new Error(`openssl failed: ${made.stderr.toString()}`);
      tls = {
        dir,
        cert: await readFile(join(dir, 'cert.pem'), 'utf8'),
        key: await readFile(join(dir, 'key.pem'), 'utf8'),
      };
    });
    afterAll(async () => {
      if (tls !== undefined) await rm(tls.dir, { recursive: true, force: true });
    });

    async function serveTls(): Promise<string> {
      const server = createHttpsServer({ cert: tls!.cert, key: tls!.key }, (request, response) => {
        const chunks: Buffer[] = [];
        request.on('data', (chunk: Buffer) => chunks.push(chunk));
        request.on('end', () =>
          json(response, 200, { method: request.method, body: Buffer.concat(chunks).toString() }),
        );
      });
      servers.push(server);
      server.listen(0, '127.0.0.1');
      await once(server, 'listening');
      return `https://localhost:${(server.address() as AddressInfo).port}/v1/responses`;
    }

    it.skipIf(!openssl)('refuses a certificate it cannot verify', async () => {
      const url = await serveTls();
      const error = (await rejection(httpFetch(url, { method: 'POST', body: '{}' }))) as TypeError;
      expect(error).toBeInstanceOf(TypeError);
      expect((error.cause as { code?: string }).code).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
    });

    it.skipIf(!openssl)(
      'posts over TLS to a server whose certificate the process trusts',
      async () => {
        const url = await serveTls();
        // NODE_EXTRA_CA_CERTS is read at start-up only, hence a child process.
        const { code, stdout, stderr } = await runWithHttpFetch({
          lines: [
            "const response = await httpFetch(process.argv[2], { method: 'POST', body: '{\"q\":1}' });",
            'console.log(JSON.stringify({ status: response.status, body: await response.json() }));',
          ],
          args: [url],
          env: { ...process.env, NODE_EXTRA_CA_CERTS: join(tls!.dir, 'cert.pem') },
        });
        expect(stderr).toBe('');
        expect(code).toBe(0);
        expect(JSON.parse(stdout)).toEqual({ status: 200, body: { method: 'POST', body: '{"q":1}' } });
      },
      20_000,
    );
  });

  it('lets the process exit while a keep-alive connection sits idle', async () => {
    const { url, server } = await serve((_request, response) => json(response, 200, { ok: true }));
    // Far beyond the limit below, so only the client can end the connection in time.
    server.keepAliveTimeout = 60_000;
    const { code, stdout, stderr, lastOutputAt, exitedAt } = await runWithHttpFetch({
      lines: [
        'const response = await httpFetch(process.argv[2]);',
        'await response.json();',
        "console.log('done');",
      ],
      args: [url],
    });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain('done');
    expect(exitedAt - lastOutputAt).toBeLessThan(2_000);
  });

  describe('with the AI SDK OpenAI provider', () => {
    const completion = {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 1_700_000_000,
      model: 'gpt-4.1',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: 'Forty-two.', refusal: null },
          logprobs: null,
          finish_reason: 'stop',
        },
      ],
      usage: { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 },
    };

    it('generateText works through httpFetch', async () => {
      const { url, received } = await serve((_request, response) => {
        // Compressed, as real providers answer, to cover decoding on the SDK's path.
        const bytes = zlib.gzipSync(JSON.stringify(completion));
        response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
        response.end(bytes);
      });
      const openai = createOpenAI({ baseURL: `${url}/v1`, apiKey: 'k', fetch: httpFetch });

      const result = await generateText({
        model: openai.chat('gpt-4.1'),
        prompt: 'The answer?',
        maxRetries: 0,
      });

      expect(result.text).toBe('Forty-two.');
      expect(result.usage.inputTokens).toBe(7);
      expect(received[0]).toMatchObject({ method: 'POST', url: '/v1/chat/completions' });
      expect(received[0]?.headers.authorization).toBe('Bearer k');
      expect(JSON.parse(received[0]?.body ?? '{}')).toMatchObject({
        model: 'gpt-4.1',
        messages: [{ role: 'user', content: 'The answer?' }],
      });
    });

    it('streamText works through httpFetch', async () => {
      const { url } = await serve((_request, response) => {
        const chunk = (delta: Record<string, unknown>, finish: string | null) =>
          `data: ${JSON.stringify({
            id: 'chatcmpl-1',
            object: 'chat.completion.chunk',
            created: 1_700_000_000,
            model: 'gpt-4.1',
            choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
          })}\n\n`;
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.write(chunk({ role: 'assistant', content: 'Forty' }, null));
        response.write(chunk({ content: '-two.' }, null));
        response.write(chunk({}, 'stop'));
        response.end('data: [DONE]\n\n');
      });
      const openai = createOpenAI({ baseURL: `${url}/v1`, apiKey: 'k', fetch: httpFetch });

      const result = streamText({ model: openai.chat('gpt-4.1'), prompt: 'The answer?', maxRetries: 0 });

      expect(await result.text).toBe('Forty-two.');
    });
  });
});
