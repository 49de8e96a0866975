import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyExampleProject, type ExampleCopy } from '../../test-support/cli/example-project.js';
import { startTestLlmServer, type TestLlmServer } from '../../test-support/llm-server/index.js';
import { type ScriptedAnswer, scriptedAnalyst } from '../../test-support/llm-server/scripted-analyst.js';
import { loadConfig } from '../config/index.js';
import { type RunningBackend, startBackend } from './backend.js';
import { codeChallengeOf } from './cli-login-codes.js';

const PASSWORD = 'pw-backend-7f3a9c';
const EMAIL = 'ada@example.com';

let answers: Record<string, ScriptedAnswer> = {};
let llm: TestLlmServer;
let project: ExampleCopy;
let backend: RunningBackend;
let clock = new Date('2026-03-01T10:00:00Z');
const log: string[] = [];
let token: string;
let cookie: string;

beforeAll(async () => {
  llm = await startTestLlmServer({ script: (request) => scriptedAnalyst({ answers })(request) });
  project = await copyExampleProject({ baseUrl: llm.url });
  const config = await loadConfig({ projectDir: project.dir, env: {} });
  // A model the price table does not know, declared with an output price only: its cost is unknown.
  const openai = config.llm.providers.find((provider) => provider.provider === 'openai')!;
  openai.models = [...(openai.models ?? []), { id: 'house-model', costs: { output: 10 } }];
  backend = await startBackend({
    config,
    // Several accounts sign up here; the invite gate has its own tests (backend-limits.test.ts).
    env: { NAO_ALLOW_SIGNUP: '1' },
    port: 0,
    version: 'test',
    log: (line) => log.push(line),
    now: () => clock,
    loginLimits: { maxAccountFailures: 3, maxAddressFailures: 50, windowMs: 15 * 60_000 },
  });
  const signup = await api('POST', '/api/auth/signup', { body: { email: EMAIL, password: PASSWORD } });
  expect(signup.status).toBe(200);
  token = (signup.body as { token: string }).token;
  cookie = signup.cookies.find((value) => value.startsWith('nao.session_token='))!.split(';')[0]!;
});
afterAll(async () => {
  await backend?.close();
  await llm?.close();
  await project?.cleanup();
});

async function api(
  method: string,
  path: string,
  options: { body?: unknown; token?: string; headers?: Record<string, string>; signal?: AbortSignal } = {},
) {
  const headers: Record<string, string> = { ...options.headers };
  if (options.body !== undefined) headers['content-type'] ??= 'application/json';
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  const response = await fetch(`${backend.url}${path}`, {
    method,
    headers,
    redirect: 'manual',
    ...(options.body === undefined
      ? {}
      : { body: typeof options.body === 'string' ? options.body : JSON.stringify(options.body) }),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {}
  return {
    status: response.status,
    body,
    text,
    headers: response.headers,
    cookies: response.headers.getSetCookie(),
  };
}

/** A form post as a browser on the backend's own page sends it. */
function form(
  path: string,
  fields: Record<string, string>,
  options: { cookie?: string; origin?: string } = {},
) {
  return api('POST', path, {
    body: new URLSearchParams(fields).toString(),
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: options.origin ?? backend.url,
      ...(options.cookie ? { cookie: options.cookie } : {}),
    },
  });
}

function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: codeChallengeOf(verifier) };
}

describe('sessions', () => {
  it('answers /api/health without a session', async () => {
    const health = await api('GET', '/api/health');
    expect(health).toMatchObject({
      status: 200,
      body: { status: 'ok', service: 'nao', project: 'example-shop' },
    });
  });

  it.each([
    ['no token', undefined],
    ['a made-up token', 'not-a-session'],
  ])('refuses the API with %s (401)', async (_label, bearer) => {
    const run = await api('POST', '/api/test/run', {
      body: { prompt: 'q', model: {} },
      ...(bearer ? { token: bearer } : {}),
    });
    expect(run.status).toBe(401);
    expect(run.body).toEqual({ error: expect.stringContaining('Unauthorized') });
    expect((await api('GET', '/api/auth/session', bearer ? { token: bearer } : {})).status).toBe(401);
    expect((await api('GET', '/api/anything-else')).status).toBe(401);
  });

  it('sends pages without a session to the log-in page, keeping where they were going', async () => {
    const home = await api('GET', '/');
    expect(home.status).toBe(303);
    expect(home.headers.get('location')).toBe('/login?next=%2F');
    expect((await api('GET', '/login')).text).toContain('Log in to nao');
  });

  it('signs up through the page with an httpOnly cookie, and home is the chat', async () => {
    const signup = await form('/signup', {
      email: 'grace@example.com',
      password: PASSWORD,
      name: 'Grace',
      next: '/',
    });
    expect(signup.status).toBe(303);
    const session = signup.cookies.find((value) => value.startsWith('nao.session_token='))!;
    expect(session).toMatch(/HttpOnly/i);
    expect(session).toMatch(/SameSite=Lax/i);
    expect(signup.headers.get('location')).toBe('/');
    const home = await api('GET', '/', { headers: { cookie: session.split(';')[0]! } });
    expect(home.status).toBe(303);
    expect(home.headers.get('location')).toBe('/chat/');
  });

  it('refuses a form posted from another site', async () => {
    const forged = await form(
      '/signup',
      { email: 'mallory@example.com', password: PASSWORD },
      { origin: 'http://evil.example' },
    );
    expect(forged.status).toBe(403);
  });

  it('does not answer to a host name it is not served under (DNS rebinding)', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const request = httpRequest(
        `${backend.url}/api/health`,
        { headers: { host: `evil.example:${backend.port}` } },
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      );
      request.on('error', reject);
      request.end();
    });
    expect(status).toBe(421);
  });

  it('the bearer token and the cookie both open the session; logging out revokes it', async () => {
    expect((await api('GET', '/api/auth/session', { token })).body).toMatchObject({ user: { email: EMAIL } });
    expect((await api('GET', '/api/auth/session', { headers: { cookie } })).status).toBe(200);
    const login = await api('POST', '/api/auth/login', { body: { email: EMAIL, password: PASSWORD } });
    const second = (login.body as { token: string }).token;
    expect((await api('POST', '/api/auth/logout', { token: second, body: {} })).body).toEqual({
      success: true,
      revoked: true,
    });
    expect((await api('GET', '/api/auth/session', { token: second })).status).toBe(401);
    expect((await api('GET', '/api/auth/session', { token })).status).toBe(200);
  });
});

describe('failed log-ins', () => {
  it('are rate-limited per account, and the password never reaches the log', async () => {
    await api('POST', '/api/auth/signup', { body: { email: 'lin@example.com', password: PASSWORD } });
    for (let i = 0; i < 3; i++) {
      const wrong = await api('POST', '/api/auth/login', {
        body: { email: 'lin@example.com', password: `${PASSWORD}-wrong` },
      });
      expect(wrong).toMatchObject({ status: 401, body: { error: 'Invalid email or password.' } });
    }
    const locked = await api('POST', '/api/auth/login', {
      body: { email: 'lin@example.com', password: PASSWORD },
    });
    expect(locked.status).toBe(429);
    expect(locked.headers.get('retry-after')).toBe(String(15 * 60));
    expect(locked.body).toMatchObject({
      error: expect.stringContaining('Too many failed log-ins for this account'),
    });
    const page = await form('/login', { email: 'lin@example.com', password: PASSWORD, next: '/' });
    expect(page.status).toBe(429);
    expect(page.text).toContain('Too many failed log-ins');
    clock = new Date(clock.getTime() + 15 * 60_000);
    expect(
      (await api('POST', '/api/auth/login', { body: { email: 'lin@example.com', password: PASSWORD } }))
        .status,
    ).toBe(200);
    expect(log.join('\n')).not.toContain(PASSWORD);
  });

  it('shows the log-in page error without echoing the password', async () => {
    const page = await form('/login', { email: EMAIL, password: 'pw-typo-4471', next: '/' });
    expect(page.status).toBe(401);
    expect(page.text).toContain('Invalid email or password.');
    expect(page.text).not.toContain('pw-typo-4471');
    expect(page.text).toContain(`value="${EMAIL}"`);
  });
});

describe('CLI log-in approval', () => {
  const redirectUri = 'http://127.0.0.1:49152/callback';
  const state = randomBytes(16).toString('base64url');

  function authorizeQuery(challenge: string, uri = redirectUri) {
    return new URLSearchParams({
      state,
      redirect_uri: uri,
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
  }

  async function approve(challenge: string): Promise<URL> {
    const approved = await form(
      '/cli/authorize',
      { state, redirect_uri: redirectUri, code_challenge: challenge, decision: 'approve' },
      { cookie },
    );
    expect(approved.status).toBe(303);
    return new URL(approved.headers.get('location')!);
  }

  it('asks for a log-in first, then shows the approval page', async () => {
    const { challenge } = pkce();
    const path = `/cli/authorize?${authorizeQuery(challenge)}`;
    const anonymous = await api('GET', path);
    expect(anonymous.status).toBe(303);
    expect(anonymous.headers.get('location')).toBe(`/login?next=${encodeURIComponent(path)}`);
    const page = await api('GET', path, { headers: { cookie } });
    expect(page.status).toBe(200);
    expect(page.text).toContain(EMAIL);
    expect(page.text).toContain('Approve');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
  });

  it.each([
    ['a redirect to another machine', { redirect_uri: 'http://evil.example:49152/callback' }],
    ['a short state', { state: 'abc' }],
    ['a bad challenge', { code_challenge: 'x' }],
    ['the plain challenge method', { code_challenge_method: 'plain' }],
  ])('refuses a link with %s', async (_label, change) => {
    const query = authorizeQuery(pkce().challenge);
    for (const [name, value] of Object.entries(change)) query.set(name, value);
    const page = await api('GET', `/cli/authorize?${query}`, { headers: { cookie } });
    expect(page.status).toBe(400);
    expect(page.text).toContain('Invalid CLI log-in link');
  });

  it('approving redirects to the CLI with a one-time code and the same state', async () => {
    const { verifier, challenge } = pkce();
    const location = await approve(challenge);
    expect(`${location.origin}${location.pathname}`).toBe(redirectUri);
    expect(location.searchParams.get('state')).toBe(state);
    const code = location.searchParams.get('code')!;
    const exchange = await api('POST', '/api/cli/token', {
      body: { code, codeVerifier: verifier, redirectUri },
    });
    expect(exchange).toMatchObject({ status: 200, body: { user: { email: EMAIL } } });
    const cliToken = (exchange.body as { token: string }).token;
    expect((await api('GET', '/api/auth/session', { token: cliToken })).body).toMatchObject({
      user: { email: EMAIL },
    });
    const reused = await api('POST', '/api/cli/token', {
      body: { code, codeVerifier: verifier, redirectUri },
    });
    expect(reused).toMatchObject({ status: 400, body: { error: expect.stringContaining('already used') } });
  });

  it('refuses a code once its 5 minutes are over', async () => {
    const { verifier, challenge } = pkce();
    const code = (await approve(challenge)).searchParams.get('code')!;
    clock = new Date(clock.getTime() + 5 * 60_000 + 1);
    const late = await api('POST', '/api/cli/token', { body: { code, codeVerifier: verifier, redirectUri } });
    expect(late).toMatchObject({ status: 400, body: { error: expect.stringContaining('expired') } });
  });

  it('refuses a code with the wrong verifier', async () => {
    const { challenge } = pkce();
    const code = (await approve(challenge)).searchParams.get('code')!;
    const stolen = await api('POST', '/api/cli/token', {
      body: { code, codeVerifier: pkce().verifier, redirectUri },
    });
    expect(stolen).toMatchObject({ status: 400, body: { error: expect.stringContaining('verifier') } });
  });

  it('denying redirects with access_denied and no code', async () => {
    const denied = await form(
      '/cli/authorize',
      { state, redirect_uri: redirectUri, code_challenge: pkce().challenge, decision: 'deny' },
      { cookie },
    );
    const location = new URL(denied.headers.get('location')!);
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('state')).toBe(state);
    expect(location.searchParams.has('code')).toBe(false);
  });
});

describe('POST /api/test/run', () => {
  const total = () => project.tests.find((test) => test.name === 'total_revenue')!;
  const model = { provider: 'openai', modelId: 'gpt-4.1' };

  it('runs the agent, the reference SQL and the extraction', async () => {
    const test = total();
    answers = { [test.prompt]: { sql: test.sql } };
    const run = await api('POST', '/api/test/run', {
      token,
      body: { prompt: test.prompt, model, sql: test.sql },
    });
    expect(run.status).toBe(200);
    expect(run.body).toMatchObject({
      text: expect.any(String),
      toolCalls: [{ toolName: 'execute_sql' }],
      usage: { totalTokens: expect.any(Number) },
      finishReason: 'stop',
      durationMs: expect.any(Number),
      // The original nao's shape (row objects), exactly the fields its strictest client takes...
      verification: {
        data: [{ total_revenue: '202201.54' }],
        expectedData: [{ total_revenue: '202201.54' }],
        expectedColumns: ['total_revenue'],
      },
      // ...with nao's tables in column order and its other fields beside it.
      naoVerification: {
        table: {
          data: { columns: ['total_revenue'], rows: [['202201.54']] },
          expected: { columns: ['total_revenue'], rows: [['202201.54']] },
        },
        usage: { totalTokens: expect.any(Number) },
      },
    });
    expect(Object.keys((run.body as { verification: object }).verification).sort()).toEqual([
      'data',
      'expectedColumns',
      'expectedData',
    ]);
  });

  it.each([
    ['a body that is not JSON', '{"prompt":', 400, 'not valid JSON'],
    ['a missing model', { prompt: 'q' }, 400, 'model is required'],
    [
      'an unknown provider',
      { prompt: 'q', model: { provider: 'nope', modelId: 'x' } },
      400,
      'unknown provider',
    ],
  ])('answers %s with 400 and the field', async (_label, body, status, message) => {
    const run = await api('POST', '/api/test/run', { token, body });
    expect(run.status).toBe(status);
    expect(run.body).toMatchObject({ error: expect.stringContaining(message) });
  });

  it("logs that a model's declared prices are incomplete, once, and still runs it", async () => {
    const test = total();
    answers = { [test.prompt]: { sql: test.sql } };
    const body = {
      prompt: test.prompt,
      model: { provider: 'openai', modelId: 'house-model' },
      sql: test.sql,
    };
    for (let i = 0; i < 2; i++) {
      const run = await api('POST', '/api/test/run', { token, body });
      expect(run.status).toBe(200);
      expect(run.body).toMatchObject({ verification: { expectedColumns: ['total_revenue'] } });
      // No cost: `{}`, as the original nao's CLI reads an unpriced run.
      expect((run.body as { cost: unknown }).cost).toEqual({});
    }
    expect(
      log.filter((line) => line.includes('openai:house-model has prices without input_no_cache')),
    ).toEqual([expect.stringMatching(/^warning: /)]);
  });

  it('refuses a body that is not sent as JSON', async () => {
    const run = await api('POST', '/api/test/run', {
      token,
      body: JSON.stringify({ prompt: 'q', model }),
      headers: { 'content-type': 'text/plain' },
    });
    expect(run.status).toBe(415);
  });

  it('answers a provider failure with 500 and its message, without a stack trace', async () => {
    answers = { 'Why does this fail?': { failWithStatus: 400 } };
    const run = await api('POST', '/api/test/run', { token, body: { prompt: 'Why does this fail?', model } });
    expect(run.status).toBe(500);
    expect(Object.keys(run.body as object)).toEqual(['error']);
    const error = (run.body as { error: string }).error;
    expect(error).toContain('scripted provider failure');
    expect(error).not.toMatch(/\n\s+at /);
  });

  it('aborts the agent run when the client disconnects', async () => {
    const prompt = 'A slow question that will be abandoned?';
    answers = { [prompt]: { sql: 'SELECT 1 AS x', delayMs: 1500 } };
    const before = llm.requests.length;
    const controller = new AbortController();
    const pending = api('POST', '/api/test/run', {
      token,
      body: { prompt, model },
      signal: controller.signal,
    });
    pending.catch(() => {});
    await expect.poll(() => llm.requests.length, { timeout: 10_000 }).toBeGreaterThan(before);
    controller.abort();
    await expect.poll(() => log.some((line) => line.includes('aborted')), { timeout: 10_000 }).toBe(true);
    // The agent stopped: no second turn (after the tool call) and no extraction reached the model.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(llm.requests.length).toBe(before + 1);
  });
});

// Last in the file: it uses up this address's sign-ups, which later tests would need.
describe('the sign-up page', () => {
  it('answers too many sign-ups from one address with 429, the reason and Retry-After', async () => {
    let refused: Awaited<ReturnType<typeof form>> | undefined;
    for (let i = 0; i < 12 && refused === undefined; i++) {
      const page = await form('/signup', { email: `many${i}@example.com`, password: PASSWORD, next: '/' });
      if (page.status === 429) refused = page;
      else expect(page.status).toBe(303);
    }
    expect(refused?.text).toContain('Too many sign-ups from this address');
    expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
