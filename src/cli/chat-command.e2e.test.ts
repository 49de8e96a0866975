import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BackendProcess,
  freePort,
  startBackendProcess,
} from '../../test-support/backend/backend-process.js';
import { createPostgresSchema } from '../../test-support/backend/test-stores.js';
import { launchChromium, missingChromium } from '../../test-support/chromium.js';
import { copyExampleProject, type ExampleCopy, REPO_ROOT } from '../../test-support/cli/example-project.js';
import { latestResults as latestProjectResults, runNao } from '../../test-support/cli/run-cli.js';
import { startTestLlmServer, type TestLlmServer } from '../../test-support/llm-server/index.js';
import { type ScriptedAnswer, scriptedAnalyst } from '../../test-support/llm-server/scripted-analyst.js';
import { missingPostgres, POSTGRES_SERVER, skipWhenMissing } from '../../test-support/local-servers.js';
import type { ResultsFile } from '../results/index.js';

const EMAIL = 'ada@example.com';
const PASSWORD = 'pw-e2e-c0ffee-91';

const skipBrowser = skipWhenMissing({ tests: 'the browser log-in test', missing: missingChromium() });
const skipPostgres = skipWhenMissing({ tests: 'nao chat over PostgreSQL', missing: await missingPostgres() });

let answers: Record<string, ScriptedAnswer> = {};
let llm: TestLlmServer;
let project: ExampleCopy;
let server: BackendProcess;
let home: string;
/** Every output the CLI and the server produced, to check that the password is in none. */
const captured: string[] = [];

beforeAll(async () => {
  llm = await startTestLlmServer({ script: (request) => scriptedAnalyst({ answers })(request) });
  project = await copyExampleProject({ baseUrl: llm.url });
  home = await mkdtemp(path.join(tmpdir(), 'nao-home-'));
  // A second account signs up later (open sign-up, no invite).
  server = await startBackendProcess({ cwd: project.dir, env: { NAO_ALLOW_SIGNUP: '1' } });
  const signup = await api('POST', '/api/auth/signup', { body: { email: EMAIL, password: PASSWORD } });
  expect(signup.status).toBe(200);
});
afterAll(async () => {
  await server?.stop();
  await llm?.close();
  await project?.cleanup();
  if (home) await rm(home, { recursive: true, force: true });
});

async function api(
  method: string,
  urlPath: string,
  options: { body?: unknown; token?: string; base?: string } = {},
) {
  const response = await fetch(`${options.base ?? server.url}${urlPath}`, {
    method,
    headers: {
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(options.token === undefined ? {} : { authorization: `Bearer ${options.token}` }),
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  const text = await response.text();
  captured.push(text);
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {}
  return { status: response.status, body };
}

/** `nao …` in this process, in the project copy, with a private NAO_HOME. */
async function nao(args: string[], env: Record<string, string> = {}) {
  const result = await runNao({ args, cwd: project.dir, env: { NAO_HOME: home, ...env } });
  captured.push(result.stdout, result.stderr);
  return result;
}

function latestResults(): Promise<ResultsFile> {
  return latestProjectResults(project.dir);
}

async function storedToken(naoHome = home): Promise<string | undefined> {
  const file = JSON.parse(await readFile(path.join(naoHome, 'auth.json'), 'utf8')) as {
    backends: Record<string, { token: string }>;
  };
  return file.backends[server.url]?.token;
}

function correctAnswers(): Record<string, ScriptedAnswer> {
  return Object.fromEntries(project.tests.map((test) => [test.prompt, { sql: test.sql }]));
}

const passwordLogins = () =>
  server
    .output()
    .split('\n')
    .filter((line) => line.includes(`logged in ${EMAIL} with a password`)).length;

describe('nao chat', () => {
  it('answers /api/health, and /api/test/run only with a session (401)', async () => {
    expect(await api('GET', '/api/health')).toMatchObject({
      status: 200,
      body: { service: 'nao', project: 'example-shop' },
    });
    const run = await api('POST', '/api/test/run', {
      body: { prompt: 'q', model: { provider: 'openai', modelId: 'gpt-4.1' } },
    });
    expect(run.status).toBe(401);
  });

  it('nao test through the backend gives the same verdicts as --local, and stores the session privately', async () => {
    answers = correctAnswers();
    answers['What is the total revenue from all orders?'] = {
      sql: 'SELECT SUM(amount) AS total_revenue FROM payments',
    };
    answers['What percentage of orders were returned? Give it with two decimals.'] = { failWithStatus: 400 };
    const local = await nao(['test', '--local', '-t', '4']);
    const localResults = (await latestResults()).results;
    const backend = await nao([
      'test',
      '-u',
      EMAIL,
      '--password',
      PASSWORD,
      '--backend',
      server.url,
      '-t',
      '4',
    ]);
    const backendResults = (await latestResults()).results;

    expect(backend.code).toBe(local.code);
    expect(backend.code).toBe(1);
    const verdicts = (results: typeof localResults) =>
      results.map(({ name, model, status, passed, message, tool_call_count, tokens }) => ({
        name,
        model,
        status,
        passed,
        message,
        tool_call_count,
        tokens,
      }));
    expect(verdicts(backendResults)).toEqual(verdicts(localResults));
    expect(backendResults.map((result) => result.status)).toEqual(
      expect.arrayContaining(['passed', 'failed', 'error']),
    );
    const revenue = backendResults.find((result) => result.name === 'total_revenue')!;
    expect(revenue.details.actual_data).toEqual(
      localResults.find((result) => result.name === 'total_revenue')!.details.actual_data,
    );
    expect(revenue.details.diff?.text).toContain('218098.37');

    expect((await stat(path.join(home, 'auth.json'))).mode & 0o777).toBe(0o600);
    expect(await storedToken()).toEqual(expect.any(String));
    captured.push(JSON.stringify(backendResults), await readFile(path.join(home, 'auth.json'), 'utf8'));
  });

  it('a backend that is down gives the clear message and exit 1', async () => {
    const down = `http://127.0.0.1:${await freePort()}`;
    const { code, stdout, stderr } = await nao([
      'test',
      '--backend',
      down,
      '-u',
      EMAIL,
      '--password',
      PASSWORD,
    ]);
    expect(code).toBe(1);
    expect(stderr).toBe(
      `Error: Cannot reach the nao backend at ${down} — start it with \`nao chat\` or use --local\n`,
    );
    expect(stdout).toBe('');
  });

  it('a revoked session triggers exactly one re-login, shared by concurrent runs', async () => {
    answers = correctAnswers();
    const token = (await storedToken())!;
    expect((await api('POST', '/api/auth/logout', { token, body: {} })).body).toMatchObject({
      revoked: true,
    });
    const before = passwordLogins();
    const { code, stdout } = await nao([
      'test',
      ...['-u', EMAIL, '--password', PASSWORD, '--backend', server.url],
      ...['-t', '4', '-s', 'total_revenue,return_rate,orders_by_status,sales_by_category'],
    ]);
    expect(stdout).toContain('All 4 test(s) passed');
    expect(code).toBe(0);
    expect(passwordLogins()).toBe(before + 1);
    const renewed = await storedToken();
    expect(renewed).not.toBe(token);
    expect((await api('GET', '/api/auth/session', { token: renewed! })).status).toBe(200);
  });

  it('nao logout revokes the session on the server and deletes the entry', async () => {
    const token = (await storedToken())!;
    const { code, stdout } = await nao(['logout', '--backend', server.url]);
    expect(code).toBe(0);
    expect(stdout).toContain(`Logged out of ${server.url}`);
    expect((await api('GET', '/api/auth/session', { token })).status).toBe(401);
    expect(await storedToken()).toBeUndefined();
    expect((await nao(['logout', '--backend', server.url])).stdout).toContain('Not logged in');
  });

  it('nao login with no browser prints the link and asks for the email and password', async () => {
    const promptHome = await mkdtemp(path.join(tmpdir(), 'nao-prompt-home-'));
    try {
      const child = spawn(
        process.execPath,
        [path.join(REPO_ROOT, 'bin', 'nao.js'), 'login', '--backend', server.url],
        {
          cwd: project.dir,
          env: { PATH: process.env.PATH ?? '', NAO_HOME: promptHome, BROWSER: 'none' },
          stdio: ['pipe', 'pipe', 'pipe'],
        },
      );
      let output = '';
      child.stdout.on('data', (chunk) => {
        output += chunk;
      });
      child.stderr.on('data', (chunk) => {
        output += chunk;
      });
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      await expect.poll(() => output, { timeout: 15_000 }).toContain('Email: ');
      child.stdin.write(`${EMAIL}\n${PASSWORD}\n`);
      expect(await exited).toBe(0);
      captured.push(output);
      expect(output).toContain(`${server.url}/cli/authorize?state=`);
      expect(output).toContain('No browser could be opened');
      expect(output).toContain(`Logged in to ${server.url} as ${EMAIL}`);
      expect(await storedToken(promptHome)).toEqual(expect.any(String));
    } finally {
      await rm(promptHome, { recursive: true, force: true });
    }
  });

  it('rate-limits wrong passwords per account', async () => {
    await api('POST', '/api/auth/signup', { body: { email: 'lin@example.com', password: PASSWORD } });
    for (let i = 0; i < 5; i++) {
      const wrong = await nao(['login', '--backend', server.url], {
        NAO_USERNAME: 'lin@example.com',
        NAO_PASSWORD: `${PASSWORD}-wrong`,
      });
      expect(wrong.code).toBe(1);
      expect(wrong.stderr).toContain('Invalid email or password.');
    }
    const locked = await nao([
      'login',
      '--backend',
      server.url,
      '-u',
      'lin@example.com',
      '--password',
      PASSWORD,
    ]);
    expect(locked.code).toBe(1);
    expect(locked.stderr).toMatch(/Too many failed log-ins for this account\. Try again in 15 minutes\./);
  });
});

describe.skipIf(skipBrowser)('nao login in the browser', () => {
  let browser: Browser;
  let browserHome: string;
  let opener: string;

  beforeAll(async () => {
    browser = await launchChromium();
    browserHome = await mkdtemp(path.join(tmpdir(), 'nao-browser-home-'));
    // $BROWSER: records the approval link for the test to open in Chromium.
    opener = path.join(browserHome, 'open-url.sh');
    await writeFile(opener, '#!/bin/sh\nprintf "%s" "$1" > "$(dirname "$0")/approval-url.txt"\n');
    await chmod(opener, 0o755);
  });
  afterAll(async () => {
    await browser?.close();
    if (browserHome) await rm(browserHome, { recursive: true, force: true });
  });

  it('approving stores a private token, refuses a wrong state and a reused code, and nao test needs no prompt', async () => {
    const env = { NAO_HOME: browserHome, BROWSER: opener };
    const login = nao(['login', '--backend', server.url], env);
    const urlFile = path.join(browserHome, 'approval-url.txt');
    await expect.poll(() => existsSync(urlFile), { timeout: 10_000 }).toBe(true);
    const approvalUrl = new URL(await readFile(urlFile, 'utf8'));
    expect(`${approvalUrl.origin}${approvalUrl.pathname}`).toBe(`${server.url}/cli/authorize`);
    const callback = approvalUrl.searchParams.get('redirect_uri')!;

    // Someone else's answer (another state) reaching the CLI is refused; the log-in goes on.
    const forged = await fetch(`${callback}?code=planted&state=not-the-state`);
    expect(forged.status).toBe(400);
    expect(await forged.text()).toContain('does not match');

    const page = await browser.newPage();
    await page.goto(approvalUrl.toString());
    expect(page.url()).toContain('/login?next=');
    await page.fill('#email', EMAIL);
    await page.fill('#password', PASSWORD);
    await page.click('button[type=submit]');
    await page.waitForURL((url) => url.pathname === '/cli/authorize');
    expect(await page.textContent('main')).toContain(EMAIL);
    await page.click('button[value=approve]');
    await page.waitForURL((url) => url.toString().startsWith(callback));
    expect(await page.textContent('body')).toContain(`logged in as ${EMAIL}`);
    const code = new URL(page.url()).searchParams.get('code')!;
    await page.close();

    const done = await login;
    expect(done.code).toBe(0);
    expect(done.stdout).toContain(`Logged in to ${server.url} as ${EMAIL}`);
    expect(done.stdout).toContain('Refused a log-in callback whose state does not match');
    const authFile = path.join(browserHome, 'auth.json');
    expect((await stat(authFile)).mode & 0o777).toBe(0o600);
    const token = (await storedToken(browserHome))!;
    expect((await api('GET', '/api/auth/session', { token })).body).toMatchObject({ user: { email: EMAIL } });

    const reused = await api('POST', '/api/cli/token', {
      body: { code, codeVerifier: 'v'.repeat(43), redirectUri: callback },
    });
    expect(reused).toMatchObject({ status: 400, body: { error: expect.stringContaining('already used') } });

    answers = correctAnswers();
    const run = await nao(['test', '--backend', server.url, '-s', 'total_revenue'], env);
    expect(run.stderr).not.toContain('Opening your browser');
    expect(run.code).toBe(0);
    expect(await storedToken(browserHome)).toBe(token);
    captured.push(await readFile(authFile, 'utf8'));
  });
});

describe.skipIf(skipPostgres)('nao chat over PostgreSQL (NAO_DATABASE_URL)', () => {
  it('keeps accounts in its own schema and runs tests through it', async () => {
    const schema = await createPostgresSchema();
    let pgServer: BackendProcess | undefined;
    const pgHome = await mkdtemp(path.join(tmpdir(), 'nao-pg-home-'));
    try {
      pgServer = await startBackendProcess({ cwd: project.dir, env: { NAO_DATABASE_URL: schema.url } });
      expect(pgServer.output()).toContain('Accounts: PostgreSQL');
      expect(
        (
          await api('POST', '/api/auth/signup', {
            base: pgServer.url,
            body: { email: 'pg@example.com', password: PASSWORD },
          })
        ).status,
      ).toBe(200);
      answers = correctAnswers();
      const run = await nao(['test', '--backend', pgServer.url, '-s', 'total_revenue'], {
        NAO_HOME: pgHome,
        NAO_USERNAME: 'pg@example.com',
        NAO_PASSWORD: PASSWORD,
      });
      expect(run.code).toBe(0);
      const client = new pg.Client(POSTGRES_SERVER);
      await client.connect();
      try {
        const users = await client.query(`SELECT email FROM ${schema.schema}.nao_user`);
        expect(users.rows).toEqual([{ email: 'pg@example.com' }]);
        const sessions = await client.query(`SELECT count(*)::int AS n FROM ${schema.schema}.nao_session`);
        expect(sessions.rows[0].n).toBeGreaterThanOrEqual(1);
      } finally {
        await client.end();
      }
      captured.push(pgServer.output());
      expect(await pgServer.stop()).toBe(0);
    } finally {
      await pgServer?.stop();
      await schema.drop();
      await rm(pgHome, { recursive: true, force: true });
    }
  });
});

describe('at the end', () => {
  it('the password appears in no output, result, log or stored file', async () => {
    captured.push(server.output());
    for (const text of captured) expect(text).not.toContain(PASSWORD);
  });

  it('Ctrl-C stops nao chat cleanly', async () => {
    expect(await server.stop()).toBe(0);
    expect(server.output()).toContain('nao chat stopped.');
  });
});
