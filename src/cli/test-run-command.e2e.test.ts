import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type ScriptedAnswer, scriptedAnalyst } from '../fake-analyst/index.js';
import { startTestLlmServer, type TestLlmServer } from '../llm-test-server/index.js';
import type { ResultsFile } from '../report/index.js';
import { main } from './main.js';
import { copyExampleProject, type ExampleCopy } from './test-support/example-project.js';

let answers: Record<string, ScriptedAnswer> = {};
let server: TestLlmServer;
let project: ExampleCopy;

beforeAll(async () => {
  server = await startTestLlmServer({ script: (request) => scriptedAnalyst({ answers })(request) });
  project = await copyExampleProject({ baseUrl: server.url });
});
afterAll(async () => {
  await project.cleanup();
  await server.close();
});
afterEach(() => {
  answers = {};
});

/** Every example test answered with its own reference SQL: the agent is right. */
function correctAnswers(): Record<string, ScriptedAnswer> {
  return Object.fromEntries(project.tests.map((test) => [test.prompt, { sql: test.sql }]));
}

async function nao(args: string[]) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk) => {
    out += chunk;
  });
  stderr.on('data', (chunk) => {
    err += chunk;
  });
  const code = await main(['node', 'nao', ...args], {
    stdout: Object.assign(stdout, { columns: 160 }),
    stderr,
    env: { PATH: process.env.PATH },
    cwd: project.dir,
  });
  return { code, stdout: out, stderr: err };
}

async function latestResults(): Promise<ResultsFile> {
  const outputs = path.join(project.dir, 'tests', 'outputs');
  const files = (await readdir(outputs)).filter((file) => file.startsWith('results_')).sort();
  return JSON.parse(await readFile(path.join(outputs, files.at(-1)!), 'utf8')) as ResultsFile;
}

describe('nao test --local against the wire-protocol test server', () => {
  it('passes every example test when the agent runs the right SQL', async () => {
    answers = correctAnswers();
    const { code, stdout, stderr } = await nao(['test', '--local', '-t', '4']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain('Test Results');
    expect(stdout).toContain(`All ${project.tests.length} test(s) passed`);
    const file = await latestResults();
    expect(file.summary).toMatchObject({
      total: project.tests.length,
      passed: project.tests.length,
      failed: 0,
    });
    expect(file.results.map((result) => result.name)).toEqual(project.tests.map((test) => test.name));
    const revenue = file.results.find((result) => result.name === 'total_revenue')!;
    expect(revenue.details.reference_sql).toContain('SUM(p.amount)');
    expect(revenue.details.actual_data).toEqual([{ total_revenue: '202201.54' }]);
    expect(revenue.details.tool_calls[0]?.tool_name).toBe('execute_sql');
    expect(revenue.tool_call_count).toBe(1);
    expect(revenue.cost).toBeGreaterThan(0);
  });

  it('fails a wrong answer with the values diff and exits 1', async () => {
    answers = correctAnswers();
    answers['What is the total revenue from all orders?'] = {
      // Forgets to exclude returned orders.
      sql: 'SELECT SUM(amount) AS total_revenue FROM payments',
    };
    const { code, stdout } = await nao(['test', '--local', '-s', 'total_revenue']);
    expect(code).toBe(1);
    expect(stdout).toContain('values differ');
    const result = (await latestResults()).results[0]!;
    expect(result).toMatchObject({
      status: 'failed',
      passed: false,
      message: expect.stringContaining('values differ'),
    });
    expect(result.details.diff?.text).toContain('218098.37');
    expect(result.details.diff?.text).toContain('202201.54');
  });
});
