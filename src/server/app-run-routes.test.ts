import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyExampleProject, type ExampleCopy } from '../../test-support/cli/example-project.js';
import { startTestLlmServer, type TestLlmServer } from '../../test-support/llm-server/index.js';
import { type ScriptedAnswer, scriptedAnalyst } from '../../test-support/llm-server/scripted-analyst.js';
import type { AppRunJob } from '../app-runs/index.js';
import { loadConfig } from '../config/index.js';
import { listResultsFiles, readResultsFile } from '../report/index.js';
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

  it('runs one job at a time', async () => {
    answers = { 'What is the total revenue from all orders?': { sql: 'SELECT 1', delayMs: 400 } };
    const first = await api('POST', '/api/tests/runs', ada, {
      tests: ['total_revenue'],
      models: ['openai:gpt-4.1'],
    });
    expect(first.status).toBe(202);
    const second = await api('POST', '/api/tests/runs', bob, {
      tests: ['total_revenue'],
      models: ['openai:gpt-4.1'],
    });
    expect(second).toMatchObject({ status: 409, body: { error: expect.stringContaining('still going') } });
    expect((await finished(first.body.job!.id, ada)).state).toBe('done');
  });
});
