/**
 * A tests/outputs/ folder with known results for the viewer's tests: an old file without
 * `by_model`, a two-model file with every status, and a --repeat 3 file. The numbers the
 * tests assert are spelled out next to the runs that produce them.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  buildResultsFile,
  type DiffRecord,
  type RunResult,
  type RunStatus,
} from '../../src/results/index.js';
import { compareResults, formatDiff } from '../../src/verdict/compare/index.js';
import type { CellValue } from '../../src/warehouse/database.js';

export const GPT = 'openai:gpt-4.1';
export const CLAUDE = 'anthropic:claude-sonnet-4-5';

export const FILES = {
  old: 'results_20250101_100000.json',
  multi: 'results_20250102_100000.json',
  repeat: 'results_20250103_100000.json',
  broken: 'results_20241231_000000.json',
} as const;

/** Model output that would run script if it were ever put into the page as HTML. */
export const HOSTILE_TEXT =
  '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script> & "quotes"';

const SQL: Record<string, string> = {
  total_revenue:
    "SELECT SUM(p.amount) AS total_revenue FROM payments p JOIN orders o ON o.order_id = p.order_id WHERE o.status <> 'returned'",
  top_customers:
    'SELECT customer_id, SUM(amount) AS revenue FROM payments GROUP BY customer_id ORDER BY revenue DESC LIMIT 3',
  orders_by_status: 'SELECT status, COUNT(*) AS orders FROM orders GROUP BY status',
  monthly_revenue:
    "SELECT date_trunc('month', paid_at) AS month, SUM(amount) AS revenue FROM payments GROUP BY 1",
  removed_test: 'SELECT 1 AS one',
};

interface Table {
  columns: string[];
  rows: CellValue[][];
}

const DATA: Record<string, Table> = {
  total_revenue: { columns: ['total_revenue'], rows: [['202201.54']] },
  top_customers: {
    columns: ['customer_id', 'revenue'],
    rows: [
      [80, '1559.64'],
      [171, '1288.55'],
      [58, '1233.65'],
    ],
  },
  orders_by_status: {
    columns: ['status', 'orders'],
    rows: [
      ['completed', 812],
      ['returned', 41],
    ],
  },
  monthly_revenue: {
    columns: ['month', 'revenue'],
    rows: [
      ['2025-01-01', '10.5'],
      ['2025-02-01', '20.25'],
      ['2025-03-01', '30'],
    ],
  },
  removed_test: { columns: ['one'], rows: [[1]] },
};

/** What a wrong answer returned, per test (the expected data is DATA). */
const WRONG: Record<string, Table> = {
  total_revenue: { columns: ['total_revenue'], rows: [['218098.37']] },
  top_customers: {
    columns: ['customer_id', 'revenue'],
    rows: [
      [80, '1559.64'],
      [171, '1300.00'],
      [58, '1233.65'],
    ],
  },
  monthly_revenue: {
    columns: ['month', 'revenue'],
    rows: [
      ['2025-01-01', '10.5'],
      ['2025-02-01', '20.25'],
    ],
  },
};

function records(table: Table): Record<string, CellValue>[] {
  return table.rows.map((row) =>
    Object.fromEntries(table.columns.map((column, index) => [column, row[index] ?? null])),
  );
}

/**
 * A run of `test` on `model`: passed and failed runs carry two tool calls (a one-line
 * execute_sql, then a list), data on both sides and, when failed, the real comparison diff.
 * Tokens: 1,200 on GPT and 800 on Claude; cost 0.01 on GPT and unknown on Claude; 1.5 s each.
 */
export function fixtureRun(options: {
  test: string;
  model: string;
  status: RunStatus;
  attempt?: number;
}): RunResult {
  const { test, model, status } = options;
  const gpt = model === GPT;
  const judged = status === 'passed' || status === 'failed';
  const expected = DATA[test] ?? DATA.removed_test!;
  const actual = status === 'failed' ? (WRONG[test] ?? expected) : expected;
  const comparison = judged ? compareResults({ actual, expected }) : null;
  const diff: DiffRecord | null = comparison?.diff
    ? ({ ...comparison.diff, text: formatDiff(comparison.diff) } as DiffRecord)
    : null;
  const sql = test === 'say_hello' ? null : (SQL[test] ?? SQL.removed_test!);
  const toolCalls = judged
    ? [
        {
          tool_name: 'execute_sql',
          tool_call_id: `call_${test}_1`,
          toolName: 'execute_sql',
          toolCallId: `call_${test}_1`,
          args: { sql_query: sql ?? '', database_id: 'shop' },
          result: {
            id: 'query_0123abcd',
            database_id: 'shop',
            columns: actual.columns.map((name) => ({ name, type: 'VARCHAR' })),
            row_count: actual.rows.length,
            rows: actual.rows,
            has_more: false,
          },
        },
        {
          tool_name: 'list',
          tool_call_id: `call_${test}_2`,
          toolName: 'list',
          toolCallId: `call_${test}_2`,
          args: { path: 'docs/' },
          result: { entries: ['a.md'] },
        },
      ]
    : [];
  const messages: Record<RunStatus, string> = {
    passed: 'match',
    failed: comparison?.message ?? 'values differ',
    error: 'provider error: 500 Internal Server Error',
    unverified: 'no verification',
    skipped: 'skipped: --max-cost reached',
  };
  return {
    name: test,
    model,
    passed: status === 'passed',
    message: messages[status],
    tokens: status === 'skipped' ? 0 : gpt ? 1200 : 800,
    cost: status === 'skipped' || !gpt ? null : 0.01,
    duration_ms: status === 'skipped' ? 0 : 1500,
    tool_call_count: toolCalls.length,
    error: status === 'error' ? messages.error : null,
    status,
    attempt: options.attempt ?? 1,
    file: `${test}.yml`,
    details: {
      prompt: `Question for ${test}?`,
      response_text:
        status === 'error'
          ? null
          : test === 'total_revenue' && !gpt
            ? HOSTILE_TEXT
            : `The answer for ${test}.`,
      actual_data: judged ? records(actual) : null,
      expected_data: judged ? records(expected) : null,
      actual_columns: judged ? actual.columns : null,
      expected_columns: judged ? expected.columns : null,
      actual_row_count: judged ? actual.rows.length : null,
      expected_row_count: judged ? expected.rows.length : null,
      reference_sql: sql,
      tool_calls: toolCalls,
      extraction_sql: judged ? 'SELECT * FROM "query_0123abcd"' : null,
      extraction_error: null,
      extraction_attempts: judged ? 1 : 0,
      diff,
      comparison: diff?.text ?? null,
      verification_sql: judged ? 'SELECT * FROM "query_0123abcd"' : null,
      assertions: [],
      error: status === 'error' ? messages.error : null,
      finish_reason: status === 'error' ? null : 'stop',
      usage: null,
      cost_breakdown: null,
      extraction_usage: null,
      extraction_cost: null,
      snapshot_consistent: judged ? true : null,
      replayed: false,
    },
  };
}

type Plan = [test: string, model: string, status: RunStatus][];

/**
 * Old file (2025-01-01), without by_model, status, attempt or file, as early versions wrote:
 * GPT 2/3 passed (66.7%), Claude 2/2 (100%).
 */
const OLD: Plan = [
  ['total_revenue', GPT, 'failed'],
  ['total_revenue', CLAUDE, 'passed'],
  ['top_customers', GPT, 'passed'],
  ['top_customers', CLAUDE, 'passed'],
  ['removed_test', GPT, 'passed'],
];

/**
 * Two models, every status (2025-01-02). 10 runs: 5 passed, 2 failed, 1 error, 2 unverified
 * → 50.0%. Claude 3/5 (60%), GPT 2/5 (40%). Tokens 10,000; cost ≥$0.05 (Claude unpriced);
 * 15.0 s; 14 tool calls. Against the old file: 1 regression (total_revenue/Claude), 1 fix
 * (total_revenue/GPT), 2 unchanged, 6 added, 1 removed.
 */
const MULTI: Plan = [
  ['total_revenue', GPT, 'passed'],
  ['top_customers', GPT, 'passed'],
  ['orders_by_status', GPT, 'error'],
  ['say_hello', GPT, 'unverified'],
  ['monthly_revenue', GPT, 'failed'],
  ['total_revenue', CLAUDE, 'failed'],
  ['top_customers', CLAUDE, 'passed'],
  ['orders_by_status', CLAUDE, 'passed'],
  ['say_hello', CLAUDE, 'unverified'],
  ['monthly_revenue', CLAUDE, 'passed'],
];

/**
 * --repeat 3 (2025-01-03): total_revenue/Claude is flaky (P F P → 2/3, pass@3 1.00,
 * pass^3 0.30); top_customers/GPT fails every time. GPT 3/6 (50%), Claude 5/6 (83.3%).
 */
const REPEAT: Record<string, RunStatus[]> = {
  [JSON.stringify(['total_revenue', GPT])]: ['passed', 'passed', 'passed'],
  [JSON.stringify(['top_customers', GPT])]: ['failed', 'failed', 'failed'],
  [JSON.stringify(['total_revenue', CLAUDE])]: ['passed', 'failed', 'passed'],
  [JSON.stringify(['top_customers', CLAUDE])]: ['passed', 'passed', 'passed'],
};

function stripToOldFormat(file: ReturnType<typeof buildResultsFile>): unknown {
  const { by_model: _byModel, models: _models, repeats: _repeats, ...rest } = file;
  return {
    ...rest,
    results: file.results.map(({ status: _status, attempt: _attempt, file: _file, ...run }) => run),
  };
}

export async function writeViewerFixtures(outputsDir: string): Promise<void> {
  await mkdir(outputsDir, { recursive: true });
  const build = (plan: Plan, day: number) =>
    buildResultsFile({
      results: plan.map(([test, model, status]) => fixtureRun({ test, model, status })),
      now: new Date(2025, 0, day, 10, 0, 0),
      models: [GPT, CLAUDE],
    });
  const write = (name: string, data: unknown) =>
    writeFile(path.join(outputsDir, name), JSON.stringify(data, null, 2));

  await write(FILES.old, stripToOldFormat(build(OLD, 1)));
  await write(FILES.multi, build(MULTI, 2));
  const repeated: RunResult[] = [];
  for (const model of [GPT, CLAUDE]) {
    for (const test of ['total_revenue', 'top_customers']) {
      const statuses = REPEAT[JSON.stringify([test, model])] ?? [];
      statuses.forEach((status, index) => {
        repeated.push(fixtureRun({ test, model, status, attempt: index + 1 }));
      });
    }
  }
  await write(
    FILES.repeat,
    buildResultsFile({
      results: repeated,
      now: new Date(2025, 0, 3, 10, 0, 0),
      models: [GPT, CLAUDE],
      repeat: 3,
    }),
  );
  await writeFile(
    path.join(outputsDir, FILES.broken),
    '{"timestamp": "2024-12-31T00:00:00.000000", "results": [',
  );
  // Neighbours the viewer must not list or serve.
  await writeFile(path.join(outputsDir, 'junit.xml'), '<testsuites/>');
  await writeFile(path.join(outputsDir, '.results-123-abc.tmp'), '{}');
  await writeFile(path.join(outputsDir, 'notes.json'), '{}');
  await writeFile(path.join(path.dirname(outputsDir), 'results_secret.json'), '{"secret": true}');
}
