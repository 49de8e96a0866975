import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyExampleProject, type ExampleCopy } from '../../test-support/cli/example-project.js';
import { startTestLlmServer, type TestLlmServer } from '../../test-support/llm-server/index.js';
import { scriptedAnalyst } from '../../test-support/llm-server/scripted-analyst.js';
import {
  originalAuthHeaders,
  originalBrowserLogin,
  originalLogout,
} from '../../test-support/original-nao/cli-login-client.js';
import { cliLoginFlowOf } from '../client/backend-api.js';
import { browserLogin } from '../client/browser-login.js';
import { loadConfig } from '../config/index.js';
import { CLI_CODE_FAILURE_LIMITS } from './app.js';
import { type RunningBackend, startBackend } from './backend.js';
import { ORIGINAL_INVALID_CODE } from './original-cli-login.js';

/**
 * The original nao's CLI browser log-in (its model: test-support/original-nao/cli-login-client.ts)
 * against the real `nao chat` server. The browser is a scripted user agent with a cookie jar that
 * follows the pages as a person would: log in when asked, then Approve or Deny.
 */
const HTTP = path.resolve(import.meta.dirname, '../../test-support/original-nao/http');
const EMAIL = 'ada@example.com';
const PASSWORD = 'pw-original-login-7d3e';

let llm: TestLlmServer;
let project: ExampleCopy;
let backend: RunningBackend;
let recorded: { path: string; body: { prompt: string } };
const log: string[] = [];

beforeAll(async () => {
  recorded = JSON.parse(await readFile(path.join(HTTP, 'cli-test-run-no-sql.request.json'), 'utf8'));
  const answers = { [recorded.body.prompt]: { text: 'About 4% churned.' } };
  llm = await startTestLlmServer({ script: (request) => scriptedAnalyst({ answers })(request) });
  project = await copyExampleProject({ baseUrl: llm.url });
  backend = await startBackend({
    config: await loadConfig({ projectDir: project.dir, env: {} }),
    env: {},
    port: 0,
    version: 'test',
    log: (line) => log.push(line),
  });
  const signUp = await fetch(`${backend.url}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: EMAIL, password: PASSWORD, name: 'Ada' }),
  });
  expect(signUp.status).toBe(200);
});
afterAll(async () => {
  await backend?.close();
  await llm?.close();
  await project?.cleanup();
});

/** A browser: one cookie jar, redirects followed by hand so each hop can be checked. */
function scriptedBrowser() {
  const jar = new Map<string, string>();
  const visited: string[] = [];
  async function go(url: string, init: { method?: string; form?: Record<string, string> } = {}) {
    visited.push(`${init.method ?? 'GET'} ${url}`);
    const headers: Record<string, string> = {};
    if (jar.size > 0) headers.cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
    if (init.form !== undefined) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      headers.origin = new URL(url).origin;
    }
    const response = await fetch(url, {
      method: init.method ?? 'GET',
      headers,
      redirect: 'manual',
      ...(init.form === undefined ? {} : { body: new URLSearchParams(init.form).toString() }),
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const equals = pair!.indexOf('=');
      jar.set(pair!.slice(0, equals).trim(), pair!.slice(equals + 1).trim());
    }
    const location = response.headers.get('location');
    return {
      status: response.status,
      location: location === null ? null : new URL(location, url).toString(),
      text: await response.text(),
    };
  }
  return { go, visited, jar };
}

/** What a person does with the link the CLI opened: log in if asked, then press a button. */
async function person(loginUrl: string, decision: 'approve' | 'deny') {
  const browser = scriptedBrowser();
  let page = await browser.go(loginUrl);
  if (page.status === 303 && new URL(page.location!).pathname === '/login') {
    const next = new URL(page.location!).searchParams.get('next')!;
    const loggedIn = await browser.go(`${backend.url}/login`, {
      method: 'POST',
      form: { email: EMAIL, password: PASSWORD, next },
    });
    expect(loggedIn.status).toBe(303);
    // Back to the very link the CLI opened.
    expect(loggedIn.location).toBe(loginUrl);
    page = await browser.go(loggedIn.location!);
  }
  expect(page.status).toBe(200);
  expect(page.text).toContain(EMAIL);
  const hidden = (name: string) => page.text.match(new RegExp(`name="${name}" value="([^"]*)"`))?.[1] ?? '';
  const answer = await browser.go(`${backend.url}/cli-login`, {
    method: 'POST',
    form: { port: hidden('port'), state: hidden('state'), decision },
  });
  expect(answer.status).toBe(303);
  // The browser follows the redirect to the CLI's loopback callback.
  const callback = answer.location!;
  await browser.go(callback);
  return { callback, browser };
}

describe("the original nao's CLI logs in to nao chat through the browser", () => {
  it('approves after logging in on the page; its token runs a test as a bearer token until its nao logout', async () => {
    let callback = '';
    const run = originalBrowserLogin({
      backendUrl: backend.url,
      openBrowser: async (url) => {
        ({ callback } = await person(url, 'approve'));
      },
      timeoutMs: 20_000,
    });
    const outcome = await run.outcome;
    expect(outcome).toMatchObject({ success: true });
    if (!outcome.success) return;

    // The redirect went to the CLI's own callback, on its port, with its state echoed.
    const opened = new URL(await run.loginUrl);
    const port = opened.searchParams.get('port');
    const sent = new URL(callback);
    expect(`${sent.origin}${sent.pathname}`).toBe(`http://127.0.0.1:${port}/callback`);
    expect(sent.searchParams.get('state')).toBe(opened.searchParams.get('state'));
    expect(sent.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(run.callbacks).toEqual([{ path: expect.stringMatching(/^\/callback\?/), status: 200 }]);

    // apply_stored_auth: later calls carry the token as a bearer token, and nothing else.
    const reply = await fetch(`${backend.url}${recorded.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...originalAuthHeaders(outcome.token) },
      body: JSON.stringify(recorded.body),
    });
    expect(reply.status, await reply.clone().text()).toBe(200);
    expect(((await reply.json()) as { text: string }).text).toContain('churned');

    // Its `nao logout` ends the session here too: better-auth's sign-out, bearer token, no body.
    expect(await originalLogout({ backendUrl: backend.url, token: outcome.token })).toBe(200);
    const after = await fetch(`${backend.url}/api/auth/session`, {
      headers: originalAuthHeaders(outcome.token),
    });
    expect(after.status).toBe(401);
  });

  it('takes a code once: the same code again gets the original backend’s 400', async () => {
    let code = '';
    const run = originalBrowserLogin({
      backendUrl: backend.url,
      openBrowser: async (url) => {
        const { callback } = await person(url, 'approve');
        code = new URL(callback).searchParams.get('code')!;
      },
      timeoutMs: 20_000,
    });
    expect(await run.outcome).toMatchObject({ success: true });
    const again = await fetch(`${backend.url}/api/cli-auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code }),
    });
    expect(again.status).toBe(400);
    expect(await again.json()).toEqual({ error: ORIGINAL_INVALID_CODE });
  });

  it('denied: the callback gets error=access_denied with the state, and the CLI says so', async () => {
    let callback = '';
    const run = originalBrowserLogin({
      backendUrl: backend.url,
      openBrowser: async (url) => {
        ({ callback } = await person(url, 'deny'));
      },
      timeoutMs: 20_000,
    });
    expect(await run.outcome).toEqual({
      success: false,
      error: 'denied',
      printed: 'Login was denied in the browser.',
    });
    const sent = new URL(callback);
    expect(sent.searchParams.get('error')).toBe('access_denied');
    expect(sent.searchParams.get('code')).toBeNull();
    expect(sent.searchParams.get('state')).toBe(new URL(await run.loginUrl).searchParams.get('state'));
  });

  it("is offered nao's own flow to nao's CLI, which serves its PKCE log-in beside this one", async () => {
    expect(await cliLoginFlowOf({ backendUrl: backend.url })).toBe('nao');
  });

  it("nao's own client, told to use the original's flow, logs in through it here too", async () => {
    const login = await browserLogin({
      backendUrl: backend.url,
      flow: 'original',
      out: new PassThrough(),
      timeoutMs: 20_000,
      openBrowser: async (url) => {
        expect(new URL(url).pathname).toBe('/cli-login');
        setImmediate(() => person(url, 'approve').catch(() => {}));
        return true;
      },
    });
    // The account, which the original's answer does not name, from better-auth's get-session.
    expect(login).toMatchObject({ token: expect.any(String), email: EMAIL });
    const session = await fetch(`${backend.url}/api/auth/session`, {
      headers: originalAuthHeaders(login.token),
    });
    expect(((await session.json()) as { user: { email: string } }).user.email).toBe(EMAIL);
  });

  it.each([
    ['no port', '?state=abc'],
    ['a port of 0', '?port=0&state=abc'],
    ['a port past 65535', '?port=70000&state=abc'],
    ['a host instead of a port', '?port=evil.example&state=abc'],
    ['a URL instead of a port', `?port=${encodeURIComponent('https://evil.example/x')}&state=abc`],
    ['no state', '?port=5000'],
  ])('refuses a link with %s, without redirecting anywhere', async (_label, query) => {
    const browser = scriptedBrowser();
    const page = await browser.go(`${backend.url}/cli-login${query}`);
    expect(page.status).toBe(400);
    expect(page.location).toBeNull();
    expect(page.text).toContain('Invalid CLI log-in link');
  });

  it('refuses an approval form sent from another site', async () => {
    const login = await fetch(`${backend.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
    });
    const { token } = (await login.json()) as { token: string };
    const forged = await fetch(`${backend.url}/cli-login`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: 'https://evil.example',
        authorization: `Bearer ${token}`,
      },
      body: new URLSearchParams({ port: '5000', state: 'abc', decision: 'approve' }).toString(),
    });
    expect(forged.status).toBe(403);
    expect(forged.headers.get('location')).toBeNull();
  });

  // Last: it fills this address's allowance of failed redemptions.
  it('limits failed code redemptions per address like the other log-in routes', async () => {
    const post = (code: string) =>
      fetch(`${backend.url}/api/cli-auth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ code }),
      });
    // The earlier test spent one failure (the reused code).
    for (let attempt = 2; attempt <= CLI_CODE_FAILURE_LIMITS.max; attempt++) {
      expect((await post(`made-up-${attempt}`)).status).toBe(400);
    }
    const refused = await post('made-up-last');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // nao's own token route shares the allowance.
    const ours = await fetch(`${backend.url}/api/cli/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: 'x', codeVerifier: 'y', redirectUri: 'http://127.0.0.1:1/callback' }),
    });
    expect(ours.status).toBe(429);
  });
});
