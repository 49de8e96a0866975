import { utimes } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyExampleProject, type ExampleCopy } from '../../test-support/cli/example-project.js';
import {
  type ScriptRequest,
  startTestLlmServer,
  type TestLlmServer,
} from '../../test-support/llm-server/index.js';
import { type ScriptedAnswer, scriptedAnalyst } from '../../test-support/llm-server/scripted-analyst.js';
import { loadConfig } from '../config/index.js';
import { openProjectRuntime, type ProjectRuntime } from './project-runtime.js';
import { runTestRequest } from './run-test-request.js';

let server: TestLlmServer;
let project: ExampleCopy;
let runtime: ProjectRuntime;
let answers: Record<string, ScriptedAnswer> = {};
/** Runs before the stand-in analyst answers, e.g. to change the warehouse mid-run. */
let beforeAnswer: ((request: ScriptRequest) => Promise<void>) | undefined;
/** What the stand-in analyst was asked, in order: 'agent' or 'extraction'. */
let calls: string[] = [];

beforeAll(async () => {
  server = await startTestLlmServer({
    script: async (request) => {
      calls.push(request.wantsJson ? 'extraction' : 'agent');
      await beforeAnswer?.(request);
      return scriptedAnalyst({ answers })(request);
    },
  });
  project = await copyExampleProject({ baseUrl: server.url });
  runtime = await openProjectRuntime({
    config: await loadConfig({ projectDir: project.dir, env: {} }),
    env: {},
  });
});
afterAll(async () => {
  await runtime?.close();
  await project?.cleanup();
  await server?.close();
});

function run(test: { prompt: string; sql: string }) {
  calls = [];
  return runTestRequest({
    runtime,
    request: { prompt: test.prompt, model: { provider: 'openai', modelId: 'gpt-4.1' }, sql: test.sql },
  });
}

describe('runTestRequest', () => {
  it('returns the reference rows, the extracted answer and a consistent snapshot when nothing changed', async () => {
    const test = project.tests.find((candidate) => candidate.name === 'total_revenue')!;
    answers = { [test.prompt]: { sql: test.sql } };
    beforeAnswer = undefined;
    const response = await run(test);
    expect(calls).toEqual(['agent', 'agent', 'extraction']);
    expect(response.verification).toMatchObject({
      referenceError: null,
      snapshotConsistent: true,
      expectedData: { columns: ['total_revenue'], rows: [['202201.54']] },
      data: { columns: ['total_revenue'], rows: [['202201.54']] },
    });
  });

  it('does not vouch for the snapshot when the warehouse file changes while the agent still works', async () => {
    // The reference runs alongside the agent and may finish before the change; the run must
    // still see that the agent's later queries could have read other data.
    const test = project.tests.find((candidate) => candidate.name === 'total_revenue')!;
    answers = { [test.prompt]: { sql: test.sql } };
    const warehouse = path.join(project.dir, 'warehouse.duckdb');
    beforeAnswer = async (request) => {
      const afterToolResult = request.messages.some((message) => message.role === 'tool');
      if (!request.wantsJson && afterToolResult) {
        const later = new Date(Date.now() + 60_000);
        await utimes(warehouse, later, later);
      }
    };
    try {
      const response = await run(test);
      expect(response.verification?.referenceError).toBeNull();
      expect(response.verification?.snapshotConsistent).toBe(false);
    } finally {
      beforeAnswer = undefined;
    }
  });

  it('reports a failing reference query as the run’s reference error, not as a failed agent', async () => {
    const test = { prompt: 'How many widgets are there?', sql: 'SELECT count(*) FROM no_such_table' };
    answers = { [test.prompt]: { sql: 'SELECT count(*) AS n FROM orders' } };
    const response = await run(test);
    expect(response.verification?.referenceError).toMatch(/no_such_table/);
    expect(response.verification?.data).toBeNull();
    expect(calls).toEqual(['agent', 'agent']);
  });
});
