/**
 * Record and replay through the real pipeline: the bundled example, nao's agent, tools,
 * extraction and comparison, with the wire-protocol test server standing in for OpenAI.
 */
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyExampleProject, type ExampleCopy } from '../../test-support/cli/example-project.js';
import { startTestLlmServer } from '../../test-support/llm-server/index.js';
import { type ScriptedAnswer, scriptedAnalyst } from '../../test-support/llm-server/scripted-analyst.js';
import { runRecordedSuite } from '../../test-support/recording/recorded-suite.js';
import type { RunResult } from '../results/index.js';
import { canonicalJson } from './canonical-json.js';
import { createRecorder } from './recorder.js';
import { withUnorderedRows } from './unordered-rows.js';

const MODEL = 'openai:gpt-4.1';
const KEY = 'sk-test-e2e-secret';
const TESTS = ['total_revenue', 'revenue_q4_2025', 'orders_by_status', 'payment_methods'];
const MISTAKE = 'SELECT SUM(amount) AS revenue FROM payments';

let project: ExampleCopy;
let serverUrl: string;
let recordingsDir: string;
let recorded: RunResult[];
const scratch: string[] = [];

/** Every requested test answered with its reference SQL, but revenue_q4_2025 with a wrong sum. */
function answers(): Record<string, ScriptedAnswer> {
  return Object.fromEntries(
    project.tests.map((test) => [test.prompt, { sql: test.name === 'revenue_q4_2025' ? MISTAKE : test.sql }]),
  );
}

/**
 * A run's result without what legitimately differs between a live run and its replay: the
 * duration, the replayed flag, and the row order of unordered queries (DuckDB changes it when
 * queries run at once; the comparison ignores it too).
 */
function comparable(result: RunResult) {
  const unordered = <T>(rows: T[] | null) =>
    rows === null ? null : [...rows].sort((a, b) => (canonicalJson(a) < canonicalJson(b) ? -1 : 1));
  return {
    ...result,
    duration_ms: 0,
    details: {
      ...result.details,
      replayed: false,
      actual_data: unordered(result.details.actual_data),
      expected_data: unordered(result.details.expected_data),
      tool_calls: result.details.tool_calls.map((call) => ({
        ...call,
        result: withUnorderedRows(call.result),
      })),
    },
  };
}

async function replay(options: {
  projectDir?: string;
  recordings?: string;
  concurrency?: number;
  env?: Record<string, string>;
}) {
  let networkCalls = 0;
  const recorder = createRecorder({
    recordingsDir: options.recordings ?? recordingsDir,
    mode: 'replay',
    fetch: async () => {
      networkCalls++;
      throw new Error('replay reached the network');
    },
    displayDir: options.projectDir ?? project.dir,
  });
  const results = await runRecordedSuite({
    projectDir: options.projectDir ?? project.dir,
    recorder,
    select: TESTS,
    models: [MODEL],
    repeat: 2,
    concurrency: options.concurrency ?? 4,
    ...(options.env === undefined ? {} : { env: options.env }),
  });
  expect(networkCalls).toBe(0);
  return results;
}

/** A private copy of the recorded project, to change without disturbing the other tests. */
async function projectCopy(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'nao-replay-'));
  scratch.push(dir);
  await cp(project.dir, dir, { recursive: true });
  return dir;
}

function byName(results: RunResult[], name: string, attempt = 1): RunResult {
  const found = results.find((result) => result.name === name && result.attempt === attempt);
  if (found === undefined) throw new Error(`no result for ${name} attempt ${attempt}`);
  return found;
}

beforeAll(async () => {
  const server = await startTestLlmServer({
    script: (request) => scriptedAnalyst({ answers: answers() })(request),
  });
  serverUrl = server.url;
  try {
    project = await copyExampleProject({ baseUrl: server.url });
    recordingsDir = path.join(project.dir, 'tests', 'recordings');
    // The copy carries the example's committed recordings; these tests record their own.
    await rm(recordingsDir, { recursive: true, force: true });
    const recorder = createRecorder({ recordingsDir, mode: 'record', displayDir: project.dir });
    // Four runs at once, two attempts each: the -t 4 case.
    recorded = await runRecordedSuite({
      projectDir: project.dir,
      recorder,
      env: {},
      select: TESTS,
      models: [MODEL],
      repeat: 2,
      concurrency: 4,
    });
  } finally {
    // Every replay below runs with the server gone.
    await server.close();
  }
}, 120_000);

afterAll(async () => {
  await project?.cleanup();
  await Promise.all(scratch.map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('record, then replay with the server stopped', () => {
  it('records what the live runs did: passes and the deliberate mismatch', () => {
    expect(recorded).toHaveLength(TESTS.length * 2);
    for (const result of recorded) {
      expect(result.status, `${result.name}: ${result.message}`).toBe(
        result.name === 'revenue_q4_2025' ? 'failed' : 'passed',
      );
      expect(result.details.replayed).toBe(false);
    }
  });

  it('writes one file per test, model and attempt', async () => {
    const modelDir = path.join(recordingsDir, 'openai__gpt-4.1');
    expect((await readdir(modelDir)).sort()).toEqual([
      'finance',
      'orders_by_status',
      'revenue_q4_2025',
      'total_revenue',
    ]);
    expect(await readdir(path.join(modelDir, 'finance', 'payment_methods'))).toEqual([
      'attempt-1.json',
      'attempt-2.json',
    ]);
  });

  it('replays to identical verdicts, data, tool calls, tokens and cost, marked as replayed', async () => {
    const replayed = await replay({});
    expect(replayed.map(comparable)).toEqual(recorded.map(comparable));
    for (const result of replayed) expect(result.details.replayed).toBe(true);
    const revenue = byName(replayed, 'total_revenue');
    expect(revenue.details.actual_data).toEqual([{ total_revenue: '202201.54' }]);
    expect(revenue.details.tool_calls[0]?.tool_name).toBe('execute_sql');
    expect(revenue.tokens).toBeGreaterThan(0);
    expect(revenue.cost).toBeGreaterThan(0);
    const mismatch = byName(replayed, 'revenue_q4_2025', 2);
    expect(mismatch.message).toContain('values differ');
    expect(mismatch.details.diff?.text).toContain('41005.25');
  });

  it('replays one run at a time just the same', async () => {
    const replayed = await replay({ concurrency: 1 });
    expect(replayed.map(comparable)).toEqual(recorded.map(comparable));
  });

  it('needs no API key', async () => {
    const dir = await projectCopy();
    const configPath = path.join(dir, 'nao_config.yaml');
    const config = await readFile(configPath, 'utf8');
    expect(config).toContain(`api_key: ${KEY}`);
    await writeFile(configPath, config.replace(`      api_key: ${KEY}\n`, ''));
    const replayed = await replay({
      projectDir: dir,
      recordings: path.join(dir, 'tests', 'recordings'),
      env: {},
    });
    expect(replayed.map(comparable)).toEqual(recorded.map(comparable));
  });

  it('keeps keys, auth headers and the base URL out of the recordings', async () => {
    const files = (await readdir(recordingsDir, { recursive: true })).filter((file) =>
      file.endsWith('.json'),
    );
    expect(files).toHaveLength(TESTS.length * 2);
    for (const file of files) {
      const text = await readFile(path.join(recordingsDir, file), 'utf8');
      expect(text).not.toContain(KEY);
      expect(text.toLowerCase()).not.toContain('authorization');
      expect(text.toLowerCase()).not.toContain('bearer');
      expect(text).not.toContain(new URL(serverUrl).host);
    }
  });
});

describe('replay of runs that were not recorded as they run now', () => {
  it('a missing recording is an error run naming test, model, attempt and step', async () => {
    const dir = await projectCopy();
    const recordings = path.join(dir, 'tests', 'recordings');
    await rm(path.join(recordings, 'openai__gpt-4.1', 'total_revenue', 'attempt-2.json'));
    const replayed = await replay({ projectDir: dir, recordings });
    const missing = byName(replayed, 'total_revenue', 2);
    expect(missing.status).toBe('error');
    expect(missing.message).toBe(
      'No recording of step 1 for test "total_revenue" on openai:gpt-4.1, attempt 2: ' +
        'tests/recordings/openai__gpt-4.1/total_revenue/attempt-2.json does not exist. ' +
        'Re-record with `nao test --record`.',
    );
    expect(byName(replayed, 'total_revenue', 1).status).toBe('passed');
  });

  it('a recording with fewer steps than the run makes names the missing step', async () => {
    const dir = await projectCopy();
    const recordings = path.join(dir, 'tests', 'recordings');
    const file = path.join(recordings, 'openai__gpt-4.1', 'orders_by_status', 'attempt-1.json');
    const recording = JSON.parse(await readFile(file, 'utf8')) as { exchanges: unknown[] };
    recording.exchanges = recording.exchanges.slice(0, 2);
    await writeFile(file, JSON.stringify(recording));
    const result = byName(await replay({ projectDir: dir, recordings }), 'orders_by_status');
    expect(result.status).toBe('error');
    expect(result.message).toMatch(
      /^No recording of step 3 for test "orders_by_status" on openai:gpt-4\.1, attempt 1: .* holds 2 model call\(s\)\. Re-record with `nao test --record`\.$/,
    );
  });

  it('a changed prompt is reported as stale', async () => {
    const dir = await projectCopy();
    const testFile = path.join(dir, 'tests', 'orders_by_status.yml');
    const yaml = await readFile(testFile, 'utf8');
    await writeFile(
      testFile,
      yaml.replace('How many orders are there in each status?', 'How many orders per status?'),
    );
    const result = byName(
      await replay({ projectDir: dir, recordings: path.join(dir, 'tests', 'recordings') }),
      'orders_by_status',
    );
    expect(result.status).toBe('error');
    expect(result.message).toBe(
      'The recording of test "orders_by_status" on openai:gpt-4.1, attempt 1 is stale at step 1: the prompt differs. ' +
        'Re-record with `nao test --record` (tests/recordings/openai__gpt-4.1/orders_by_status/attempt-1.json).',
    );
  });

  it("different data under the agent's SQL is reported as stale at the step that reads it", async () => {
    const dir = await projectCopy();
    const instance = await DuckDBInstance.create(path.join(dir, 'warehouse.duckdb'));
    const connection = await instance.connect();
    await connection.run(
      'UPDATE payments SET amount = amount + 1 WHERE payment_id = (SELECT MIN(payment_id) FROM payments)',
    );
    connection.closeSync();
    instance.closeSync();
    const replayed = await replay({ projectDir: dir, recordings: path.join(dir, 'tests', 'recordings') });
    const result = byName(replayed, 'total_revenue');
    expect(result.status).toBe('error');
    expect(result.message).toMatch(
      /^The recording of test "total_revenue" on openai:gpt-4\.1, attempt 1 is stale at step 2: the execute_sql result of step 1 differs\. Re-record with `nao test --record`/,
    );
    // Runs whose queries do not read the changed row still replay.
    expect(byName(replayed, 'orders_by_status').status).toBe('passed');
  });

  it('a changed RULES.md makes every recording stale at its first step', async () => {
    const dir = await projectCopy();
    await writeFile(
      path.join(dir, 'RULES.md'),
      `${await readFile(path.join(dir, 'RULES.md'), 'utf8')}\n- Revenue is in EUR.\n`,
    );
    const replayed = await replay({ projectDir: dir, recordings: path.join(dir, 'tests', 'recordings') });
    for (const result of replayed) {
      expect(result.status).toBe('error');
      expect(result.message).toContain('is stale at step 1: the system prompt differs');
    }
  });
});
