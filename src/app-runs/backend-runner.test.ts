import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../test-support/backend/backend-process.js';
import { copyExampleProject, type ExampleCopy } from '../../test-support/cli/example-project.js';
import { startTestLlmServer, type TestLlmServer } from '../../test-support/llm-server/index.js';
import { type ScriptedAnswer, scriptedAnalyst } from '../../test-support/llm-server/scripted-analyst.js';
import { type RunningBackend, startBackend } from '../backend/backend.js';
import { createCredentialStore, loginWithPassword } from '../client/index.js';
import { loadConfig } from '../config/index.js';
import { readResultsFile } from '../results/index.js';
import type { AppRunJob } from './app-run-types.js';
import { createBackendRunner } from './backend-runner.js';

const EMAIL = 'ada@example.com';
const PASSWORD = 'pw-backend-runner-3e9d';

let answers: Record<string, ScriptedAnswer> = {};
let llm: TestLlmServer;
let project: ExampleCopy;
let backend: RunningBackend;
let home: string;
const log: string[] = [];

const runner = (options: { backendUrl?: string; env?: Record<string, string> } = {}) =>
  createBackendRunner({
    projectDir: project.dir,
    backendUrl: options.backendUrl ?? backend.url,
    env: { NAO_HOME: home, ...options.env },
    naoVersion: 'test',
    defaultBackend: false,
  });

async function finished(source: ReturnType<typeof runner>, id: string): Promise<AppRunJob> {
  for (let waited = 0; waited < 30_000; waited += 50) {
    const job = source.job(id);
    if (job !== null && job.state !== 'running') return job;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`job ${id} still running`);
}

beforeAll(async () => {
  llm = await startTestLlmServer({ script: (request) => scriptedAnalyst({ answers })(request) });
  project = await copyExampleProject({ baseUrl: llm.url });
  home = await mkdtemp(path.join(tmpdir(), 'nao-runner-home-'));
  const config = await loadConfig({ projectDir: project.dir, env: {} });
  backend = await startBackend({ config, env: {}, port: 0, version: 'test', log: (line) => log.push(line) });
  const signup = await fetch(`${backend.url}/api/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
  });
  expect(signup.status).toBe(200);
});
afterAll(async () => {
  await backend?.close();
  await llm?.close();
  await project?.cleanup();
  if (home) await rm(home, { recursive: true, force: true });
});

describe('the viewer runner, through the backend', () => {
  it('says to start the backend when none answers', async () => {
    const nowhere = `http://127.0.0.1:${await freePort()}`;
    expect(await runner({ backendUrl: nowhere }).status()).toEqual({
      state: 'unavailable',
      reason: 'no-backend',
      backendUrl: nowhere,
      message: `No nao backend answers at ${nowhere}. Start it in ${project.dir}, then check again:`,
      command: 'nao chat',
    });
  });

  it('refuses the backend of another project', async () => {
    const other = await copyExampleProject({ baseUrl: llm.url });
    try {
      const file = path.join(other.dir, 'nao_config.yaml');
      await writeFile(
        file,
        (await readFile(file, 'utf8')).replace('project_name: example-shop', 'project_name: other'),
      );
      const status = await createBackendRunner({
        projectDir: other.dir,
        backendUrl: backend.url,
        env: { NAO_HOME: home },
        naoVersion: 'test',
        defaultBackend: false,
      }).status();
      expect(status).toMatchObject({
        state: 'unavailable',
        reason: 'other-project',
        message: expect.stringContaining('serves project "example-shop", not "other"'),
      });
    } finally {
      await other.cleanup();
    }
  });

  it('asks for nao login without a session, and logs in with NAO_USERNAME / NAO_PASSWORD when set', async () => {
    expect(await runner().status()).toMatchObject({
      state: 'unavailable',
      reason: 'not-logged-in',
      command: `nao login --backend ${backend.url}`,
    });
    const status = await runner({ env: { NAO_USERNAME: EMAIL, NAO_PASSWORD: PASSWORD } }).status();
    expect(status).toMatchObject({
      state: 'ready',
      user: EMAIL,
      models: expect.arrayContaining(['openai:gpt-4.1']),
    });
    // The session went into the CLI's store, where the next status finds it.
    expect(await createCredentialStore({ env: { NAO_HOME: home } }).get(backend.url)).toMatchObject({
      email: EMAIL,
    });
    expect(await runner().status()).toMatchObject({ state: 'ready' });
  });

  it('asks again when the stored session was revoked', async () => {
    const store = createCredentialStore({ env: { NAO_HOME: home } });
    const login = await loginWithPassword({ backendUrl: backend.url, email: EMAIL, password: PASSWORD });
    if (!login.success) throw new Error(login.error);
    await store.save(backend.url, { ...login.login, token: 'revoked-token' });
    expect(await runner().status()).toMatchObject({ reason: 'not-logged-in' });
    await store.save(backend.url, login.login);
  });

  it('runs through POST /api/test/run, judges here and saves the results file', async () => {
    answers = { 'What is the total revenue from all orders?': { sql: 'SELECT 1 AS total_revenue' } };
    const source = runner();
    const started = await source.start({ tests: ['total_revenue'], models: ['openai:gpt-4.1-mini'] });
    if (!started.success) throw new Error(started.error);
    const job = await finished(source, started.job.id);
    expect(job.runs).toEqual([
      expect.objectContaining({ name: 'total_revenue', model: 'openai:gpt-4.1-mini', status: 'failed' }),
    ]);
    const saved = await readResultsFile(path.join(project.dir, job.path!));
    expect(saved).toMatchObject({
      started_from: 'viewer',
      command: 'nao test -s total_revenue -m openai:gpt-4.1-mini',
      summary: { failed: 1 },
    });
    expect(saved.results[0]!.message).toContain('values differ');
    expect(log.some((line) => line.startsWith(`test run for ${EMAIL}: openai:gpt-4.1-mini`))).toBe(true);
  });

  it('refuses a model the backend does not offer and a test that is gone', async () => {
    expect(await runner().start({ tests: ['total_revenue'], models: ['openai:gpt-9'] })).toMatchObject({
      success: false,
      status: 400,
      error: expect.stringContaining('openai:gpt-9 is not configured on the backend'),
    });
    expect(await runner().start({ tests: ['gone'], models: ['openai:gpt-4.1'] })).toMatchObject({
      success: false,
      status: 400,
      error: expect.stringContaining('No test named gone'),
    });
  });
});
