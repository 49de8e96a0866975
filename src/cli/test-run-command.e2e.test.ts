import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { copyExampleProject, type ExampleCopy } from '../../test-support/cli/example-project.js';
import { latestResults as latestProjectResults, runNao } from '../../test-support/cli/run-cli.js';
import {
  type ScriptFunction,
  type ScriptRequest,
  startTestLlmServer,
  type TestLlmServer,
} from '../../test-support/llm-server/index.js';
import { type ScriptedAnswer, scriptedAnalyst } from '../../test-support/llm-server/scripted-analyst.js';
import { failedRuns, type ResultsFile } from '../results/index.js';

let answers: Record<string, ScriptedAnswer> = {};
/** Optional per-request override, e.g. to make one test flaky. */
let override: ((request: ScriptRequest) => ReturnType<ScriptFunction> | undefined) | undefined;
let server: TestLlmServer;
let project: ExampleCopy;

beforeAll(async () => {
  server = await startTestLlmServer({
    script: (request) => override?.(request) ?? scriptedAnalyst({ answers })(request),
  });
  project = await copyExampleProject({ baseUrl: server.url });
});
afterAll(async () => {
  await project.cleanup();
  await server.close();
});
afterEach(() => {
  answers = {};
  override = undefined;
});

/** Every example test answered with its own reference SQL: the agent is right. */
function correctAnswers(): Record<string, ScriptedAnswer> {
  return Object.fromEntries(project.tests.map((test) => [test.prompt, { sql: test.sql }]));
}

function nao(args: string[]) {
  return runNao({ args, cwd: project.dir });
}

function latestResults(): Promise<ResultsFile> {
  return latestProjectResults(project.dir);
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
    // Nothing wrote to the warehouse file during the run: the reference saw the agent's data.
    expect(revenue.details.snapshot_consistent).toBe(true);
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

  it('warns before the runs that a model priced without input_no_cache has no cost, and runs it', async () => {
    const configFile = path.join(project.dir, 'nao_config.yaml');
    const config = await readFile(configFile, 'utf8');
    await writeFile(
      configFile,
      config.replace(
        '        - id: gpt-4.1-mini\n',
        '        - id: gpt-4.1-mini\n        - id: house-model\n          costs:\n            output: 10\n',
      ),
    );
    try {
      answers = correctAnswers();
      const { code, stderr } = await nao([
        'test',
        '--local',
        '-s',
        'total_revenue',
        '-m',
        'openai:house-model',
      ]);
      expect(code).toBe(0);
      expect(stderr).toBe(
        'Warning: openai:house-model has prices without input_no_cache, and the built-in table does not know ' +
          'the model; its cost is reported as unknown. Declare input_no_cache under ' +
          'llm.providers[].models[].costs in nao_config.yaml.\n',
      );
      const result = (await latestResults()).results[0]!;
      expect(result).toMatchObject({ model: 'openai:house-model', passed: true, cost: null });
    } finally {
      await writeFile(configFile, config);
    }
  });
});

describe('nao test --local: runs that cannot be judged', () => {
  it('reports an extraction that fails twice as an error with the last SQL', async () => {
    answers = correctAnswers();
    answers['What was the revenue of the last quarter of 2025?'] = {
      sql: project.tests.find((test) => test.name === 'revenue_q4_2025')!.sql,
      extractionSql: 'SELECT no_such_column AS revenue FROM "{table}"',
    };
    const { code } = await nao(['test', '--local', '-s', 'revenue_q4_2025']);
    expect(code).toBe(1);
    const result = (await latestResults()).results[0]!;
    expect(result.status).toBe('error');
    expect(result.message).toMatch(/^answer extraction failed: /);
    expect(result.details.extraction_attempts).toBe(2);
    expect(result.details.extraction_sql).toContain('no_such_column');
    expect(result.details.reference_sql).toContain('2025-10-01');
  });

  it('reports a provider error as an error run and goes on with the others', async () => {
    answers = correctAnswers();
    answers['What is the total revenue from all orders?'] = { failWithStatus: 400 };
    const { code, stdout } = await nao(['test', '--local', '-s', 'total_revenue,return_rate']);
    expect(code).toBe(1);
    const results = (await latestResults()).results;
    expect(results.map((result) => result.status)).toEqual(['error', 'passed']);
    expect(results[0]!.message).toContain('400');
    expect(results[0]!.details.reference_sql).toContain('SUM(p.amount)');
    expect(stdout).toContain('1 passed, 0 failed, 1 error, 0 unverified, 2 total');
  });

  it('turns a run past --timeout into an error', async () => {
    answers = correctAnswers();
    answers['What percentage of orders were returned? Give it with two decimals.'] = {
      delayMs: 10_000,
      sql: 'SELECT 1',
    };
    const { code } = await nao([
      'test',
      '--local',
      '-s',
      'return_rate,total_revenue',
      // 3 s, not 1: the passing run must finish in time on a loaded CI machine too.
      '--timeout',
      '3',
      '-t',
      '2',
    ]);
    expect(code).toBe(1);
    const results = (await latestResults()).results;
    expect(results.map((result) => [result.name, result.status])).toEqual([
      ['return_rate', 'error'],
      ['total_revenue', 'passed'],
    ]);
    expect(results[0]!.message).toBe('timed out after 3 s');
  });

  it('makes a reference with more rows than agent.max_result_rows an error, never a match of the first rows', async () => {
    const configFile = path.join(project.dir, 'nao_config.yaml');
    const config = await readFile(configFile, 'utf8');
    const files = ['every_order.yml', 'first_orders.yml'].map((name) =>
      path.join(project.dir, 'tests', name),
    );
    const reference = 'sql: SELECT order_id FROM orders ORDER BY order_id\n';
    try {
      await writeFile(configFile, `${config}\nagent:\n  max_result_rows: 5\n`);
      await writeFile(files[0]!, `name: every_order\nprompt: List the id of every order.\n${reference}`);
      await writeFile(files[1]!, `name: first_orders\nprompt: List the ids of the orders.\n${reference}`);
      answers = {
        // Right, but its result is cut at 5 rows like the reference's.
        'List the id of every order.': { sql: 'SELECT order_id FROM orders ORDER BY order_id' },
        // Wrong: it stops at 5 rows, which are the reference's first 5.
        'List the ids of the orders.': { sql: 'SELECT order_id FROM orders ORDER BY order_id LIMIT 5' },
      };
      const { code, stdout } = await nao(['test', '--local', '-s', 'every_order,first_orders']);
      expect(code).toBe(1);
      expect(stdout).toContain('0 passed, 0 failed, 2 errors, 0 unverified, 2 total');
      for (const result of (await latestResults()).results) {
        expect(result).toMatchObject({ status: 'error', passed: false });
        expect(result.message).toBe(
          'reference SQL failed: database "shop" (duckdb): it returns more than 5 rows, the agent.max_result_rows ' +
            "limit at which the agent's query results are cut, so no answer can be compared whole. " +
            'Raise agent.max_result_rows in nao_config.yaml, or have the test ask for fewer rows.',
        );
      }
    } finally {
      await writeFile(configFile, config);
      await Promise.all(files.map((file) => rm(file, { force: true })));
    }
  });

  it('marks a test without sql or assertions unverified: exit 0 with a warning, 1 with --strict', async () => {
    const file = path.join(project.dir, 'tests', 'say_hello.yml');
    await writeFile(file, 'name: say_hello\nprompt: Say hello to the data team.\n');
    try {
      answers = { 'Say hello to the data team.': { text: 'Hello!' } };
      const plain = await nao(['test', '--local', '-s', 'say_hello']);
      expect(plain.code).toBe(0);
      expect(plain.stderr).toContain('1 run(s) unverified');
      expect(plain.stdout).toContain('0 passed, 0 failed, 0 errors, 1 unverified, 1 total');
      const result = (await latestResults()).results[0]!;
      expect(result).toMatchObject({ status: 'unverified', passed: false, message: 'no verification' });
      const strict = await nao(['test', '--local', '-s', 'say_hello', '--strict']);
      expect(strict.code).toBe(1);
    } finally {
      await rm(file);
    }
  });
});

describe('nao test --local: several models, threads and repeats', () => {
  it('prints the three tables and ranks models by pass rate, then cost', async () => {
    answers = correctAnswers();
    override = (request) =>
      request.model === 'gpt-4.1-mini' &&
      request.messages.some((m) => m.content.includes('total revenue from all orders'))
        ? scriptedAnalyst({
            answers: { 'What is the total revenue from all orders?': { sql: 'SELECT 1 AS total_revenue' } },
          })(request)
        : undefined;
    const { code, stdout } = await nao([
      'test',
      '--local',
      '-m',
      'openai:gpt-4.1-mini',
      '-m',
      'openai:gpt-4.1',
      '-s',
      'total_revenue,return_rate',
    ]);
    expect(code).toBe(1);
    expect(stdout).toContain('Performance by Model');
    expect(stdout).toContain('Pass / Fail by Test and Model');
    const file = await latestResults();
    // Configured order in results; ranking (100% before 50%) in by_model.
    expect(file.results.map((result) => `${result.model} ${result.name}`)).toEqual([
      'openai:gpt-4.1-mini total_revenue',
      'openai:gpt-4.1-mini return_rate',
      'openai:gpt-4.1 total_revenue',
      'openai:gpt-4.1 return_rate',
    ]);
    expect(file.by_model.map((model) => [model.model, model.pass_rate])).toEqual([
      ['openai:gpt-4.1', 100],
      ['openai:gpt-4.1-mini', 50],
    ]);
    const performance = stdout.slice(stdout.indexOf('Performance by Model'));
    expect(performance.indexOf('gpt-4.1 ')).toBeLessThan(performance.indexOf('gpt-4.1-mini'));
  });

  it('keeps discovery order with -t 8 whatever order runs finish in', async () => {
    answers = Object.fromEntries(
      project.tests.map((test, index) => [test.prompt, { sql: test.sql, delayMs: ((index * 7) % 4) * 40 }]),
    );
    const { code } = await nao(['test', '--local', '-t', '8']);
    expect(code).toBe(0);
    expect((await latestResults()).results.map((result) => result.name)).toEqual(
      project.tests.map((test) => test.name),
    );
  });

  it('--repeat 3 reports c/K, pass@k and a flaky mark', async () => {
    answers = correctAnswers();
    let calls = 0;
    override = (request) => {
      if (!request.messages.some((m) => m.content.includes('total revenue from all orders')))
        return undefined;
      // The second attempt answers wrongly: its first request (the agent's) is the 4th call.
      if (request.tools.length > 0 && request.messages.filter((m) => m.role === 'tool').length === 0) calls++;
      return calls === 2
        ? scriptedAnalyst({
            answers: { 'What is the total revenue from all orders?': { sql: 'SELECT 2 AS total_revenue' } },
          })(request)
        : undefined;
    };
    const { code, stdout } = await nao(['test', '--local', '-s', 'total_revenue', '--repeat', '3']);
    expect(code).toBe(1);
    const file = await latestResults();
    expect(file.results.map((result) => [result.attempt, result.status])).toEqual([
      [1, 'passed'],
      [2, 'failed'],
      [3, 'passed'],
    ]);
    expect(file.repeats).toEqual([
      expect.objectContaining({ name: 'total_revenue', runs: 3, passes: 2, pass_at_k: 1, flaky: true }),
    ]);
    expect(stdout).toMatch(/flaky/i);
  });

  it('--max-cost stops scheduling and records the rest as skipped', async () => {
    answers = correctAnswers();
    const { code, stderr } = await nao(['test', '--local', '--max-cost', '0.02']);
    expect(code).toBe(1);
    expect(stderr).toContain('Budget reached');
    const file = await latestResults();
    const statuses = file.results.map((result) => result.status);
    expect(statuses.filter((status) => status === 'passed').length).toBeGreaterThanOrEqual(1);
    expect(statuses.at(-1)).toBe('skipped');
    expect(file.results.at(-1)!.message).toBe('skipped: --max-cost reached');
    expect(file.summary.skipped).toBe(statuses.filter((status) => status === 'skipped').length);
  });
});

describe('nao test: JUnit, summary and diff on saved files', () => {
  it('writes JUnit whose counts match the results file', async () => {
    answers = correctAnswers();
    answers['What is the total revenue from all orders?'] = { sql: 'SELECT 3 AS total_revenue' };
    answers['What percentage of orders were returned? Give it with two decimals.'] = { failWithStatus: 400 };
    const junit = path.join(project.dir, 'junit.xml');
    const { code } = await nao(['test', '--local', '--junit', junit]);
    expect(code).toBe(1);
    const xml = await readFile(junit, 'utf8');
    const file = await latestResults();
    expect(xml.startsWith('<?xml')).toBe(true);
    expect(xml.match(/<testcase /g)).toHaveLength(file.results.length);
    expect(xml.match(/<failure /g)).toHaveLength(failedRuns(file.summary));
    expect(xml.match(/<error /g)).toHaveLength(file.summary.errors);
    expect(xml).toMatch(/<testsuite [^>]*name="openai:gpt-4.1"[^>]*tests="10"/);
    expect(xml).toMatch(/<testsuite [^>]*failures="1"/);
  });

  it('summary prints the latest file; diff finds the regression and exits 1', async () => {
    answers = correctAnswers();
    expect((await nao(['test', '--local', '-s', 'total_revenue,return_rate'])).code).toBe(0);
    answers['What is the total revenue from all orders?'] = { sql: 'SELECT 4 AS total_revenue' };
    expect((await nao(['test', '--local', '-s', 'total_revenue,return_rate'])).code).toBe(1);

    const summary = await nao(['test', 'summary']);
    expect(summary.code).toBe(0);
    expect(summary.stdout).toContain('1 passed, 1 failed, 0 errors, 0 unverified, 2 total');
    const json = await nao(['test', 'summary', '--json']);
    expect(JSON.parse(json.stdout).summary).toMatchObject({ total: 2, passed: 1, failed: 1 });

    const diff = await nao(['test', 'diff', '--last']);
    expect(diff.code).toBe(1);
    expect(diff.stdout).toMatch(/regression/i);
    expect(diff.stdout).toContain('total_revenue');
    expect((await nao(['test', 'diff', '--last', '--no-fail'])).code).toBe(0);
    expect((await nao(['test', 'diff', '--last', '--test', 'return_rate'])).code).toBe(0);
  });
});

describe('nao test: exit code 2 when it cannot start', () => {
  it.each([
    [['test', '--local', '-m', 'gpt-4.1'], 'provider:model_id'],
    [['test', '--local', '-m', 'nope:x'], 'unknown provider "nope"'],
    [['test', '--local', '-s', 'no_such_test'], 'Test not found: no_such_test'],
    [['test', '--local', '-t', 'many'], '-t/--threads must be a whole number'],
    [['test', '--local', '--timeout', '-1'], '--timeout must be a number > 0'],
    [
      ['test', '--local', '--timeout', '3000000'],
      '--timeout must be at most 2147483 seconds (about 24 days)',
    ],
    [['test', '--local', '--bogus'], "unknown option '--bogus'"],
  ])('%j', async (args, message) => {
    const { code, stderr } = await nao(args);
    expect(code).toBe(2);
    expect(stderr).toContain(message);
  });

  it('reports an invalid test file, not the runtime opened meanwhile, and runs nothing', async () => {
    const broken = await copyExampleProject({ baseUrl: server.url });
    try {
      await writeFile(path.join(broken.dir, 'tests', 'broken.yml'), 'name: broken\nprompt: [unclosed\n');
      const { code, stderr } = await runNao({ args: ['test', '--local'], cwd: broken.dir });
      expect(code).toBe(2);
      expect(stderr).toContain('Invalid test files');
      expect(stderr).toContain('broken.yml');
      await expect(readdir(path.join(broken.dir, 'tests', 'outputs'))).rejects.toThrow();
    } finally {
      await broken.cleanup();
    }
  });
});
