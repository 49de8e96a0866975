import { describe, expect, it } from 'vitest';
import { judgedDetails, run } from '../../../test-support/results/run-fixture.js';
import { summarize, summarizeByModel } from '../summarize.js';
import {
  finalLine,
  renderModelPerformanceTable,
  renderPassFailGrid,
  renderReport,
  renderTestResultsTable,
} from './console-tables.js';
import { displayWidth } from './terminal-text.js';

const OPENAI = 'openai:gpt-4.1';
const ANTHROPIC = 'anthropic:claude-sonnet-4-5';
const MODELS = [OPENAI, ANTHROPIC];

/** Two models, three tests, every judged status and one unpriced run. */
const RESULTS = [
  run({
    name: 'total_revenue',
    model: OPENAI,
    tokens: 30000,
    cost: 0.06,
    duration_ms: 12000,
    tool_call_count: 7,
    // Its extraction's cost counts in its Cost, the Total row and the final line.
    details: { extraction_cost: 0.002 },
  }),
  run({
    name: 'revenue_per_customer',
    model: OPENAI,
    status: 'failed',
    tokens: 43390,
    cost: 0.078,
    duration_ms: 15200,
    tool_call_count: 9,
  }),
  run({
    name: 'orders_by_status',
    model: OPENAI,
    status: 'error',
    tokens: 500,
    cost: null,
    duration_ms: 300,
    tool_call_count: 0,
  }),
  run({
    name: 'total_revenue',
    model: ANTHROPIC,
    tokens: 20000,
    cost: 0.039,
    duration_ms: 8000,
    tool_call_count: 5,
  }),
  run({
    name: 'revenue_per_customer',
    model: ANTHROPIC,
    tokens: 26000,
    cost: 0.05,
    duration_ms: 9600,
    tool_call_count: 6,
  }),
  run({
    name: 'orders_by_status',
    model: ANTHROPIC,
    status: 'unverified',
    tokens: 1200,
    cost: 0.002,
    duration_ms: 1000,
    tool_call_count: 1,
  }),
];

// biome-ignore lint/suspicious/noControlCharactersInRegex: removing ANSI codes
const stripAnsi = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '');

function tableLines(text: string): string[] {
  return text.split('\n').filter((line) => /^[┏┃┡│├└]/.test(line));
}

describe('renderReport', () => {
  it('renders the three tables and the final line exactly (plain text, 120 columns)', () => {
    const report = renderReport({ results: RESULTS, modelOrder: MODELS, color: false, wallClockMs: 31_400 });
    expect(report.split('\n')).toEqual([
      '                                                     Test Results',
      '┏━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━┳━━━━━━━━━┳━━━━━━━━━━┳━━━━━━━┓',
      '┃ Test                 ┃ Model             ┃ Status       ┃ Message             ┃ Tokens ┃    Cost ┃ Time (s) ┃ Tools ┃',
      '┡━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━╇━━━━━━━━━╇━━━━━━━━━━╇━━━━━━━┩',
      '│ total_revenue        │ openai            │ ✓ passed     │ match               │  30000 │  $0.062 │     12.0 │     7 │',
      '│                      │ gpt-4.1           │              │                     │        │         │          │       │',
      '│ revenue_per_customer │ openai            │ ✗ failed     │ values differ       │  43390 │  $0.078 │     15.2 │     9 │',
      '│                      │ gpt-4.1           │              │                     │        │         │          │       │',
      '│ orders_by_status     │ openai            │ ! error      │ provider error: 500 │    500 │       — │      0.3 │     0 │',
      '│                      │ gpt-4.1           │              │                     │        │         │          │       │',
      '│ total_revenue        │ anthropic         │ ✓ passed     │ match               │  20000 │  $0.039 │      8.0 │     5 │',
      '│                      │ claude-sonnet-4-5 │              │                     │        │         │          │       │',
      '│ revenue_per_customer │ anthropic         │ ✓ passed     │ match               │  26000 │   $0.05 │      9.6 │     6 │',
      '│                      │ claude-sonnet-4-5 │              │                     │        │         │          │       │',
      '│ orders_by_status     │ anthropic         │ ? unverified │ no verification     │   1200 │  $0.002 │      1.0 │     1 │',
      '│                      │ claude-sonnet-4-5 │              │                     │        │         │          │       │',
      '├──────────────────────┼───────────────────┼──────────────┼─────────────────────┼────────┼─────────┼──────────┼───────┤',
      '│ Total                │                   │              │                     │ 121090 │ ≥$0.231 │     31.4 │    28 │',
      '└──────────────────────┴───────────────────┴──────────────┴─────────────────────┴────────┴─────────┴──────────┴───────┘',
      '',
      '                                      Performance by Model',
      '┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━┳━━━━━━━━┳━━━━━━━━┳━━━━━━━━┳━━━━━━━━━━┳━━━━━━━┓',
      '┃                             ┃         Pass Rate ┃        ┃        ┃        ┃      Avg ┃   Avg ┃',
      '┃ Model                       ┃          (95% CI) ┃ Passed ┃ Tokens ┃   Cost ┃ Time (s) ┃ Tools ┃',
      '┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━╇━━━━━━━━╇━━━━━━━━╇━━━━━━━━╇━━━━━━━━━━╇━━━━━━━┩',
      '│ anthropic:claude-sonnet-4-5 │ 66.7% (20.8–93.9) │    2/3 │  47200 │ $0.091 │      6.2 │   4.0 │',
      '│ openai:gpt-4.1              │  33.3% (6.1–79.2) │    1/3 │  73890 │ ≥$0.14 │      9.2 │   5.3 │',
      '└─────────────────────────────┴───────────────────┴────────┴────────┴────────┴──────────┴───────┘',
      'anthropic:claude-sonnet-4-5 vs openai:gpt-4.1: 3 shared tests, too few to tell (10 needed)',
      '',
      '            Pass / Fail by Test and Model',
      '┏━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━┓',
      '┃                      ┃ openai  ┃     anthropic     ┃',
      '┃ Test                 ┃ gpt-4.1 ┃ claude-sonnet-4-5 ┃',
      '┡━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━┩',
      '│ total_revenue        │    ✓    │         ✓         │',
      '│ revenue_per_customer │    ✗    │         ✓         │',
      '│ orders_by_status     │    !    │         ?         │',
      '└──────────────────────┴─────────┴───────────────────┘',
      '',
      'Runs that did not pass (1 failed, 1 error)',
      '',
      '✗ revenue_per_customer · openai:gpt-4.1',
      '  values differ',
      '',
      '! orders_by_status · openai:gpt-4.1',
      '  provider error: 500',
      '',
      '1 run unverified: its test has no sql, expected_answer or assertions, so nothing was checked.',
      '',
      '3 passed, 1 failed, 1 error, 1 unverified, 6 total · ≥$0.231 in all (agent $0.229 + extraction $0.002) · 31.4 s wall clock (46.1 s summed over runs)',
    ]);
  });

  it('prints only Test Results and the final line for a single model', () => {
    const single = RESULTS.filter((result) => result.model === OPENAI);
    const text = renderReport({ results: single, modelOrder: MODELS });
    expect(text).toContain('Test Results');
    expect(text).not.toContain('Performance by Model');
    expect(text).not.toContain('Pass / Fail by Test and Model');
    expect(text.split('\n').at(-1)).toBe(
      '1 passed, 1 failed, 1 error, 0 unverified, 3 total · ≥$0.14 in all (agent $0.138 + extraction $0.002) · ' +
        '27.5 s summed over runs',
    );
  });

  it('keeps only the recap and the final line when quiet', () => {
    const text = renderReport({ results: RESULTS, modelOrder: MODELS, quiet: true, wallClockMs: 31_400 });
    expect(text).not.toMatch(/Test Results|Performance by Model|Pass \/ Fail|[┏│]/);
    expect(text.split('\n')).toEqual([
      'Runs that did not pass (1 failed, 1 error)',
      '',
      '✗ revenue_per_customer · openai:gpt-4.1',
      '  values differ',
      '',
      '! orders_by_status · openai:gpt-4.1',
      '  provider error: 500',
      '',
      '1 run unverified: its test has no sql, expected_answer or assertions, so nothing was checked.',
      '',
      '3 passed, 1 failed, 1 error, 1 unverified, 6 total · ≥$0.231 in all (agent $0.229 + extraction $0.002) · ' +
        '31.4 s wall clock (46.1 s summed over runs)',
    ]);
  });

  it('colors statuses when asked, and the colored text is the plain text plus ANSI codes', () => {
    const plain = renderReport({ results: RESULTS, modelOrder: MODELS, color: false });
    const colored = renderReport({ results: RESULTS, modelOrder: MODELS, color: true });
    expect(colored).not.toBe(plain);
    expect(stripAnsi(colored)).toBe(plain);
    expect(colored).toContain('\u001b[32m✓ passed\u001b[39m');
    expect(colored).toContain('\u001b[31m✗ failed\u001b[39m');
    expect(colored).toContain('\u001b[33m! error\u001b[39m');
    expect(colored).toContain('\u001b[33m? unverified\u001b[39m');
    expect(plain).not.toContain('\u001b');
  });

  it('shows the repeated-runs table and c/K in the grid with --repeat', () => {
    const repeated = [1, 2, 3].flatMap((attempt) => [
      run({ name: 'steady', model: OPENAI, attempt }),
      run({ name: 'flaky', model: OPENAI, attempt, status: attempt === 2 ? 'failed' : 'passed' }),
      run({ name: 'steady', model: ANTHROPIC, attempt, status: attempt === 3 ? 'skipped' : 'failed' }),
      run({ name: 'flaky', model: ANTHROPIC, attempt, status: 'skipped' }),
    ]);
    const text = renderReport({ results: repeated, modelOrder: MODELS });
    const grid = text.slice(text.indexOf('Pass / Fail'));
    expect(tableLines(grid).slice(4, 7)).toEqual([
      '│ steady │   3/3   │        0/2        │',
      '│ flaky  │   2/3   │         –         │',
      '└────────┴─────────┴───────────────────┘',
    ]);
    expect(text).toContain('Repeated Runs');
    expect(text).toMatch(/│ flaky +│ openai:gpt-4\.1 +│ +2\/3 │ +1\.00 │ +0\.30 │ flaky │/);
    expect(text).toContain('│ steady #1 ');
  });
});

describe('renderTestResultsTable', () => {
  it('prints an unknown cost as "—" and a partial total as a lower bound', () => {
    const text = renderTestResultsTable([run({ cost: null }), run({ cost: 0.0125 })], { width: 200 });
    const [first, second, total] = tableLines(text)
      .slice(3)
      .filter((line) => line.startsWith('│'));
    expect(first).toMatch(/│ +— │/);
    expect(second).toMatch(/│ +\$0\.0125 │/);
    expect(total).toMatch(/│ +≥\$0\.0125 │/);
    expect(text).not.toMatch(/None|NaN|null/);
  });

  it("counts the extraction and the judge in each run's cost and in the total, and gives the wall clock as its time", () => {
    const text = renderTestResultsTable(
      [
        run({ cost: 0.01, duration_ms: 40_000, details: { extraction_cost: 0.002 } }),
        run({ name: 'judged', cost: 0.02, duration_ms: 50_000, details: judgedDetails({ cost: 0.003 }) }),
      ],
      { width: 200, wallClockMs: 52_000 },
    );
    const rows = tableLines(text).filter((line) => line.startsWith('│'));
    expect(rows[0]).toMatch(/│ +\$0\.012 │ +40\.0 │/);
    expect(rows[1]).toMatch(/│ +\$0\.023 │ +50\.0 │/);
    expect(rows[2]).toMatch(/^│ Total .*│ +\$0\.035 │ +52\.0 │/);
  });

  it('shows the check that failed first, not the first check', () => {
    const assertions = Array.from({ length: 9 }, (_, index) => ({
      type: 'max_tool_calls',
      passed: index !== 6,
      message: index === 6 ? 'row_count: 4 rows (exactly 3)' : `max_tool_calls: ${index} calls (max 9)`,
    }));
    const text = renderTestResultsTable(
      [
        run({
          status: 'failed',
          message: assertions.map((assertion) => assertion.message).join('; '),
          details: { reference_sql: null, assertions },
        }),
      ],
      { width: 120 },
    );
    expect(tableLines(text)[3]).toMatch(/│ ✗ failed │ row_count: 4 rows \(exactly 3\) +│/);
    expect(text).not.toContain('max_tool_calls: 0 calls');
  });

  it('prints "—" for a total no run has a price for', () => {
    const text = renderTestResultsTable([run({ cost: null })], { width: 200 });
    expect(tableLines(text).at(-2)).toMatch(/^│ Total .*│ +— │/);
  });

  it('leaves the numbers of a skipped run blank instead of zero', () => {
    const text = renderTestResultsTable([run({ status: 'skipped', message: 'skipped: budget reached' })], {
      width: 200,
    });
    expect(tableLines(text)[3]).toMatch(
      /^│ total_revenue │ openai:gpt-4\.1 │ – skipped │ skipped: budget reached │ +│ +│ +│ +│$/,
    );
  });

  it.each([120, 100, 80, 70])(
    'fits %i columns and never breaks a row, whatever the message holds',
    (width) => {
      const results = [
        run({ message: `values differ: ${'x'.repeat(300)}` }),
        run({
          name: '中文テスト名前',
          message: 'Binder Error:\nLINE 1: SELECT "x"\n\t^ \u001b[31mred\u001b[0m',
        }),
        run({ name: 'emoji 👍 test', model: ANTHROPIC, status: 'error', message: 'a\u0000b\u0007c' }),
      ];
      const lines = renderTestResultsTable(results, { width }).split('\n');
      const body = lines.slice(1);
      for (const line of body) {
        expect(displayWidth(line)).toBe(displayWidth(body[0] ?? ''));
        expect(displayWidth(line)).toBeLessThanOrEqual(width);
        expect([...line].some((char) => char < ' ')).toBe(false);
      }
      expect(lines.join('\n')).toContain('…');
    },
  );

  it('stays a well-formed table when the terminal is narrower than its numbers need', () => {
    const lines = renderTestResultsTable([run({ message: 'x'.repeat(100) })], { width: 30 })
      .split('\n')
      .slice(1);
    expect(new Set(lines.map(displayWidth)).size).toBe(1);
    expect(lines[0]).toMatch(/^┏.*┓$/);
    expect(lines.at(-1)).toMatch(/^└.*┘$/);
  });

  it('keeps whole messages when the terminal is wide enough', () => {
    const message = `values differ: ${'x'.repeat(60)}`;
    const text = renderTestResultsTable([run({ message })], { width: 200 });
    expect(text).toContain(message);
    expect(text).not.toContain('…');
  });
});

describe('renderModelPerformanceTable', () => {
  it('follows the by_model ranking and prints unpriced models with "—"', () => {
    const results = [
      run({ model: 'z:unpriced', cost: null }),
      run({ model: 'a:dear', cost: 2 }),
      run({ model: 'm:cheap', cost: 0.5 }),
    ];
    const body = tableLines(renderModelPerformanceTable(summarizeByModel(results), { width: 200 })).slice(
      4,
      -1,
    );
    expect(body.map((line) => line.split('│')[1]?.trim())).toEqual(['m:cheap', 'a:dear', 'z:unpriced']);
    expect(body[2]).toMatch(/│ +— │/);
  });

  it('keeps provider:model on one line when it fits, and splits it only when the terminal is narrow', () => {
    const byModel = summarizeByModel([run({ model: OPENAI }), run({ model: ANTHROPIC })]);
    const wide = tableLines(renderModelPerformanceTable(byModel, { width: 160 }));
    expect(wide.filter((line) => line.includes('openai'))).toEqual([
      expect.stringMatching(/^│ openai:gpt-4\.1 +│/),
    ]);
    const narrow = tableLines(renderModelPerformanceTable(byModel, { width: 70 }));
    expect(narrow.some((line) => /^│ gpt-4\.1 +│/.test(line))).toBe(true);
    for (const line of narrow) expect(displayWidth(line)).toBeLessThanOrEqual(70);
  });
});

describe('renderPassFailGrid', () => {
  it('puts models in configured order and leaves a pair that never ran blank', () => {
    const results = [
      run({ name: 'a', model: ANTHROPIC }),
      run({ name: 'b', model: ANTHROPIC, status: 'failed' }),
      run({ name: 'a', model: OPENAI, status: 'skipped' }),
    ];
    expect(renderPassFailGrid(results, { modelOrder: MODELS }).split('\n').slice(2)).toEqual([
      '┃      ┃ openai  ┃     anthropic     ┃',
      '┃ Test ┃ gpt-4.1 ┃ claude-sonnet-4-5 ┃',
      '┡━━━━━━╇━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━┩',
      '│ a    │    –    │         ✓         │',
      '│ b    │         │         ✗         │',
      '└──────┴─────────┴───────────────────┘',
    ]);
  });
});

describe('finalLine', () => {
  it.each<[string, Parameters<typeof run>[0][], string]>([
    ['all passed', [{}, {}], 'All 2 test(s) passed'],
    ['all that ran passed, some skipped', [{}, { status: 'skipped' }], 'All 1 test(s) passed, 1 skipped'],
    [
      'a mix',
      [{}, { status: 'failed' }, { status: 'error' }, { status: 'error' }, { status: 'unverified' }],
      '1 passed, 1 failed, 2 errors, 1 unverified, 5 total',
    ],
    [
      'one unverified is not a pass',
      [{ status: 'unverified' }],
      '0 passed, 0 failed, 0 errors, 1 unverified, 1 total',
    ],
    [
      'a mix with skipped',
      [{ status: 'failed' }, { status: 'skipped' }],
      '0 passed, 1 failed, 0 errors, 0 unverified, 1 total, 1 skipped',
    ],
    [
      'judged passes are counted apart',
      [{ details: judgedDetails() }, {}],
      'All 2 test(s) passed (1 judged)',
    ],
    [
      'a judged failure is just a failure',
      [{ details: judgedDetails() }, { status: 'failed', details: judgedDetails({ verdict: 'fail' }) }],
      '1 passed (1 judged), 1 failed, 0 errors, 0 unverified, 2 total',
    ],
    ['nothing ran', [{ status: 'skipped' }], 'No test ran, 1 skipped'],
    ['no runs', [], 'No test ran'],
  ])('%s', (_label, runs, expected) => {
    expect(finalLine(summarize(runs.map((overrides) => run(overrides))))).toBe(expected);
  });

  it('colors the counts when asked', () => {
    const line = finalLine(summarize([run(), run({ status: 'failed' })]), { color: true });
    expect(line).toBe(
      '\u001b[32m1 passed\u001b[39m, \u001b[31m1 failed\u001b[39m, 0 errors, 0 unverified, 2 total',
    );
  });
});

describe('judged runs', () => {
  const results = [
    run({ name: 'biggest_customer', message: 'Names Acme Corp, as expected.', details: judgedDetails() }),
    run({ name: 'total_revenue' }),
  ];

  it('mark the status with * and explain the mark under the table', () => {
    const table = renderTestResultsTable(results, { width: 120 });
    const lines = table.split('\n');
    expect(lines.find((line) => line.includes('biggest_customer'))).toContain('✓ passed*');
    expect(lines.find((line) => line.includes('total_revenue'))).toContain('✓ passed ');
    expect(lines.at(-1)).toBe(
      '* judged: graded by a judge model against expected_answer, not verified against data',
    );
  });

  it('keep the mark when the status column shrinks to its symbol', () => {
    const table = renderTestResultsTable(results, { width: 72 });
    expect(table).not.toContain('passed');
    expect(table.split('\n').filter((line) => line.includes('│ ✓'))).toEqual([
      expect.stringMatching(/^│ bigge… .*│ ✓\* /),
      expect.stringMatching(/^│ total… .*│ ✓ {2}/),
    ]);
  });

  it('mark their cell in the Pass / Fail grid', () => {
    const grid = renderPassFailGrid(
      [...results, run({ name: 'biggest_customer', model: ANTHROPIC, details: judgedDetails() })],
      { modelOrder: [OPENAI, ANTHROPIC] },
    );
    expect(grid.split('\n').find((line) => line.includes('biggest_customer'))).toMatch(/✓\*.*✓\*/);
    expect(grid.split('\n').find((line) => line.includes('total_revenue'))).not.toContain('*');
    expect(grid).toContain('* judged:');
  });

  it('leave a report without judged runs unchanged', () => {
    expect(renderTestResultsTable([run()], { width: 120 })).not.toContain('judged');
  });
});

describe('model comparison under Performance by Model', () => {
  /** 40 tests: `passes` of them pass for the model (the first ones), the rest fail. */
  const suite = (model: string, passes: number) =>
    Array.from({ length: 40 }, (_, i) =>
      run({ name: `t${String(i).padStart(2, '0')}`, model, status: i < passes ? 'passed' : 'failed' }),
    );
  const comparisonLine = (results: ReturnType<typeof suite>) =>
    renderReport({ results, width: 200 })
      .split('\n')
      .find((line) => line.includes(' vs '));

  it('calls 38/40 against 24/40 on the same tests significant, with the interval', () => {
    expect(comparisonLine([...suite(OPENAI, 24), ...suite(ANTHROPIC, 38)])).toMatch(
      /^anthropic:claude-sonnet-4-5 vs openai:gpt-4\.1: \+35\.0 points \(95% CI \+20\.0 to \+50\.0\) on 40 tests, significant$/,
    );
  });

  it('calls 26/40 against 24/40 within noise', () => {
    expect(comparisonLine([...suite(OPENAI, 24), ...suite(ANTHROPIC, 26)])).toMatch(
      /: \+5\.0 points \(95% CI −1\.\d to \+11\.\d\) on 40 tests, within noise$/,
    );
  });

  it('shows each rate with its Wilson interval', () => {
    const text = renderReport({ results: [...suite(OPENAI, 24), ...suite(ANTHROPIC, 26)], width: 200 });
    expect(text).toContain('60.0% (44.6–73.7)');
  });
});
