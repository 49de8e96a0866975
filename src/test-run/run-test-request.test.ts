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
import { JUDGE_RUBRIC } from '../grader/index.js';
import { openProjectRuntime, type ProjectRuntime } from './project-runtime.js';
import { runTestRequest } from './run-test-request.js';
import type { TestRunRequest } from './test-run-types.js';

let server: TestLlmServer;
let project: ExampleCopy;
let runtime: ProjectRuntime;
let answers: Record<string, ScriptedAnswer> = {};
/** Runs before the stand-in analyst answers, e.g. to change the warehouse mid-run. */
let beforeAnswer: ((request: ScriptRequest) => Promise<void>) | undefined;
/** What the stand-in analyst was asked, in order: 'agent', 'extraction' or 'judge:<model>'. */
let calls: string[] = [];

function kindOf(request: ScriptRequest): string {
  if (request.messages.some((message) => message.content === JUDGE_RUBRIC)) return `judge:${request.model}`;
  return request.wantsJson ? 'extraction' : 'agent';
}

beforeAll(async () => {
  server = await startTestLlmServer({
    script: async (request) => {
      calls.push(kindOf(request));
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

function run(test: { prompt: string; sql: string | null } & Partial<TestRunRequest>) {
  calls = [];
  return runTestRequest({
    runtime,
    request: { model: { provider: 'openai', modelId: 'gpt-4.1' }, ...test },
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

describe('runTestRequest: assertions and judged answers', () => {
  const prompt = 'Which payment method is used most?';

  it('extracts the answer without a reference when asked to, with its own column names', async () => {
    answers = {
      [prompt]: {
        sql: 'SELECT payment_method AS method, count(*) AS payments FROM payments GROUP BY 1 ORDER BY 2 DESC LIMIT 3',
      },
    };
    const response = await run({ prompt, sql: null, extractAnswer: true });
    expect(calls).toEqual(['agent', 'agent', 'extraction']);
    expect(response.verification).toMatchObject({
      data: { columns: ['method', 'payments'] },
      expectedData: null,
      expectedColumns: [],
      referenceError: null,
    });
    expect(response.verification?.data?.rows).toHaveLength(3);
    const extractionRequest = server.requests.at(-1)!.messages.at(-1)!.content;
    expect(extractionRequest).toContain(
      'Return the columns of your answer, with the column names of your query results.',
    );
  });

  it('extracts nothing for a test without sql that does not ask for it', async () => {
    answers = { [prompt]: { sql: 'SELECT 1 AS x', text: 'Card.' } };
    const response = await run({ prompt, sql: null });
    expect(calls).toEqual(['agent', 'agent']);
    expect(response.verification).toBeNull();
    expect(response.judgement).toBeNull();
    expect(response.clarification).toBeNull();
  });

  it('has the judge grade the final text after the agent, with its usage and cost apart', async () => {
    answers = { [prompt]: { sql: 'SELECT 1 AS x', text: 'Card payments are the most used.' } };
    const response = await run({ prompt, sql: null, expectedAnswer: 'card' });
    expect(calls).toEqual(['agent', 'agent', 'judge:gpt-4.1']);
    expect(response.judgement).toEqual({
      model: 'openai:gpt-4.1',
      verdict: 'pass',
      reason: 'The answer states "card".',
      error: null,
      attempts: 1,
      usage: expect.objectContaining({ inputTotalTokens: 1000, outputTotalTokens: 100, totalTokens: 1100 }),
      cost: expect.objectContaining({ totalCost: expect.any(Number) }),
    });
    // The agent's usage is its own two steps; the judge's call is not in it.
    expect(response.usage.totalTokens).toBe(2200);
  });

  it('uses the judge model the request names', async () => {
    answers = { [prompt]: { text: 'Bank transfers.' } };
    const response = await run({
      prompt,
      sql: null,
      expectedAnswer: 'card',
      judgeModel: { provider: 'openai', modelId: 'gpt-4.1-mini' },
    });
    expect(calls).toEqual(['agent', 'judge:gpt-4.1-mini']);
    expect(response.judgement).toMatchObject({ model: 'openai:gpt-4.1-mini', verdict: 'fail' });
  });

  it('asks the judge once more after an unreadable reply, then reports no verdict', async () => {
    answers = { [prompt]: { text: 'Card.', judge: 'unreadable' } };
    const response = await run({ prompt, sql: null, expectedAnswer: 'card' });
    expect(calls).toEqual(['agent', 'judge:gpt-4.1', 'judge:gpt-4.1']);
    expect(response.judgement).toMatchObject({
      verdict: null,
      attempts: 2,
      error: 'its reply was not {"verdict", "reason"} after 2 attempts',
      usage: expect.objectContaining({ totalTokens: 2200 }),
    });
  });

  it('lets the agent ask a clarifying question when the test allows it, and says which', async () => {
    answers = { [prompt]: { clarification: 'Do you mean by count or by amount?', sql: 'SELECT 1' } };
    const asked = await run({ prompt, sql: null, allowClarification: true });
    expect(calls).toEqual(['agent']);
    expect(asked.clarification).toEqual({ question: 'Do you mean by count or by amount?', options: [] });
    expect(asked.finishReason).toBe('clarification');
    expect(server.requests.at(-1)!.tools.map((tool) => tool.name)).toContain('clarification');

    const plain = await run({ prompt, sql: null });
    expect(plain.clarification).toBeNull();
    expect(server.requests.at(-1)!.tools.map((tool) => tool.name)).not.toContain('clarification');
  });
});
