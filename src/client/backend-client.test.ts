import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TestRunResponse } from '../test-run/index.js';
import { BackendUnreachableError, checkBackend, loginWithPassword } from './backend-api.js';
import { createBackendClient, UNAUTHORIZED_MESSAGE } from './backend-client.js';
import { createBackendSession } from './backend-session.js';
import { createCredentialStore } from './credential-store.js';

const usage = {
  inputTotalTokens: 10,
  inputNoCacheTokens: 10,
  inputCacheReadTokens: 0,
  inputCacheWriteTokens: 0,
  outputTotalTokens: 5,
  outputTextTokens: 5,
  outputReasoningTokens: 0,
  totalTokens: 15,
};
const RESPONSE: TestRunResponse = {
  text: 'The total is 42.',
  toolCalls: [
    { toolName: 'execute_sql', toolCallId: 'c1', args: { sql_query: 'SELECT 42' }, result: { rows: [[42]] } },
  ],
  usage,
  cost: { inputNoCache: 0.1, inputCacheRead: 0, inputCacheWrite: 0, output: 0.2, totalCost: 0.3 },
  finishReason: 'stop',
  durationMs: 12,
  verification: {
    data: { columns: ['total'], rows: [['42.00']] },
    sql: 'SELECT * FROM "query_1"',
    error: null,
    errorKind: null,
    expectedData: { columns: ['total'], rows: [['42.00']] },
    expectedColumns: ['total'],
    referenceError: null,
    snapshotConsistent: true,
    attempts: 1,
    usage,
    cost: null,
  },
};
const REQUEST = {
  prompt: 'Total?',
  model: { provider: 'openai', modelId: 'gpt-4.1' },
  sql: 'SELECT 42',
  databaseId: null,
};

/** A stand-in backend: valid tokens, a log-in that mints them, and a scripted /api/test/run. */
const fake = {
  valid: new Set<string>(),
  logins: 0,
  runs: [] as string[],
  loginRefused: false,
  runReply: (): { status: number; body: unknown } => ({ status: 200, body: RESPONSE }),
  runDelayMs: 0,
};
let server: Server;
let url: string;
let home: string;

beforeAll(async () => {
  server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    const token = request.headers.authorization?.replace(/^Bearer /, '') ?? '';
    if (request.url === '/api/health')
      return send(200, { status: 'ok', service: 'nao', project: 'p', version: '1' });
    if (request.url === '/api/auth/login') {
      fake.logins++;
      await new Promise((resolve) => setTimeout(resolve, 30));
      if (fake.loginRefused) return send(401, { error: 'Invalid email or password.' });
      const minted = `token-${fake.logins}`;
      fake.valid.add(minted);
      return send(200, { token: minted, user: { email: 'ada@example.com' } });
    }
    if (request.url === '/api/test/run') {
      fake.runs.push(token);
      if (!fake.valid.has(token)) return send(401, { error: 'Unauthorized' });
      if (fake.runDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, fake.runDelayMs));
      const reply = fake.runReply();
      return send(reply.status, reply.body);
    }
    send(404, { error: 'not found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(async () => {
  home = await mkdtemp(path.join(tmpdir(), 'nao-client-'));
  Object.assign(fake, { valid: new Set<string>(), logins: 0, runs: [], loginRefused: false, runDelayMs: 0 });
  fake.runReply = () => ({ status: 200, body: RESPONSE });
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

function client(initialToken: string | null) {
  const store = createCredentialStore({ env: { NAO_HOME: home } });
  const session = createBackendSession({
    backendUrl: url,
    store,
    initial: initialToken === null ? null : { token: initialToken, email: 'ada@example.com', savedAt: '' },
    login: async () => {
      const result = await loginWithPassword({
        backendUrl: url,
        email: 'ada@example.com',
        password: 'pw-client-1',
      });
      if (!result.success) throw new Error(result.error);
      return result.login;
    },
  });
  return { client: createBackendClient({ backendUrl: url, session }), store };
}

const run = (testClient: ReturnType<typeof createBackendClient>, signal = new AbortController().signal) =>
  testClient.runTest({ request: REQUEST, signal });

describe('backend client', () => {
  it('sends the stored token and returns the backend answer as is', async () => {
    fake.valid.add('stored');
    const { client: backend } = client('stored');
    expect(await run(backend)).toEqual(RESPONSE);
    expect(fake.runs).toEqual(['stored']);
    expect(fake.logins).toBe(0);
  });

  it('a revoked session triggers exactly one re-login for concurrent runs, each retried once', async () => {
    const { client: backend, store } = client('revoked');
    const results = await Promise.all(Array.from({ length: 4 }, () => run(backend)));
    expect(results).toEqual([RESPONSE, RESPONSE, RESPONSE, RESPONSE]);
    expect(fake.logins).toBe(1);
    expect(fake.runs.filter((token) => token === 'revoked')).toHaveLength(4);
    expect(fake.runs.filter((token) => token === 'token-1')).toHaveLength(4);
    expect((await store.get(url))?.token).toBe('token-1');
  });

  it('gives up after a second 401 with the credentials message', async () => {
    const { client: backend } = client('revoked');
    fake.runReply = () => ({ status: 401, body: { error: 'Unauthorized' } });
    await expect(run(backend)).rejects.toThrow(UNAUTHORIZED_MESSAGE);
    expect(fake.logins).toBe(1);
    expect(fake.runs).toHaveLength(2);
  });

  it('a refused re-login fails the run with its reason, once for all runs', async () => {
    const { client: backend } = client('revoked');
    fake.loginRefused = true;
    const results = await Promise.allSettled([run(backend), run(backend)]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    expect(String((results[0] as PromiseRejectedResult).reason)).toContain('Invalid email or password.');
    expect(fake.logins).toBe(1);
  });

  it.each([
    [
      500,
      { error: 'openai:gpt-4.1 failed with HTTP 500: overloaded' },
      'openai:gpt-4.1 failed with HTTP 500: overloaded',
    ],
    [
      400,
      { error: 'Invalid request body: prompt must not be empty.', fields: {} },
      'prompt must not be empty',
    ],
    [502, null, 'the backend answered HTTP 502'],
    [200, { text: 'no verification key' }, "The backend's answer is not a test run result"],
  ])('turns HTTP %i into an error naming the cause', async (status, body, message) => {
    fake.valid.add('ok');
    fake.runReply = () => ({ status, body });
    const { client: backend } = client('ok');
    await expect(run(backend)).rejects.toThrow(message);
  });

  it('an aborted run rejects with the abort reason and is not retried', async () => {
    fake.valid.add('ok');
    const { client: backend } = client('ok');
    const controller = new AbortController();
    controller.abort(new Error('run timed out'));
    await expect(run(backend, controller.signal)).rejects.toThrow('run timed out');
  });

  it('aborting a run in flight drops the request at once', async () => {
    fake.valid.add('ok');
    fake.runDelayMs = 3000;
    const { client: backend } = client('ok');
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('interrupted')), 100);
    const started = Date.now();
    await expect(run(backend, controller.signal)).rejects.toThrow('interrupted');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('a backend that is down gives the start-it-or-use-local message', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const downUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((resolve) => closed.close(resolve));
    const error = await checkBackend({ backendUrl: downUrl }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BackendUnreachableError);
    expect((error as Error).message).toBe(
      `Cannot reach the nao backend at ${downUrl} — start it with \`nao chat\` or use --local`,
    );
  });

  it('refuses a server that is not a nao backend', async () => {
    await expect(checkBackend({ backendUrl: `${url}/elsewhere` })).rejects.toMatchObject({
      code: 'NOT_A_NAO_BACKEND',
    });
  });
});
