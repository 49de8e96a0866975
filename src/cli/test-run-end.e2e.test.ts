/**
 * The end of a `nao test` run as the built binary prints it, against the wire-protocol test
 * server: a suite with a data mismatch, a failed assertion, a provider error and an unverified
 * test gets a recap that says why, one total cost and the wall clock, and `-q` keeps only that.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_NAO, spawnBuiltNao } from '../../test-support/cli/built-nao.js';
import { copyExampleProject, type ExampleCopy, REPO_ROOT } from '../../test-support/cli/example-project.js';
import { latestResults } from '../../test-support/cli/run-cli.js';
import { startTestLlmServer, type TestLlmServer } from '../../test-support/llm-server/index.js';
import { type ScriptedAnswer, scriptedAnalyst } from '../../test-support/llm-server/scripted-analyst.js';
import { elapsedMs, formatCost, formatSeconds } from '../number-format/format-values.js';
import { type ResultsFile, spentUsd } from '../results/index.js';

let answers: Record<string, ScriptedAnswer> = {};
let server: TestLlmServer;
let project: ExampleCopy;

const SALES = 'What were the sales of coffee and tea?';
const RECENT = 'List the three most recent orders with their date.';
const REVENUE = 'What is the revenue of 2025?';
const HELLO = 'Say hello to the shop.';
const CUSTOMERS = 'How many customers are there?';

const RECENT_SQL = 'SELECT order_id, order_date FROM orders ORDER BY order_date DESC, order_id LIMIT 3';
// 1.1 + 2.2 and 0.1 + 0.2 are doubles with binary noise: 3.3000000000000003, 0.30000000000000004.
const SALES_SQL =
  "SELECT 'coffee' AS product, 1.1::DOUBLE + 2.2::DOUBLE AS sales UNION ALL SELECT 'tea', 5.0::DOUBLE";
const WRONG_SALES_SQL =
  "SELECT 'coffee' AS product, 0.1::DOUBLE + 0.2::DOUBLE AS sales UNION ALL SELECT 'tea', 5.0::DOUBLE";

/** Nine assertions of which the seventh fails (the agent returns 3 rows, not 4). */
const NINE_ASSERTIONS = [
  '  - {type: no_error}',
  '  - {type: max_tool_calls, max: 5}',
  '  - {type: max_tool_calls, max: 5, tool: execute_sql}',
  '  - {type: max_cost_usd, max: 1}',
  '  - {type: max_tokens, max: 100000}',
  '  - {type: row_count, min: 1}',
  '  - {type: row_count, equals: 4}',
  '  - {type: columns, names: [order_id, order_date]}',
  '  - {type: response_not_matches, pattern: "sorry"}',
];

const FILES: Record<string, string[]> = {
  a_sales: [`prompt: ${SALES}`, 'sql: |', `  ${SALES_SQL}`],
  b_recent: [`prompt: ${RECENT}`, 'assertions:', ...NINE_ASSERTIONS],
  c_revenue: [`prompt: ${REVENUE}`, 'sql: SELECT 1 AS revenue'],
  d_hello: [`prompt: ${HELLO}`],
  e_customers: [`prompt: ${CUSTOMERS}`, 'sql: SELECT count(*) AS customers FROM customers'],
};

beforeAll(async () => {
  if (!existsSync(path.join(REPO_ROOT, 'dist', 'cli', 'main.js'))) {
    throw new Error(
      'dist/ is missing: these tests run the built `nao` binary; run `npm run build` (npm test does).',
    );
  }
  server = await startTestLlmServer({ script: (request) => scriptedAnalyst({ answers })(request) });
  project = await copyExampleProject({ baseUrl: server.url });
  const dir = path.join(project.dir, 'tests', 'ending');
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  for (const [name, lines] of Object.entries(FILES)) {
    await writeFile(path.join(dir, `${name}.yml`), `${lines.join('\n')}\n`);
  }
});
afterAll(async () => {
  await project?.cleanup();
  await server?.close();
});

/** The agent gets the sales wrong, breaks one assertion, hits a provider error, and is right once. */
function scripted(delayMs = 0): Record<string, ScriptedAnswer> {
  const delay = delayMs > 0 ? { delayMs } : {};
  return {
    [SALES]: { sql: WRONG_SALES_SQL, text: 'Coffee sold 0.3, tea 5.', ...delay },
    [RECENT]: { sql: RECENT_SQL, text: 'The three most recent orders are listed above.', ...delay },
    [REVENUE]: { failWithStatus: 400, ...delay },
    [HELLO]: { sql: 'SELECT 1', text: 'Hello!', ...delay },
    [CUSTOMERS]: {
      sql: 'SELECT count(*) AS customers FROM customers',
      text: 'There are 400 customers.',
      ...delay,
    },
  };
}

function spawnNao(args: string[]) {
  const nao = spawnBuiltNao({ args, cwd: project.dir, env: { COLUMNS: '160' } });
  return { code: nao.ended.then(({ code }) => code), output: nao.output };
}

/**
 * The one total a run's outputs must all show: agent, extraction and judge of every run, a
 * lower bound ("≥") when a run has no known cost (the provider error here).
 */
function totalCost(file: ResultsFile): string {
  const spent = file.results.reduce((sum, result) => sum + (spentUsd(result) ?? 0), 0);
  const lowerBound = file.summary.runs_without_cost > 0 ? '≥' : '';
  return `${lowerBound}${formatCost(Math.round(spent * 1e10) / 1e10)}`;
}

// Each test spawns the built binary for a five-run suite: slower than the default limit on a busy machine.
const SPAWNED = { timeout: 90_000 };

describe('the end of nao test', () => {
  it(
    'recaps why each run did not pass, with one total cost and the wall clock, after the tables',
    SPAWNED,
    async () => {
      answers = scripted();
      const run = spawnNao(['test', '--local', '-s', 'ending', '-t', '2']);
      expect(await run.code).toBe(1);
      const { stdout } = run.output();
      const file = await latestResults(project.dir);
      const byName = Object.fromEntries(file.results.map((result) => [result.name, result]));
      expect(file.results.map((result) => result.status)).toEqual([
        'failed',
        'failed',
        'error',
        'unverified',
        'passed',
      ]);

      // The recap comes after every table and before the final line.
      const recapStart = stdout.indexOf('Runs that did not pass (2 failed, 1 error)');
      expect(recapStart).toBeGreaterThan(stdout.lastIndexOf('└'));
      const recap = stdout.slice(recapStart).split('\n');
      const block = (name: string) =>
        recap.slice(recap.findIndex((line) => line.startsWith(`✗ ${name}`) || line.startsWith(`! ${name}`)));

      // A data mismatch: the headline, then the differing rows aligned, doubles without binary noise.
      expect(block('a_sales').slice(0, 5)).toEqual([
        '✗ a_sales · openai:gpt-4.1',
        '  values differ: 1 changed row (of 2 rows)',
        '                    product  sales',
        '  - expected row 0  coffee   3.3',
        '  + actual row 0    coffee   0.3',
      ]);
      // The file keeps the exact values; the saved diff text shows them as a person reads them.
      expect(byName.a_sales?.details.actual_data?.[0]?.sales).toBe(0.30000000000000004);
      expect(byName.a_sales?.details.diff?.text).toContain('sales: expected 3.3, actual 0.3');
      expect(stdout).not.toContain('0.30000000000000004');
      expect(stdout).not.toContain('3.3000000000000003');

      // The seventh assertion of nine is the reason, in the recap and in the table's message.
      expect(block('b_recent').slice(0, 2)).toEqual([
        '✗ b_recent · openai:gpt-4.1',
        '  row_count: the answer has 3 rows, expected exactly 4',
      ]);
      expect(
        byName.b_recent?.message.indexOf('row_count: the answer has 3 rows, expected exactly 4'),
      ).toBeGreaterThan(100);
      expect(stdout).toMatch(/│ b_recent +│ openai:gpt-4\.1 +│ ✗ failed +│ row_count: the answer has 3 ro/);

      expect(block('c_revenue')[0]).toBe('! c_revenue · openai:gpt-4.1');
      expect(block('c_revenue')[1]).toMatch(/^ {2}\S/);
      expect(block('c_revenue')[1]).toContain('400');
      expect(recap).toContain(
        '1 run unverified: its test has no sql, expected_answer or assertions, so nothing was checked.',
      );
      expect(recap.some((line) => line.includes('e_customers'))).toBe(false);

      // One total (agent + extraction) in the Total row and the final line; the time is the wall clock.
      const total = totalCost(file);
      const extraction = file.summary.total_extraction_cost ?? 0;
      expect(extraction).toBeGreaterThan(0);
      const wallClock = formatSeconds(
        elapsedMs(file.started_at ?? null, file.finished_at ?? null) ?? Number.NaN,
      );
      const summed = formatSeconds(file.summary.total_duration_ms);
      const totalRow = stdout.split('\n').find((line) => line.startsWith('│ Total'));
      expect(totalRow).toMatch(new RegExp(`│ +${escapeRegExp(total)} │ +${escapeRegExp(wallClock)} │`));
      const finalLine = stdout.trimEnd().split('\n').at(-2);
      expect(finalLine).toBe(
        `1 passed, 2 failed, 1 error, 1 unverified, 5 total · ${total} in all ` +
          `(agent ${formatCost(file.summary.total_cost)} + extraction ${formatCost(extraction)}) · ` +
          `${wallClock} s wall clock (${summed} s summed over runs)`,
      );
      expect(stdout.trimEnd().split('\n').at(-1)).toMatch(/^Results saved to /);
      // Each run's line shows what it spent in all, in the one cost format.
      const priced = file.results.filter((result) => spentUsd(result) !== null);
      for (const result of priced) {
        expect(stdout).toMatch(
          new RegExp(`\\] \\S+ \\S+ +${result.name} .* ${escapeRegExp(formatCost(spentUsd(result)))}\\n`),
        );
      }
    },
  );

  it('keeps only the recap and the final line with -q', SPAWNED, async () => {
    answers = scripted();
    const run = spawnNao(['test', '--local', '-s', 'ending', '-q']);
    expect(await run.code).toBe(1);
    const { stdout } = run.output();
    expect(stdout).not.toMatch(/Test Results|Running|\[1\/5\]|[┏│└]/);
    const lines = stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('Runs that did not pass (2 failed, 1 error)');
    expect(lines).toContain('  row_count: the answer has 3 rows, expected exactly 4');
    expect(lines.at(-2)).toMatch(
      /^1 passed, 2 failed, 1 error, 1 unverified, 5 total · ≥\$[\d.]+ in all .* s wall clock/,
    );
    expect(lines.at(-1)).toMatch(/^Results saved to /);
  });

  it(
    'draws the progress line in a terminal as the suite starts, with the cost the totals count',
    SPAWNED,
    async () => {
      if (!existsSync('/usr/bin/script') && !existsSync('/bin/script')) {
        throw new Error('util-linux `script` is missing: this test needs it for a pseudo-terminal.');
      }
      answers = scripted();
      const run = spawnNaoInTerminal(['test', '--local', '-s', 'ending', '-t', '1', '--no-color']);
      expect(await run.code).toBe(1);
      // Each redraw clears the line first; run lines end with a newline (CRLF through the terminal).
      const pieces = run
        .output()
        .replace(/\r\n/g, '\n')
        .split('\r\u001b[2K')
        .flatMap((piece) => piece.split('\n'))
        .filter((piece) => piece !== '');
      expect(pieces[0]).toMatch(
        /^0\/5 done · 0 passed · 0 failed · 0 errors · \$0 · \d+\.\ds elapsed · ETA …$/,
      );
      const file = await latestResults(project.dir);
      const byName = new Map(file.results.map((result) => [result.name, result]));
      // After each finished run, the live line's cost is what the finished runs spent in all.
      let finished = 0;
      let spent = 0;
      let checked = 0;
      for (const piece of pieces) {
        const line = /^\[(\d)\/5\] \S+ +\S+ +(\S+) /.exec(piece);
        if (line) {
          finished++;
          spent += spentUsd(byName.get(line[2] ?? '')!) ?? 0;
          continue;
        }
        const live = /^(\d)\/5 done · .* · (\S+) · [\d.]+s elapsed/.exec(piece);
        if (live && Number(live[1]) === finished && finished > 0) {
          expect(live[2]).toBe(formatCost(Math.round(spent * 1e10) / 1e10));
          checked++;
        }
      }
      expect(checked).toBeGreaterThanOrEqual(4);
      expect(pieces.join('\n')).toContain(`5 total · ${totalCost(file)} in all`);
    },
  );

  it('says the suite started before its first run ends', SPAWNED, async () => {
    answers = scripted(1500);
    const run = spawnNao(['test', '--local', '-s', 'ending', '-t', '2']);
    let early = '';
    // However slow the machine is to start the binary, the first line must come before the first run ends.
    for (let i = 0; i < 1000 && early === ''; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      if (run.output().stdout !== '') early = run.output().stdout;
    }
    expect(early).toBe('Running 5 runs (5 tests × 1 model), 2 at a time…\n');
    expect(await run.code).toBe(1);
    expect(run.output().stdout).toMatch(/^Running 5 runs .*\n\[1\/5\] /);
  });
});

/** `nao …` with a terminal as its output (util-linux `script` gives it a pseudo-terminal). */
function spawnNaoInTerminal(args: string[]) {
  const command = [process.execPath, BUILT_NAO, ...args].map((part) => `'${part}'`).join(' ');
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    cwd: project.dir,
    env: { PATH: process.env.PATH },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  return {
    code: new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code))),
    output: () => output,
  };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
