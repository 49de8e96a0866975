/**
 * Hostile extraction SQL through the built `nao` binary (issue #18): each query the model
 * writes over its result tables stays bounded in memory and time, and stoppable, whatever it
 * does, while the other runs of the suite go on untouched.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnBuiltNao } from '../../test-support/cli/built-nao.js';
import { copyExampleProject, type ExampleCopy, REPO_ROOT } from '../../test-support/cli/example-project.js';
import { watchProcessTree } from '../../test-support/cli/process-tree-memory.js';
import { latestResults } from '../../test-support/cli/run-cli.js';
import { startTestLlmServer, type TestLlmServer } from '../../test-support/llm-server/index.js';
import { type ScriptedAnswer, scriptedAnalyst } from '../../test-support/llm-server/scripted-analyst.js';
import type { RunResult } from '../results/index.js';

/** `agent.query_timeout_s` of the project where extraction queries are killed. */
const TIMEOUT_S = 3;
/** The sandbox's grace period after an interrupt. */
const GRACE_S = 2;
const GIB = 1024 * 1024 * 1024;

/** DuckDB never interrupts it: one levenshtein over two strings of about a megabyte. */
const UNINTERRUPTIBLE =
  "SELECT levenshtein(a, b) AS d FROM (SELECT string_agg(r::VARCHAR || 'aaaaa', '') AS a, " +
  "string_agg(r::VARCHAR || 'bbbbb', '') AS b FROM range(100000) t(r)), \"{table}\"";

let answers: Record<string, ScriptedAnswer> = {};
let server: TestLlmServer;
/** Extraction queries get `TIMEOUT_S`. */
let quick: ExampleCopy;
/** Extraction queries get the default 30 s. */
let standard: ExampleCopy;
const running = new Set<ChildProcess>();

beforeAll(async () => {
  if (!existsSync(path.join(REPO_ROOT, 'dist', 'cli', 'main.js'))) {
    throw new Error(
      'dist/ is missing: these tests run the built `nao` binary; run `npm run build` (npm test does).',
    );
  }
  server = await startTestLlmServer({ script: (request) => scriptedAnalyst({ answers })(request) });
  quick = await copyExampleProject({
    baseUrl: server.url,
    configExtra: `agent:\n  query_timeout_s: ${TIMEOUT_S}\n`,
  });
  standard = await copyExampleProject({ baseUrl: server.url });
});
afterAll(async () => {
  // A nao that did not stop by itself must not outlive the suite.
  for (const child of running) child.kill('SIGKILL');
  await quick?.cleanup();
  await standard?.cleanup();
  await server?.close();
});

/** Every example test answered right, with `overrides` for the named ones. */
function script(project: ExampleCopy, overrides: Record<string, Partial<ScriptedAnswer>>): void {
  answers = Object.fromEntries(
    project.tests.map((test) => [test.prompt, { sql: test.sql, ...overrides[test.name] }]),
  );
}

function spawnNao(project: ExampleCopy, args: string[]) {
  const nao = spawnBuiltNao({ args: ['test', '--local', ...args], cwd: project.dir });
  running.add(nao.child);
  const started = performance.now();
  const ended = nao.ended.then(({ code }) => {
    running.delete(nao.child);
    return { code, seconds: (performance.now() - started) / 1000 };
  });
  return { child: nao.child, ended, output: nao.output };
}

async function resultsOf(project: ExampleCopy): Promise<Map<string, RunResult>> {
  const file = await latestResults(project.dir);
  return new Map(file.results.map((result) => [result.name, result]));
}

describe('nao test with hostile extraction SQL', () => {
  it('ends a billion-row extraction as an error, with nao and its children under 1.5 GB', async () => {
    script(standard, { total_revenue: { extractionSql: 'SELECT * FROM range(1000000000), "{table}"' } });
    const run = spawnNao(standard, ['-s', 'total_revenue']);
    let runaway = false;
    const memory = watchProcessTree({
      pid: run.child.pid!,
      // Today's code would take the machine: stop it once it is clearly past the bound.
      onSample: (bytes) => {
        if (bytes > 2 * GIB && !runaway) {
          runaway = true;
          run.child.kill('SIGKILL');
        }
      },
    });
    const { code } = await run.ended;
    memory.stop();
    expect(runaway, 'nao grew past 2 GiB and was killed').toBe(false);
    expect(memory.peakBytes()).toBeLessThan(1.5 * GIB);
    expect(code).toBe(1);
    const result = (await resultsOf(standard)).get('total_revenue')!;
    expect(result.status).toBe('error');
    expect(result.message).toMatch(/answer extraction failed: .*more than 1000000 rows/);
  }, 120_000);

  it('kills an uninterruptible extraction within its limit; the run is an error and nao exits 1', async () => {
    script(quick, { total_revenue: { extractionSql: UNINTERRUPTIBLE } });
    const run = spawnNao(quick, ['-s', 'total_revenue']);
    const { code, seconds } = await run.ended;
    expect(code).toBe(1);
    // Two attempts, each killed at its limit plus the grace period.
    expect(seconds).toBeLessThan(2 * (TIMEOUT_S + GRACE_S) + 8);
    const result = (await resultsOf(quick)).get('total_revenue')!;
    expect(result.status).toBe('error');
    expect(result.message).toContain(`ran longer than ${TIMEOUT_S} s`);
    expect(result.message).toContain('ignored the interrupt');
  }, 120_000);

  it('finishes a -t 8 suite where four extractions never stop: those are errors, the others pass', async () => {
    const hogs = ['total_revenue', 'return_rate', 'orders_by_status', 'sales_by_category'];
    script(quick, Object.fromEntries(hogs.map((name) => [name, { extractionSql: UNINTERRUPTIBLE }])));
    const run = spawnNao(quick, ['-t', '8']);
    const { code, seconds } = await run.ended;
    expect(code).toBe(1);
    expect(seconds).toBeLessThan(4 * (TIMEOUT_S + GRACE_S) + 20);
    const results = await resultsOf(quick);
    expect(results.size).toBe(quick.tests.length);
    for (const [name, result] of results) {
      if (hogs.includes(name)) {
        expect(result.status, name).toBe('error');
        expect(result.message, name).toContain(`ran longer than ${TIMEOUT_S} s`);
      } else {
        expect(`${name}: ${result.status} ${result.message}`).toBe(`${name}: passed match`);
      }
    }
  }, 180_000);

  it('does not fail a normal extraction beside one that runs out of memory', async () => {
    script(standard, {
      // Fills whatever memory there is, for seconds, before it fails.
      total_revenue: {
        extractionSql:
          'SELECT count(*) AS n FROM (SELECT r FROM range(100000000) t(r) ORDER BY random()), "{table}"',
      },
      // Needs a few hundred MB of its own while the other fills the shared engine.
      return_rate: {
        extractionSql:
          'SELECT q.* FROM "{table}" q, (SELECT count(*) AS c FROM ' +
          '(SELECT r FROM range(20000000) t(r) ORDER BY random())) m',
      },
    });
    const run = spawnNao(standard, ['-t', '2', '-s', 'total_revenue,return_rate']);
    const { code } = await run.ended;
    expect(code).toBe(1);
    const results = await resultsOf(standard);
    const neighbour = results.get('return_rate')!;
    expect(`${neighbour.status} ${neighbour.message}`).toBe('passed match');
    const hog = results.get('total_revenue')!;
    expect(hog.status).toBe('error');
    expect(hog.message).toMatch(/needed more than the sandbox's memory limit of 512 MiB/);
  }, 180_000);

  it('refuses extraction SQL holding a NUL byte, and records it whole', async () => {
    const sql = 'SELECT * FROM "{table}"\u0000; SELECT 1 AS total_revenue';
    script(standard, { total_revenue: { extractionSql: sql } });
    const run = spawnNao(standard, ['-s', 'total_revenue']);
    expect((await run.ended).code).toBe(1);
    const result = (await resultsOf(standard)).get('total_revenue')!;
    expect(result.status).toBe('error');
    expect(result.message).toContain('NUL character (U+0000)');
    // Recorded whole: the text after the NUL too.
    expect(result.details.extraction_sql).toContain('\u0000; SELECT 1 AS total_revenue');
  }, 120_000);

  it('exits 130 within 5 s of a Ctrl-C while an uninterruptible extraction runs', async () => {
    script(standard, { total_revenue: { extractionSql: UNINTERRUPTIBLE } });
    const before = server.requests.length;
    const run = spawnNao(standard, ['-s', 'total_revenue']);
    // The extraction request is the one asking for structured output; its query starts next.
    for (let i = 0; i < 600 && !server.requests.slice(before).some((request) => request.wantsJson); i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const interrupted = performance.now();
    run.child.kill('SIGINT');
    const { code } = await run.ended;
    expect(code).toBe(130);
    expect((performance.now() - interrupted) / 1000).toBeLessThan(5);
    const file = await latestResults(standard.dir);
    expect(file.interrupted).toBe(true);
  }, 120_000);
});
