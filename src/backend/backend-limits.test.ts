import { mkdir, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyExampleProject, type ExampleCopy } from '../../test-support/cli/example-project.js';
import { startTestLlmServer, type TestLlmServer } from '../../test-support/llm-server/index.js';
import { type ScriptedAnswer, scriptedAnalyst } from '../../test-support/llm-server/scripted-analyst.js';
import { loadConfig } from '../config/index.js';
import { type RunningBackend, startBackend } from './backend.js';

/** A `nao chat` backend under hostile and heavy use: many users, many requests at once, big bodies. */

const PASSWORD = 'pw-limits-8c1d0e';
const OWNER = 'owner@example.com';

let answers: Record<string, ScriptedAnswer> = {};
let llm: TestLlmServer;
let project: ExampleCopy;
let backend: RunningBackend;
const log: string[] = [];
let ownerToken: string;
let memberToken: string;

/** An account signed up with an invite from the owner; returns its token. */
async function invitedSignUp(email: string): Promise<string> {
  const invite = await api('POST', '/api/auth/invites', { token: ownerToken, body: {} });
  expect(invite.status).toBe(201);
  const { code } = invite.body as { code: string };
  const signup = await api('POST', '/api/auth/signup', { body: { email, password: PASSWORD, invite: code } });
  expect(signup.status).toBe(200);
  return (signup.body as { token: string }).token;
}

beforeAll(async () => {
  llm = await startTestLlmServer({ script: (request) => scriptedAnalyst({ answers })(request) });
  project = await copyExampleProject({ baseUrl: llm.url });
  const config = await loadConfig({ projectDir: project.dir, env: {} });
  // What the agent may not read; a member's reference SQL may not either.
  config.databases[0]!.exclude = ['*.customers'];
  backend = await startBackend({
    config,
    env: {},
    port: 0,
    version: 'test',
    log: (line) => log.push(line),
    // Every request comes from 127.0.0.1 here: the address limit would hide the account limit.
    loginLimits: { maxAccountFailures: 5, maxAddressFailures: 10_000, windowMs: 15 * 60_000 },
  });
  const signup = await api('POST', '/api/auth/signup', { body: { email: OWNER, password: PASSWORD } });
  expect(signup.status).toBe(200);
  ownerToken = (signup.body as { token: string }).token;
  memberToken = await invitedSignUp('member@example.com');
});
afterAll(async () => {
  await backend?.close();
  await llm?.close();
  await project?.cleanup();
});

async function api(method: string, path: string, options: { body?: unknown; token?: string } = {}) {
  const headers: Record<string, string> = {};
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  const response = await fetch(`${backend.url}${path}`, {
    method,
    headers,
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {}
  return { status: response.status, body, headers: response.headers };
}

/** Sends `size` bytes as a JSON body, declared or streamed in chunks, and returns the answer. */
function bigBody(options: { path: string; size: number; chunked: boolean }) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const request = httpRequest(`${backend.url}${options.path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(options.chunked ? {} : { 'content-length': String(options.size) }),
      },
    });
    request.on('response', (response) => {
      let body = '';
      response.on('data', (chunk) => {
        body += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    // The server stops reading once it has refused: the rest of the upload fails, as expected.
    request.on('error', (error) => setTimeout(() => reject(error), 1000));
    const chunk = Buffer.alloc(64 * 1024, 'a');
    request.write('{"email":"x@example.com","password":"');
    let sent = 0;
    const pump = () => {
      while (sent < options.size) {
        sent += chunk.length;
        if (!request.write(chunk)) return void request.once('drain', pump);
      }
      request.end('"}');
    };
    pump();
  });
}

describe('failed log-ins sent at once', () => {
  it('check no more passwords than the limit allows, and refuse the rest with 429', async () => {
    const email = 'target@example.com';
    await invitedSignUp(email);
    const replies = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        api('POST', '/api/auth/login', { body: { email, password: `${PASSWORD}-guess-${i}` } }),
      ),
    );
    const checked = replies.filter((answer) => answer.status === 401);
    const refused = replies.filter((answer) => answer.status === 429);
    expect(checked.length).toBeLessThanOrEqual(5);
    expect(checked.length + refused.length).toBe(40);
    expect(refused[0]!.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    // Five failures are stored: the right password is refused too until the window passes.
    const right = await api('POST', '/api/auth/login', { body: { email, password: PASSWORD } });
    expect(right.status).toBe(429);
  });
});

describe('a burst of log-ins', () => {
  it('leaves file writes fast, and is answered 503 with Retry-After past the wait list', async () => {
    const logins = Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        api('POST', '/api/auth/login', { body: { email: `nobody${i}@example.com`, password: PASSWORD } }),
      ),
    );
    // Let the burst reach the server, then save a test, which writes and syncs a file.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const started = performance.now();
    const saved = await api('POST', '/api/tests', {
      token: ownerToken,
      body: { name: 'burst_check', prompt: 'How many orders?', sql: 'SELECT count(*) FROM orders' },
    });
    const savedMs = performance.now() - started;
    const answered = await logins;
    expect(saved.status).toBe(201);
    expect(savedMs).toBeLessThan(2000);
    const statuses = new Set(answered.map((answer) => answer.status));
    expect([...statuses].sort()).toEqual([401, 503]);
    const busy = answered.find((answer) => answer.status === 503)!;
    expect(Number(busy.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(busy.body).toMatchObject({ error: expect.stringContaining('busy checking other passwords') });
  });
});

describe('request bodies', () => {
  it.each([
    ['declared with Content-Length', false],
    ['streamed without a length', true],
  ])('larger than 1 MB are refused with 413 before a session is asked for (%s)', async (_label, chunked) => {
    const answer = await bigBody({ path: '/api/auth/login', size: 8 * 1024 * 1024, chunked });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({ error: expect.stringContaining('larger than 1024 KB') });
  });

  it('under the limit still reach the route', async () => {
    const answer = await api('POST', '/api/auth/login', {
      body: { email: OWNER, password: 'p'.repeat(512 * 1024) },
    });
    expect(answer).toMatchObject({ status: 400, body: { error: expect.stringMatching(/password/i) } });
  });
});

describe('sign-up after the first account', () => {
  it('needs an invite from the owner, which signs up one account only', async () => {
    const uninvited = await api('POST', '/api/auth/signup', {
      body: { email: 'stranger@example.com', password: PASSWORD },
    });
    expect(uninvited).toMatchObject({
      status: 403,
      body: { error: expect.stringContaining('needs an invite') },
    });
    const invite = await api('POST', '/api/auth/invites', { token: ownerToken, body: {} });
    const { code, url } = invite.body as { code: string; url: string };
    expect(url).toBe(`${backend.url}/signup?invite=${code}`);
    // The link's page carries the code into the form.
    expect(await (await fetch(url)).text()).toContain(`name="invite" value="${code}"`);
    const used = await api('POST', '/api/auth/signup', {
      body: { email: 'invited@example.com', password: PASSWORD, invite: code },
    });
    expect(used.status).toBe(200);
    const again = await api('POST', '/api/auth/signup', {
      body: { email: 'second@example.com', password: PASSWORD, invite: code },
    });
    expect(again).toMatchObject({
      status: 403,
      body: { error: expect.stringContaining('unknown, used or expired') },
    });
  });

  it('lets only the owner invite', async () => {
    const refused = await api('POST', '/api/auth/invites', { token: memberToken, body: {} });
    expect(refused).toMatchObject({ status: 403, body: { error: expect.stringContaining('owner') } });
  });
});

describe('reference SQL sent to POST /api/test/run', () => {
  const model = { provider: 'openai', modelId: 'gpt-4.1' };
  const prompt = 'Who are our customers?';

  it("runs under the project's exclude for a member: excluded tables are refused with 403", async () => {
    answers = { [prompt]: { sql: 'SELECT 1 AS n' } };
    const run = await api('POST', '/api/test/run', {
      token: memberToken,
      body: { prompt, model, sql: 'SELECT * FROM customers' },
    });
    expect(run.status).toBe(403);
    expect(run.body).toMatchObject({
      error: expect.stringContaining('customers is not readable'),
      fields: { sql: [expect.stringContaining('owner')] },
    });
    expect(JSON.stringify(run.body)).not.toContain('expectedData');
    const allowed = await api('POST', '/api/test/run', {
      token: memberToken,
      body: { prompt, model, sql: 'SELECT count(*) AS n FROM orders' },
    });
    expect(allowed.status).toBe(200);
  });

  it('runs unrestricted for the owner', async () => {
    answers = { [prompt]: { sql: 'SELECT 1 AS n' } };
    const run = await api('POST', '/api/test/run', {
      token: ownerToken,
      body: { prompt, model, sql: 'SELECT count(*) AS customers FROM customers' },
    });
    expect(run.status).toBe(200);
    expect(run.body).toMatchObject({ verification: { expectedColumns: ['customers'] } });
  });
});

describe('app runs of many users', () => {
  const model = 'openai:gpt-4.1';

  it("refuse a member's test whose reference SQL reads an excluded table", async () => {
    const run = await api('POST', '/api/tests/runs', {
      token: memberToken,
      body: { tests: ['top_customers_by_revenue'], models: [model] },
    });
    expect(run).toMatchObject({
      status: 403,
      body: { error: expect.stringContaining('Test top_customers_by_revenue: Query refused') },
    });
  });

  it('plan at most 100 runs (tests x models) per job', async () => {
    const bulk = path.join(project.dir, 'tests', 'bulk');
    await mkdir(bulk);
    const names = Array.from({ length: 101 }, (_, i) => `bulk_${i}`);
    try {
      for (const name of names) {
        await writeFile(
          path.join(bulk, `${name}.yml`),
          `prompt: Orders ${name}?\nsql: SELECT count(*) FROM orders\n`,
        );
      }
      const run = await api('POST', '/api/tests/runs', {
        token: memberToken,
        body: { tests: names, models: [model] },
      });
      expect(run).toMatchObject({ status: 400, body: { error: expect.stringContaining('101 runs') } });
      expect((run.body as { error: string }).error).toContain('at most 100');
    } finally {
      await rm(bulk, { recursive: true, force: true });
    }
  });

  it('name a missing test without the server path of the project', async () => {
    const run = await api('POST', '/api/tests/runs', {
      token: memberToken,
      body: { tests: ['gone_test'], models: [model] },
    });
    expect(run.status).toBe(400);
    const { error } = run.body as { error: string };
    expect(error).toContain('No test named gone_test in tests');
    expect(error).not.toContain(project.dir);
  });

  it('limit POST /api/test/run in flight per account: past 16 at once, 429 with Retry-After', async () => {
    const prompt = 'A slow question for the in-flight limit?';
    answers = { [prompt]: { text: 'Slowly answered.', delayMs: 1500 } };
    const body = { prompt, model: { provider: 'openai', modelId: 'gpt-4.1' } };
    const replies = await Promise.all(
      Array.from({ length: 20 }, () => api('POST', '/api/test/run', { token: memberToken, body })),
    );
    const refused = replies.filter((reply) => reply.status === 429);
    expect(replies.filter((reply) => reply.status === 200)).toHaveLength(16);
    expect(refused).toHaveLength(4);
    expect(Number(refused[0]!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused[0]!.body).toMatchObject({ error: expect.stringContaining('16 test runs in flight') });
    // Another account is not held back by this one.
    expect((await api('POST', '/api/test/run', { token: ownerToken, body })).status).toBe(200);
  });
});
