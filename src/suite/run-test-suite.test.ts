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
import { discoverTests, type TestCase } from '../test-files/index.js';
import { createLocalClient, openProjectRuntime, type ProjectRuntime } from '../test-run/index.js';
import { runTestSuite } from './run-test-suite.js';

/** gpt-4.1 in the price table: USD per million tokens. */
const INPUT_PRICE = 2;
const OUTPUT_PRICE = 8;
/** What every scripted reply reports using (the stand-in analyst's default). */
const CALL_USAGE = { input: 1000, output: 100 };
const CALL_COST = (CALL_USAGE.input * INPUT_PRICE + CALL_USAGE.output * OUTPUT_PRICE) / 1e6;

let server: TestLlmServer;
let project: ExampleCopy;
let runtime: ProjectRuntime;
let test: TestCase;
/** Which request of a run never gets its answer (a provider that hangs), by kind and count. */
let hangOn: ((request: ScriptRequest, seen: { agent: number; extraction: number }) => boolean) | undefined;
let seen = { agent: 0, extraction: 0 };
let answers: Record<string, ScriptedAnswer> = {};

beforeAll(async () => {
  server = await startTestLlmServer({
    script: (request) => {
      const kind = request.wantsJson ? 'extraction' : 'agent';
      seen[kind]++;
      if (hangOn?.(request, seen)) return { hang: true };
      return scriptedAnalyst({ answers })(request);
    },
  });
  project = await copyExampleProject({ baseUrl: server.url });
  runtime = await openProjectRuntime({
    config: await loadConfig({ projectDir: project.dir, env: {} }),
    env: {},
  });
  const { tests } = await discoverTests({ testsDir: path.join(project.dir, 'tests') });
  test = tests.find((candidate) => candidate.name === 'total_revenue')!;
});
afterAll(async () => {
  await runtime?.close();
  await project?.cleanup();
  await server?.close();
});

function suite(options: { timeoutMs?: number; signal?: AbortSignal }) {
  seen = { agent: 0, extraction: 0 };
  return runTestSuite({
    tests: [test],
    models: ['openai:gpt-4.1'],
    repeat: 1,
    client: createLocalClient(runtime),
    comparison: runtime.config.test.comparison,
    threads: 1,
    ...options,
    record: { command: 'nao test', naoVersion: 'test' },
  });
}

describe('runTestSuite: a run cut short keeps what its finished model calls used and cost', () => {
  it('a timed-out run reports the tokens and cost of the agent steps that completed', async () => {
    answers = { [test.prompt]: { sql: test.sql! } };
    // The first step (the execute_sql call) is answered; the second never is.
    hangOn = (request, counts) => !request.wantsJson && counts.agent === 2;
    const { file } = await suite({ timeoutMs: 1500 });
    const [row] = file.results;
    expect(row).toMatchObject({ status: 'error', message: 'timed out after 1.5 s', tokens: 1100 });
    expect(row!.cost).toBeCloseTo(CALL_COST, 12);
    expect(row!.details.usage).toMatchObject({ input_total_tokens: 1000, output_total_tokens: 100 });
    expect(file.summary.total_tokens).toBe(1100);
    expect(file.summary.total_cost).toBeCloseTo(CALL_COST, 12);
  });

  it('a run timed out in the extraction repair keeps the agent and the first extraction call apart', async () => {
    answers = { [test.prompt]: { sql: test.sql!, extractionSql: 'SELECT no_such_column FROM "{table}"' } };
    hangOn = (request, counts) => request.wantsJson && counts.extraction === 2;
    const { file } = await suite({ timeoutMs: 2000 });
    const [row] = file.results;
    expect(row).toMatchObject({ status: 'error', message: 'timed out after 2 s', tokens: 2200 });
    expect(row!.cost).toBeCloseTo(2 * CALL_COST, 12);
    expect(row!.details.extraction_usage).toMatchObject({ total_tokens: 1100 });
    expect(row!.details.extraction_cost).toBeCloseTo(CALL_COST, 12);
    expect(file.summary.total_extraction_cost).toBeCloseTo(CALL_COST, 12);
  });

  it('a run interrupted in flight is an error that keeps its spending, counted in the summary', async () => {
    answers = { [test.prompt]: { sql: test.sql! } };
    const controller = new AbortController();
    hangOn = (request, counts) => {
      const hang = !request.wantsJson && counts.agent === 2;
      if (hang) setTimeout(() => controller.abort(new Error('interrupted')), 100);
      return hang;
    };
    const { file, stoppedBy } = await suite({ signal: controller.signal });
    expect(stoppedBy).toBe('interrupted');
    const [row] = file.results;
    expect(row).toMatchObject({ status: 'error', message: 'interrupted', tokens: 1100 });
    expect(row!.cost).toBeCloseTo(CALL_COST, 12);
    expect(file.summary).toMatchObject({ errors: 1, skipped: 0, total_tokens: 1100 });
  });
});
