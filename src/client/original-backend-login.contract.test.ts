import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runNao } from '../../test-support/cli/run-cli.js';
import {
  type OriginalBackend,
  originalCliLoginPage,
  startOriginalBackend,
} from '../../test-support/original-nao/backend-cli-login.js';
import { cliLoginFlowOf } from './backend-api.js';
import { browserLogin } from './browser-login.js';
import { createCredentialStore } from './credential-store.js';

/**
 * nao's real `nao login` code against a stand-in for the original nao's backend and web app
 * (test-support/original-nao/backend-cli-login.ts), which serves only the original's browser
 * log-in: the flow is detected, its page approved as the original's page does it, and the
 * session stored works for `nao test` and `nao logout` afterwards.
 */
const PROJECT = path.resolve(
  import.meta.dirname,
  '../../test-support/nao-projects/getnao--nao--example--172c70d',
);
const EMAIL = 'ada@example.com';

let backend: OriginalBackend;
let home: string;
let project: string;

beforeAll(async () => {
  backend = await startOriginalBackend({ users: [EMAIL] });
  home = await mkdtemp(path.join(tmpdir(), 'nao-home-'));
  project = await mkdtemp(path.join(tmpdir(), 'nao-original-project-'));
  await cp(PROJECT, project, { recursive: true });
});
afterAll(async () => {
  await backend?.close();
  await rm(home, { recursive: true, force: true });
  await rm(project, { recursive: true, force: true });
});

/** `nao login`'s browser flow, the person at the browser acting on the original's page. */
async function logInThroughPage(
  decision: 'authorize' | 'deny',
  beforeCallback?: () => void,
): Promise<{
  login: Promise<Awaited<ReturnType<typeof browserLogin>>>;
  opened: string[];
  out: () => string;
}> {
  const opened: string[] = [];
  const out = new PassThrough();
  let printed = '';
  out.on('data', (chunk) => {
    printed += chunk;
  });
  const login = browserLogin({
    backendUrl: backend.url,
    out,
    timeoutMs: 20_000,
    openBrowser: async (url) => {
      opened.push(url);
      // The person's browser acts once the CLI is waiting (webbrowser.open returns at once).
      setImmediate(() => {
        originalCliLoginPage({
          loginUrl: url,
          cookie: backend.browserCookie(EMAIL),
          decision,
          ...(beforeCallback === undefined ? {} : { beforeCallback }),
        }).catch(() => {});
      });
      return true;
    },
  });
  return { login, opened, out: () => printed };
}

describe("nao login against the original nao's backend", () => {
  it('detects the original flow: its backend answers /api/health with Fastify’s 404', async () => {
    expect(await cliLoginFlowOf({ backendUrl: backend.url })).toBe('original');
  });

  it('logs in through its /cli-login page, and the stored session runs nao test and nao logout', async () => {
    const { login, opened } = await logInThroughPage('authorize');
    const stored = await login;
    // The link is the original's: port and state only, no PKCE, no redirect URI.
    const link = new URL(opened[0]!);
    expect(`${link.origin}${link.pathname}`).toBe(`${backend.url}/cli-login`);
    expect([...link.searchParams.keys()].sort()).toEqual(['port', 'state']);
    expect(stored).toMatchObject({ email: EMAIL, token: expect.any(String) });
    expect(stored.cookie).toBeUndefined();
    // The exchange sent exactly the original CLI's body.
    const exchange = backend.requests.find((request) => request.path === '/api/cli-auth/token');
    expect(exchange?.body).toEqual({ code: expect.any(String) });

    await createCredentialStore({ env: { NAO_HOME: home } }).save(backend.url, stored);
    const env = { NAO_HOME: home, BROWSER: 'none' };
    const before = backend.requests.length;
    const run = await runNao({ args: ['test', '--backend', backend.url], cwd: project, env });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const runs = backend.requests.slice(before).filter((request) => request.path === '/api/test/run');
    expect(runs).toHaveLength(2);
    for (const request of runs) expect(request.authorization).toBe(`Bearer ${stored.token}`);
    // No second log-in: the stored session was taken as it was.
    expect(backend.requests.slice(before).some((request) => request.path.startsWith('/api/cli-auth'))).toBe(
      false,
    );

    const logout = await runNao({ args: ['logout', '--backend', backend.url], cwd: project, env });
    expect(logout.code, logout.stdout + logout.stderr).toBe(0);
    expect(logout.stdout).toContain(`Logged out of ${backend.url} (${EMAIL})`);
    const session = await fetch(`${backend.url}/api/auth/get-session`, {
      headers: { authorization: `Bearer ${stored.token}` },
    });
    expect(await session.json()).toBeNull();
  });

  it('says the log-in was denied when the person presses Deny', async () => {
    const { login } = await logInThroughPage('deny');
    await expect(login).rejects.toMatchObject({ code: 'LOGIN_DENIED' });
  });

  it('fails with the backend’s message when the code expired before it was exchanged', async () => {
    const { login } = await logInThroughPage('authorize', () => backend.advance(5 * 60_000 + 1));
    await expect(login).rejects.toMatchObject({
      code: 'LOGIN_FAILED',
      message: expect.stringContaining('Invalid or expired authorization code'),
    });
  });
});
