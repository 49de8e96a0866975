import { describe, expect, it } from 'vitest';
import { judgedDetails, run } from '../../../test-support/results/run-fixture.js';
import { compareResults } from '../../verdict/compare/index.js';
import { formatDiff } from '../../verdict/index.js';
import type { DiffRecord, RunResult } from '../results-file.js';
import { failedChecks, renderRecap } from './run-recap.js';

type Row = (string | number | null)[];

/** A failed run whose saved diff is what the comparison of these rows says. */
function mismatch(options: { name: string; columns: string[]; actual: Row[]; expected: Row[] }): RunResult {
  const comparison = compareResults({
    actual: { columns: options.columns, rows: options.actual },
    expected: { columns: options.columns, rows: options.expected },
  });
  if (comparison.diff === null) throw new Error('the rows compare equal');
  const diff = { ...comparison.diff, text: formatDiff(comparison.diff) } as DiffRecord;
  return run({
    name: options.name,
    status: 'failed',
    message: comparison.message,
    details: { diff, comparison: diff.text },
  });
}

/** Nine assertions of which the seventh failed, as the verdict words them. */
function seventhAssertionFailed(name: string): RunResult {
  const assertions = Array.from({ length: 9 }, (_, index) => ({
    type: index === 6 ? 'row_count' : 'max_tool_calls',
    passed: index !== 6,
    message: index === 6 ? 'row_count: 4 rows (exactly 3)' : `max_tool_calls: ${index} calls (max 9)`,
  }));
  return run({
    name,
    status: 'failed',
    message: assertions.map((assertion) => assertion.message).join('; '),
    details: { reference_sql: null, assertions },
  });
}

const WIDE = { width: 120, color: false };

describe('renderRecap', () => {
  it('shows a data mismatch as aligned rows, five per side at most, doubles with 15 significant digits', () => {
    const expected: Row[] = Array.from({ length: 7 }, (_, index) => [`cat_${index}`, 100 + index, 2458.34]);
    const actual: Row[] = expected.map(([category, orders]) => [
      category ?? null,
      orders ?? null,
      2459.3400000000006,
    ]);
    const result = mismatch({
      name: 'sales_by_category',
      columns: ['category', 'orders', 'sales'],
      actual,
      expected,
    });
    expect(renderRecap([result], WIDE)?.split('\n')).toEqual([
      'Runs that did not pass (1 failed)',
      '',
      '✗ sales_by_category · openai:gpt-4.1',
      '  values differ: 7 changed rows (of 7 rows)',
      '                    category  orders  sales',
      '  - expected row 0  cat_0     100     2458.34',
      '  + actual row 0    cat_0     100     2459.34',
      '  - expected row 1  cat_1     101     2458.34',
      '  + actual row 1    cat_1     101     2459.34',
      '  - expected row 2  cat_2     102     2458.34',
      '  + actual row 2    cat_2     102     2459.34',
      '  - expected row 3  cat_3     103     2458.34',
      '  + actual row 3    cat_3     103     2459.34',
      '  - expected row 4  cat_4     104     2458.34',
      '  + actual row 4    cat_4     104     2459.34',
      '  … 2 more differing rows (nao test --verbose, or the viewer: nao test server)',
    ]);
  });

  it('limits rows found on one side only to five per side, and counts the rest', () => {
    const expected: Row[] = Array.from({ length: 8 }, (_, index) => [
      `2025-0${index + 1}`,
      1000 * (index + 1),
    ]);
    const result = mismatch({
      name: 'monthly_revenue',
      columns: ['month', 'revenue'],
      actual: [['2030-01', 1]],
      expected,
    });
    const lines = renderRecap([result], WIDE)?.split('\n') ?? [];
    expect(lines.slice(3)).toEqual([
      '  row count: 1 actual vs 8 expected; 8 rows only in expected, 1 row only in actual',
      '                    month    revenue',
      '  - expected row 0  2025-01  1000',
      '  - expected row 1  2025-02  2000',
      '  - expected row 2  2025-03  3000',
      '  - expected row 3  2025-04  4000',
      '  - expected row 4  2025-05  5000',
      '  + actual row 0    2030-01  1',
      '  … 3 more differing rows (nao test --verbose, or the viewer: nao test server)',
    ]);
  });

  it('keeps the differing columns and drops agreeing ones when the rows do not fit the width', () => {
    const columns = ['region', 'a_long_context_column', 'another_context_column', 'revenue'];
    const result = mismatch({
      name: 'revenue_by_region',
      columns,
      actual: [['EU', 'same text here', 'and here too', 105.5]],
      expected: [['EU', 'same text here', 'and here too', 100]],
    });
    const lines = renderRecap([result], { width: 60, color: false })?.split('\n') ?? [];
    expect(lines.slice(4)).toEqual([
      '                    region  a_long_context_column  revenue',
      '  - expected row 0  EU      same text here         100',
      '  + actual row 0    EU      same text here         105.5',
    ]);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(60);
  });

  it('says which check failed first (the seventh assertion of nine), then any other failed check', () => {
    const assertion = seventhAssertionFailed('recent_orders');
    const judged = run({
      name: 'biggest_customer',
      status: 'failed',
      message: 'Names Beta Inc.; max_tool_calls: 4 calls (max 3)',
      details: {
        ...judgedDetails({ verdict: 'fail', reason: 'Names Beta Inc.' }),
        assertions: [{ type: 'max_tool_calls', passed: false, message: 'max_tool_calls: 4 calls (max 3)' }],
      },
    });
    expect(failedChecks(assertion)).toEqual(['row_count: 4 rows (exactly 3)']);
    expect(renderRecap([assertion, judged], WIDE)?.split('\n')).toEqual([
      'Runs that did not pass (2 failed)',
      '',
      '✗ recent_orders · openai:gpt-4.1',
      '  row_count: 4 rows (exactly 3)',
      '',
      '✗ biggest_customer · openai:gpt-4.1',
      '  judge: Names Beta Inc.',
      '  also: max_tool_calls: 4 calls (max 3)',
    ]);
  });

  it('names a comparison that failed without a diff before the assertions', () => {
    const result = run({
      status: 'failed',
      message: 'answer extraction gave no rows; no data; row_count: 0 rows (exactly 3)',
      details: {
        assertions: [{ type: 'row_count', passed: false, message: 'row_count: 0 rows (exactly 3)' }],
      },
    });
    expect(failedChecks(result)).toEqual([
      'answer extraction gave no rows; no data',
      'row_count: 0 rows (exactly 3)',
    ]);
    const matched = run({
      status: 'failed',
      message: 'match; row_count: 0 rows (exactly 3)',
      details: {
        assertions: [{ type: 'row_count', passed: false, message: 'row_count: 0 rows (exactly 3)' }],
      },
    });
    expect(failedChecks(matched)).toEqual(['row_count: 0 rows (exactly 3)']);
  });

  it('gives an error the first line of its reason and counts unverified runs in one line', () => {
    const text = renderRecap(
      [
        run({
          name: 'total_revenue',
          status: 'error',
          error: 'provider error: 500\n  at retry (llm/retry.ts:40)',
        }),
        run({ name: 'payments', status: 'unverified' }),
        run({ name: 'returns', status: 'unverified' }),
        run({ name: 'orders' }),
      ],
      WIDE,
    );
    expect(text?.split('\n')).toEqual([
      'Runs that did not pass (1 error)',
      '',
      '! total_revenue · openai:gpt-4.1',
      '  provider error: 500',
      '',
      '2 runs unverified: their tests have no sql, expected_answer or assertions, so nothing was checked.',
    ]);
  });

  it('says nothing when every run passed or was skipped', () => {
    expect(renderRecap([run(), run({ name: 'b', status: 'skipped' })], WIDE)).toBeNull();
  });

  it('colors whole lines without changing their text', () => {
    const result = mismatch({ name: 'n', columns: ['x'], actual: [[1.5]], expected: [[2]] });
    const colored = renderRecap([result], { width: 120, color: true }) ?? '';
    expect(colored).toContain('\u001b[31m');
    // biome-ignore lint/suspicious/noControlCharactersInRegex: removing ANSI codes
    expect(colored.replace(/\u001b\[[0-9;]*m/g, '')).toBe(renderRecap([result], WIDE));
  });
});
