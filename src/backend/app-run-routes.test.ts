import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyExampleProject, type ExampleCopy } from '../../test-support/cli/example-project.js';
import { startTestLlmServer, type TestLlmServer } from '../../test-support/llm-server/index.js';
import { type ScriptedAnswer, scriptedAnalyst } from '../../test-support/llm-server/scripted-analyst.js';
import type { AppRunJob } from '../app-runs/index.js';
import { loadConfig } from '../config/index.js';
import { listResultsFiles, readResultsFile } from '../results/index.js';
import { type RunningBackend, startBackend } from './backend.js';

let answers: Record<string, ScriptedAnswer> = {};
let llm: TestLlmServer;
let project: ExampleCopy;
let backend: RunningBackend;
const log: string[] = [];
let ada: string;
let bob: string;

async function signUp(email: string): Promise<string> {
  const response = await fetch(`${backend.url}/api/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'pw-app-runs-51af' }),
  });
  return ((await response.json()) as { token: string }).token;
}

async function api(method: string, url: string, token: string, body?: unknown) {
  const response = await fetch(`${backend.url}${url}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as { job?: AppRunJob; error?: string } };
}

async function finished(id: string, token: string): Promise<AppRunJob> {
  for (let waited = 0; waited < 30_000; waited += 50) {
    const { body } = await api('GET', `/api/tests/runs/${id}`, token);
    if (body.job && body.job.state !== 'running') return body.job;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`job ${id} still running`);
}

beforeAll(async () => {
  llm = await startTestLlmServer({ script: (request) => scriptedAnalyst({ answers })(request) });
  project = await copyExampleProject({ baseUrl: llm.url });
  const config = await loadConfig({ projectDir: project.dir, env: {} });
  // Two accounts sign up (open sign-up, no invite).
  backend = await startBackend({
    config,
    env: { NAO_ALLOW_SIGNUP: '1' },
    port: 0,
    version: 'test',
    log: (line) => log.push(line),
  });
  ada = await signUp('ada@example.com');
  bob = await signUp('bob@example.com');
});
afterAll(async () => {
  await backend?.close();
  await llm?.close();
  await project?.cleanup();
});

describe('POST /api/tests/runs (Save as test, then run)', () => {
  it('runs the tests on the backend, judges them like nao test and saves the results file', async () => {
    answers = Object.fromEntries(project.tests.map((test) => [test.prompt, { sql: test.sql }]));
    answers['What percentage of orders were returned? Give it with two decimals.'] = { sql: 'SELECT 1 AS r' };
    const started = await api('POST', '/api/tests/runs', ada, {
      tests: ['total_revenue', 'return_rate'],
      models: ['openai:gpt-4.1'],
    });
    expect(started.status).toBe(202);
    expect(started.body.job).toMatchObject({
      state: 'running',
      total: 2,
      tests: ['total_revenue', 'return_rate'],
    });
    const job = await finished(started.body.job!.id, ada);
    expect(job).toMatchObject({
      state: 'done',
      finished: 2,
      runs: [
        {
          name: 'total_revenue',
          model: 'openai:gpt-4.1',
          status: 'passed',
          message: expect.stringMatching(/^match/),
        },
        { name: 'return_rate', model: 'openai:gpt-4.1', status: 'failed' },
      ],
    });
    const files = await listResultsFiles(path.join(project.dir, 'tests', 'outputs'));
    expect(job.path).toBe(`tests/outputs/${path.basename(files.at(-1)!)}`);
    const saved = await readResultsFile(files.at(-1)!);
    expect(saved).toMatchObject({
      started_from: 'chat',
      command: 'nao test --local -s total_revenue,return_rate -m openai:gpt-4.1',
      nao_version: 'test',
      summary: { total: 2, passed: 1, failed: 1 },
    });
    expect(saved.results[1]!.details.diff?.text).toBeTruthy();
    expect(log.some((line) => line.includes('ada@example.com started 2 test run(s)'))).toBe(true);
    // Another user cannot read the job.
    expect((await api('GET', `/api/tests/runs/${job.id}`, bob)).status).toBe(404);
  });

  it('refuses an unknown model or test and a bad body, naming them', async () => {
    const model = await api('POST', '/api/tests/runs', ada, {
      tests: ['total_revenue'],
      models: ['openai:gpt-9'],
    });
    expect(model).toMatchObject({
      status: 400,
      body: { error: expect.stringContaining('openai:gpt-9 is not configured') },
    });
    const test = await api('POST', '/api/tests/runs', ada, {
      tests: ['no_such_test'],
      models: ['openai:gpt-4.1'],
    });
    expect(test).toMatchObject({
      status: 400,
      body: { error: expect.stringContaining('No test named no_such_test') },
    });
    const bad = await api('POST', '/api/tests/runs', ada, { tests: 'total_revenue' });
    expect(bad).toMatchObject({
      status: 400,
      body: { error: expect.stringContaining('Invalid request body') },
    });
    const anonymous = await fetch(`${backend.url}/api/tests/runs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tests: ['total_revenue'], models: ['openai:gpt-4.1'] }),
    });
    expect(anonymous.status).toBe(401);
  });

  it('runs one job per user at a time: a second of the same user is 429 with Retry-After, another user runs', async () => {
    answers = { 'What is the total revenue from all orders?': { sql: 'SELECT 1', delayMs: 400 } };
    const request = { tests: ['total_revenue'], models: ['openai:gpt-4.1'] };
    const first = await api('POST', '/api/tests/runs', ada, request);
    expect(first.status).toBe(202);
    const again = await fetch(`${backend.url}/api/tests/runs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ada}`, 'content-type': 'application/json' },
      body: JSON.stringify(request),
    });
    expect(again.status).toBe(429);
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await again.json()).toEqual({ error: expect.stringContaining('still going') });
    const other = await api('POST', '/api/tests/runs', bob, request);
    expect(other.status).toBe(202);
    expect((await finished(first.body.job!.id, ada)).state).toBe('done');
    expect((await finished(other.body.job!.id, bob)).state).toBe('done');
  });

  it('cancels a running job with DELETE: the runs under way stop and what finished is saved', async () => {
    answers = Object.fromEntries(
      project.tests.map((test) => [test.prompt, { sql: test.sql, delayMs: 20_000 }]),
    );
    const before = llm.requests.length;
    const started = await api('POST', '/api/tests/runs', ada, {
      tests: ['total_revenue'],
      models: ['openai:gpt-4.1'],
    });
    expect(started.status).toBe(202);
    const id = started.body.job!.id;
    await expect.poll(() => llm.requests.length, { timeout: 10_000 }).toBeGreaterThan(before);
    // Another user can neither see nor cancel it.
    expect((await api('DELETE', `/api/tests/runs/${id}`, bob)).status).toBe(404);
    const cancelled = await api('DELETE', `/api/tests/runs/${id}`, ada);
    expect(cancelled).toMatchObject({ status: 202, body: { job: { id, cancelled: true } } });
    const job = await finished(id, ada);
    expect(job).toMatchObject({ state: 'done', cancelled: true, runs: [{ name: 'total_revenue' }] });
    expect(job.runs[0]!.status).not.toBe('passed');
    // The results file was written, with the run that never finished.
    const saved = await readResultsFile(path.join(project.dir, job.path!));
    expect(saved.results.map((result) => result.name)).toEqual(['total_revenue']);
    expect(log.some((line) => line.includes(`ada@example.com cancelled test run ${id}`))).toBe(true);
    expect(await api('DELETE', `/api/tests/runs/${id}`, ada)).toMatchObject({
      status: 409,
      body: { error: expect.stringContaining('already finished') },
    });
  });
});
