import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyExampleProject, type ExampleCopy } from '../../test-support/cli/example-project.js';
import { startTestLlmServer, type TestLlmServer } from '../../test-support/llm-server/index.js';
import { type ScriptedAnswer, scriptedAnalyst } from '../../test-support/llm-server/scripted-analyst.js';
import { loadConfig } from '../config/index.js';
import { WarehouseError } from '../warehouse/index.js';
import { openProjectRuntime, type ProjectRuntime } from './project-runtime.js';
import { runTestRequest } from './run-test-request.js';

/** A query of the example warehouse that runs for minutes. */
const SLOW_SQL = 'SELECT sum(a.range * b.range) AS total FROM range(1000000) a, range(1000000) b';
/** A query that needs gigabytes of memory. */
const HUNGRY_SQL = 'SELECT count(DISTINCT i) AS n FROM range(3000000000) t(i)';

let server: TestLlmServer;
let project: ExampleCopy;
let runtime: ProjectRuntime;
let answers: Record<string, ScriptedAnswer> = {};

beforeAll(async () => {
  server = await startTestLlmServer({ script: (request) => scriptedAnalyst({ answers })(request) });
  project = await copyExampleProject({
    baseUrl: server.url,
    configExtra: 'agent:\n  query_timeout_s: 0.5\n  query_memory_limit: 100MB\n',
  });
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

describe('openProjectRuntime: the limits of nao_config.yaml bound every warehouse query', () => {
  it("cancels the agent's query and the reference past agent.query_timeout_s, without --timeout", async () => {
    const prompt = 'What is the sum of all products?';
    answers = { [prompt]: { sql: SLOW_SQL } };
    const started = performance.now();
    const response = await runTestRequest({
      runtime,
      request: { prompt, model: { provider: 'openai', modelId: 'gpt-4.1' }, sql: SLOW_SQL },
    });
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(JSON.stringify(response.toolCalls[0]?.result)).toContain('500 ms limit');
    expect(response.verification?.referenceError).toContain('ran longer than the 500 ms limit');
  });

  it('stops a DuckDB query past agent.query_memory_limit', async () => {
    const database = runtime.databases[0]!;
    // The time limit ends the query should the memory limit not hold.
    const error = await database.query(HUNGRY_SQL, { timeoutMs: 10_000 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(WarehouseError);
    expect((error as WarehouseError).code).toBe('QUERY_OUT_OF_MEMORY');
    expect((error as WarehouseError).message).toContain('agent.query_memory_limit');
  });
});

describe('openProjectRuntime: model prices', () => {
  it('tells onPriceWarning once for each model whose declared prices are incomplete, when it is first resolved', async () => {
    const warnings: string[] = [];
    const config = await loadConfig({ projectDir: project.dir, env: {} });
    const openai = config.llm.providers.find((provider) => provider.provider === 'openai')!;
    openai.models = [...(openai.models ?? []), { id: 'house-judge', costs: { output: 10 } }];
    const warned = await openProjectRuntime({
      config,
      env: {},
      onPriceWarning: (warning) => warnings.push(warning),
    });
    try {
      warned.model('openai:gpt-4.1');
      expect(warnings).toEqual([]);
      warned.model('openai:house-judge');
      warned.model('openai:house-judge');
      expect(warnings).toEqual([
        expect.stringContaining('openai:house-judge has prices without input_no_cache'),
      ]);
    } finally {
      await warned.close();
    }
  });
});
