/**
 * Every assertion type through the real CLI (`nao test --local`) against the wire-protocol
 * test server: the runs, the verdicts and the failure messages a user reads.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { copyExampleProject, type ExampleCopy } from '../../test-support/cli/example-project.js';
import { latestResults, runNao } from '../../test-support/cli/run-cli.js';
import { startTestLlmServer, type TestLlmServer } from '../../test-support/llm-server/index.js';
import { type ScriptedAnswer, scriptedAnalyst } from '../../test-support/llm-server/scripted-analyst.js';
import type { RunResult } from '../results/index.js';

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

/** Writes test files under tests/<folder>/ (replacing the folder), one per name. */
async function writeTests(folder: string, files: Record<string, string>): Promise<void> {
  const dir = path.join(project.dir, 'tests', folder);
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, `${name}.yml`), text);
}

function nao(args: string[]) {
  return runNao({ args, cwd: project.dir });
}

function byName(results: readonly RunResult[]): Record<string, RunResult> {
  return Object.fromEntries(results.map((result) => [result.name, result]));
}

const RECENT = 'List the three most recent orders with their date.';
const RETURNS = 'What percentage of orders were returned, in one sentence?';
const CHEAP = 'How many customers are there?';
const LAST_QUARTER = 'What was the revenue last quarter?';
const CLEAR = 'What was the revenue of 2025?';

const RECENT_SQL = 'SELECT order_id, order_date FROM orders ORDER BY order_date DESC, order_id LIMIT 3';

/** One test per assertion type; `fail` variants get assertions that this scripted agent breaks. */
const FILES = {
  rows_and_columns: [
    `prompt: ${RECENT}`,
    'assertions:',
    '  - {type: row_count, equals: 3}',
    '  - {type: row_count, min: 1, max: 10}',
    '  - {type: columns, names: [order_id, order_date]}',
  ],
  response_text: [
    `prompt: ${RETURNS}`,
    'assertions:',
    '  - {type: response_matches, pattern: "\\\\d+\\\\.\\\\d{2} ?%"}',
    '  - {type: response_not_matches, pattern: "sorry|cannot", ignore_case: true}',
  ],
  efficient: [
    `prompt: ${CHEAP}`,
    'assertions:',
    '  - {type: no_error}',
    '  - {type: max_tool_calls, max: 2}',
    '  - {type: max_tool_calls, max: 1, tool: execute_sql}',
    '  - {type: max_cost_usd, max: 1}',
    '  - {type: max_tokens, max: 100000}',
  ],
  asks: [
    `prompt: ${LAST_QUARTER}`,
    'allow_clarification: true',
    'assertions:',
    '  - type: asked_clarification',
  ],
  answers_directly: [
    `prompt: ${CLEAR}`,
    'allow_clarification: true',
    'assertions:',
    '  - {type: asked_clarification, expected: false}',
  ],
};

const yaml = (lines: string[]) => `${lines.join('\n')}\n`;

describe('assertions through nao test --local', () => {
  it('passes every assertion type when the agent does what they ask, each with its message', async () => {
    await writeTests(
      'checks',
      Object.fromEntries(Object.entries(FILES).map(([name, lines]) => [name, yaml(lines)])),
    );
    answers = {
      [RECENT]: { sql: RECENT_SQL, text: 'The three most recent orders are listed above.' },
      [RETURNS]: { sql: 'SELECT 1', text: 'The return rate is 5.12 % of all orders.' },
      [CHEAP]: { sql: 'SELECT count(*) AS customers FROM customers', text: 'There are 400 customers.' },
      [LAST_QUARTER]: { clarification: 'Do you mean Q4 2025, or the last three months?' },
      [CLEAR]: { sql: 'SELECT 1', text: 'Revenue in 2025 was 100.' },
    };

    const { code, stdout, stderr } = await nao(['test', '--local', '-s', 'checks']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain('All 5 test(s) passed');
    const results = byName((await latestResults(project.dir)).results);
    expect(results.rows_and_columns).toMatchObject({
      status: 'passed',
      message:
        'row_count: 3 rows (exactly 3); row_count: 3 rows (between 1 and 10); columns: order_id, order_date',
    });
    expect(results.rows_and_columns?.details.actual_columns).toEqual(['order_id', 'order_date']);
    expect(results.rows_and_columns?.details.extraction_sql).toContain('SELECT');
    expect(results.response_text?.message).toBe(
      'response_matches /\\d+\\.\\d{2} ?%/; response_not_matches /sorry|cannot/i',
    );
    expect(results.efficient?.message).toMatch(
      /^no_error: 1 tool call, none failed; max_tool_calls: 1 call \(max 2\); max_tool_calls: 1 execute_sql call \(max 1\); max_cost_usd: \$0\.\d+ \(max \$1\); max_tokens: 2,200 \(max 100,000\)$/,
    );
    expect(results.asks).toMatchObject({
      status: 'passed',
      message: 'asked_clarification: "Do you mean Q4 2025, or the last three months?"',
    });
    expect(results.asks?.details.clarification).toEqual({
      question: 'Do you mean Q4 2025, or the last three months?',
      options: [],
    });
    expect(results.asks?.details.finish_reason).toBe('clarification');
    expect(results.answers_directly?.message).toBe('asked_clarification: none (as expected)');
    expect(results.rows_and_columns?.details.assertions.map((assertion) => assertion.type)).toEqual([
      'row_count',
      'row_count',
      'columns',
    ]);
  });

  it('fails each assertion type with a message that says what went wrong', async () => {
    await writeTests(
      'checks',
      Object.fromEntries(Object.entries(FILES).map(([name, lines]) => [name, yaml(lines)])),
    );
    answers = {
      [RECENT]: { sql: 'SELECT order_id AS id FROM orders ORDER BY order_date DESC LIMIT 2' },
      [RETURNS]: { sql: 'SELECT 1', text: 'Sorry, I cannot compute the return rate.' },
      [CHEAP]: {
        sql: ['SELECT count(*) FROM no_such_table', 'SELECT count(*) AS customers FROM customers'],
        text: 'There are 400 customers.',
      },
      [LAST_QUARTER]: { sql: 'SELECT 1', text: 'Revenue last quarter was 100.' },
      [CLEAR]: { clarification: 'Which currency?' },
    };
    const { code, stdout } = await nao(['test', '--local', '-s', 'checks']);
    expect(code).toBe(1);
    expect(stdout).toContain('0 passed, 5 failed, 0 errors, 0 unverified, 5 total');
    const results = byName((await latestResults(project.dir)).results);
    expect(results.rows_and_columns).toMatchObject({
      status: 'failed',
      message:
        'row_count: the answer has 2 rows, expected exactly 3; row_count: 2 rows (between 1 and 10); ' +
        'missing columns: order_id, order_date (the answer has id)',
    });
    expect(results.response_text?.message).toBe(
      'response does not match /\\d+\\.\\d{2} ?%/ (response: "Sorry, I cannot compute the return rate."); ' +
        'response matches /sorry|cannot/i, which it must not ("Sorry")',
    );
    const efficient = results.efficient!.message.split('; ');
    expect(efficient[0]).toMatch(/^no_error: 1 of 2 tool calls failed, first execute_sql: .*no_such_table/);
    expect(efficient[1]).toBe('max_tool_calls: 2 calls (max 2)');
    expect(efficient[2]).toBe('too many tool calls: 2 execute_sql calls, max 1');
    expect(efficient[4]).toBe('max_tokens: 3,300 (max 100,000)');
    expect(results.asks?.message).toBe('the agent answered without asking the clarifying question expected');
    expect(results.answers_directly?.message).toBe(
      'the agent asked a clarifying question instead of answering: "Which currency?"',
    );
  });

  it('fails the cost and token limits, and cannot check a cost without a price', async () => {
    await writeTests('checks', {
      budget: yaml([
        `prompt: ${CHEAP}`,
        'assertions:',
        '  - {type: max_cost_usd, max: 0.000001}',
        '  - {type: max_tokens, max: 1000}',
      ]),
    });
    answers = {
      [CHEAP]: { sql: 'SELECT count(*) AS customers FROM customers', text: 'There are 400 customers.' },
    };
    const priced = await nao(['test', '--local', '-s', 'checks']);
    expect(priced.code).toBe(1);
    const run = (await latestResults(project.dir)).results[0]!;
    expect(run.status).toBe('failed');
    expect(run.message).toMatch(
      /^too expensive: the agent spent \$0\.\d+, max \$0\.000001; too many tokens: the agent used 2,200, max 1,000$/,
    );

    const unpriced = await nao(['test', '--local', '-s', 'checks', '-m', 'openai:house-alias']);
    expect(unpriced.code).toBe(1);
    expect((await latestResults(project.dir)).results[0]).toMatchObject({
      status: 'error',
      message:
        'max_cost_usd cannot be checked: the model has no price (give it `costs` under llm.providers[].models in nao_config.yaml)',
    });
  });

  it('counts the rows of a test with sql too, next to the comparison', async () => {
    await writeTests('checks', {
      with_sql: yaml([
        `prompt: ${RECENT}`,
        'sql: |',
        `  ${RECENT_SQL}`,
        'assertions:',
        '  - {type: row_count, max: 2}',
      ]),
    });
    answers = { [RECENT]: { sql: RECENT_SQL } };
    expect((await nao(['test', '--local', '-s', 'checks'])).code).toBe(1);
    expect((await latestResults(project.dir)).results[0]).toMatchObject({
      status: 'failed',
      message: 'match; row_count: the answer has 3 rows, expected at most 2',
    });
  });

  it('refuses invalid assertions before anything runs (exit 2), naming file, entry and field', async () => {
    await writeTests('checks', {
      bad: yaml([
        `prompt: ${CHEAP}`,
        'assertions:',
        '  - {type: row_count, min: 5, max: 2}',
        '  - {type: response_matches, pattern: "(\\\\w) \\\\1"}',
        '  - {type: max_tool_calls, maximum: 3}',
        '  - {type: asked_clarification}',
      ]),
    });
    const requestsBefore = server.requests.length;
    const { code, stderr } = await nao(['test', '--local', '-s', 'checks']);
    expect(code).toBe(2);
    expect(stderr).toContain('checks/bad.yml');
    expect(stderr).toContain('assertions[0].min: must not be larger than max (2)');
    expect(stderr).toContain('assertions[1].pattern: the pattern /(\\w) \\1/ uses the backreference \\1');
    expect(stderr).toContain('assertions[2].max: must be an integer >= 0');
    expect(stderr).toContain(
      'assertions[2].maximum: unknown field of a max_tool_calls assertion (allowed: type, max, tool)',
    );
    expect(stderr).toContain('an asked_clarification assertion needs `allow_clarification: true`');
    expect(server.requests.length).toBe(requestsBefore);
  });

  it('nao test show describes every assertion', async () => {
    await writeTests(
      'checks',
      Object.fromEntries(Object.entries(FILES).map(([name, lines]) => [name, yaml(lines)])),
    );
    const { code, stdout } = await nao(['test', 'show', 'checks']);
    expect(code).toBe(0);
    expect(stdout).toContain('  - row_count: exactly 3 rows in the answer');
    expect(stdout).toContain('  - columns: the answer has the columns order_id, order_date');
    expect(stdout).toContain('  - response_not_matches: the response does not match /sorry|cannot/i');
    expect(stdout).toContain('  - max_tool_calls: at most 1 execute_sql calls');
    expect(stdout).toContain('  - asked_clarification: the agent asks a clarifying question');
    expect(stdout).toContain('The agent may ask a clarifying question (allow_clarification: true)');
  });
});
