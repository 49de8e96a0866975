import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { latestResults, runNao } from '../../test-support/cli/run-cli.js';
import { ORIGINAL_BODY_SCHEMAS, testRunBody } from '../../test-support/original-nao/backend-schemas.js';

/**
 * nao's CLI against a stand-in for the original nao's backend, built from its recorded contract
 * (test-support/original-nao/http) and its routes' body schemas (test-support/original-nao/backend-schemas.ts):
 * Fastify's 404s (no /api/health, no /api/auth/login),
 * better-auth's cookie sessions without the bearer plugin, and the answers it sends. The project is a real one written for the original nao.
 */
const HTTP = path.resolve(import.meta.dirname, '../../test-support/original-nao/http');
const PROJECT = path.resolve(
  import.meta.dirname,
  '../../test-support/nao-projects/getnao--nao--example--172c70d',
);
const fixture = async (name: string) => JSON.parse(await readFile(path.join(HTTP, name), 'utf8'));

const SESSION_COOKIE = 'better-auth.session_token=tok-8f2a.sig-19bc';
const EMAIL = 'ada@example.com';
const PASSWORD = 'pw-original-backend-2c4d';

const seen: { path: string; cookie: string | undefined; authorization: string | undefined; body: unknown }[] =
  [];
let server: Server;
let url: string;
let home: string;
let project: string;

function send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  response.end(JSON.stringify(body));
}

function notFound(request: IncomingMessage, response: ServerResponse) {
  send(response, 404, {
    message: `Route ${request.method}:${request.url} not found`,
    error: 'Not Found',
    statusCode: 404,
  });
}

beforeAll(async () => {
  const answer = await fixture('backend-test-run.response.json');
  const answerWithoutSql = await fixture('backend-test-run-no-sql.response.json');
  server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const body = text === '' ? undefined : JSON.parse(text);
    seen.push({
      path: request.url ?? '',
      cookie: request.headers.cookie,
      authorization: request.headers.authorization,
      body,
    });
    if (request.method === 'POST' && request.url === '/api/auth/sign-in/email') {
      if (body?.email !== EMAIL || body?.password !== PASSWORD) {
        return send(response, 401, {
          code: 'INVALID_EMAIL_OR_PASSWORD',
          message: 'Invalid email or password',
        });
      }
      return send(
        response,
        200,
        { redirect: false, token: 'tok-8f2a', user: { id: 'u1', email: EMAIL, name: 'Ada' } },
        { 'set-cookie': `${SESSION_COOKIE}; Max-Age=604800; Path=/; HttpOnly; SameSite=Lax` },
      );
    }
    if (request.method === 'POST' && request.url === '/api/test/run') {
      // authMiddleware: auth.api.getSession({ headers }) knows the session cookie only.
      if (!(request.headers.cookie ?? '').includes(SESSION_COOKIE))
        return send(response, 401, { error: 'Unauthorized' });
      const parsed = testRunBody.safeParse(body);
      if (!parsed.success) {
        return send(response, 400, { statusCode: 400, error: 'Bad Request', message: parsed.error.message });
      }
      return send(response, 200, (parsed.data as { sql: string }).sql ? answer : answerWithoutSql);
    }
    return notFound(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  home = await mkdtemp(path.join(tmpdir(), 'nao-home-'));
  project = await mkdtemp(path.join(tmpdir(), 'nao-original-project-'));
  await cp(PROJECT, project, { recursive: true });
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await rm(home, { recursive: true, force: true });
  await rm(project, { recursive: true, force: true });
});

describe("nao test against the original nao's backend", () => {
  it('logs in, runs every test with a body its route accepts, and reads its answers', async () => {
    const { code, stdout, stderr } = await runNao({
      args: ['test', '--backend', url, '-u', EMAIL, '--password', PASSWORD],
      cwd: project,
      env: { NAO_HOME: home },
    });
    expect(stderr).not.toContain('Error');
    expect(code, stdout + stderr).toBe(0);

    const runs = seen.filter((request) => request.path === '/api/test/run');
    expect(runs).toHaveLength(2);
    // Every run carried the session cookie of the log-in, and every body passed the route's schema.
    for (const run of runs) expect(run.cookie).toContain(SESSION_COOKIE);
    // `sql` is a string for both tests: "" for the one without SQL (tests/churn_last_month.yml has `sql:`).
    expect(runs.map((run) => (run.body as { sql: unknown }).sql).sort()).toEqual([
      '',
      'SELECT\n    SUM(amount) AS total_revenue\nFROM orders',
    ]);
    expect(seen.some((request) => request.path === '/api/health')).toBe(true);
    // Every body the CLI sent passes the original's schema of its route; an absent optional
    // field is left out (the tests have no `database:`, so no `databaseId`), never null.
    const bodies = seen.filter((request) => ORIGINAL_BODY_SCHEMAS[request.path] !== undefined);
    expect(bodies.length).toBeGreaterThanOrEqual(3);
    for (const request of bodies) {
      const parsed = ORIGINAL_BODY_SCHEMAS[request.path]?.safeParse(request.body);
      expect(parsed?.success, `${request.path}: ${JSON.stringify(request.body)}`).toBe(true);
    }
    for (const run of runs) expect(run.body).not.toHaveProperty('databaseId');

    const results = await latestResults(project);
    const byName = Object.fromEntries(results.results.map((result) => [result.name, result]));
    expect(byName.total_revenue).toMatchObject({ status: 'passed', tokens: 2520, cost: 0.00576 });
    expect(byName.total_revenue?.details.actual_data).toEqual([{ total_revenue: 1672 }]);
    expect(byName.churn_last_month).toMatchObject({ status: 'unverified' });
  });

  it('says the log-in failed, with its message, on a wrong password', async () => {
    const { code, stderr } = await runNao({
      args: ['test', '--backend', url, '-u', EMAIL, '--password', 'wrong'],
      cwd: project,
      env: { NAO_HOME: await mkdtemp(path.join(tmpdir(), 'nao-home-')) },
    });
    expect(code).not.toBe(0);
    expect(stderr).toContain('Invalid email or password');
  });
});
