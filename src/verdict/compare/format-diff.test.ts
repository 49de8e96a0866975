import { describe, expect, it } from 'vitest';
import { compareResults } from './compare-results.js';
import { formatDiff, formatValue } from './format-diff.js';

const tolerances = { rtol: 0.00001, atol: 0.00000001, decimals: 2 };

describe('formatDiff', () => {
  it('explains changed rows with context, then one-sided rows', () => {
    const result = compareResults({
      actual: {
        columns: ['region', 'month', 'revenue'],
        rows: [
          ['EU', '2024-01-01', 105.2],
          ['FR', '2024-01-01', 1],
          ['US', '2024-01-01', 3],
        ],
      },
      expected: {
        columns: ['region', 'month', 'revenue'],
        rows: [
          ['US', '2024-01-01', 3],
          ['EU', '2024-01-01', 100],
          ['DE', '2024-01-01', 2],
        ],
      },
      tolerances,
    });
    expect(formatDiff(result.diff!)).toBe(
      [
        'values differ: 1 changed row, 1 row only in expected, 1 row only in actual (of 3 rows)',
        'changed rows:',
        '  expected row 1 / actual row 0 (region="EU", month="2024-01-01"):',
        '    revenue: expected 100, actual 105.2',
        'only in expected:',
        '  expected row 2: region="DE", month="2024-01-01", revenue=2',
        'only in actual:',
        '  actual row 1: region="FR", month="2024-01-01", revenue=1',
      ].join('\n'),
    );
  });

  it('says how many differences were left out', () => {
    const result = compareResults({
      actual: { columns: ['v'], rows: [[1], [2], [3]] },
      expected: { columns: ['v'], rows: [[4], [5], [6]] },
      tolerances,
      diffLimit: 2,
    });
    expect(formatDiff(result.diff!).split('\n').at(-1)).toBe('… 4 more differences not shown (diff limit 2)');
  });

  it('shows doubles with at most 15 significant digits', () => {
    const result = compareResults({
      actual: { columns: ['region', 'sales'], rows: [['EU', 2458.3400000000006]] },
      expected: { columns: ['region', 'sales'], rows: [['EU', 41226.65000000001]] },
      tolerances,
    });
    expect(formatDiff(result.diff!)).toContain('sales: expected 41226.65, actual 2458.34');
  });

  it('explains missing columns', () => {
    const result = compareResults({
      actual: { columns: ['revenue'], rows: [[1]] },
      expected: { columns: ['total_revenue'], rows: [[1]] },
      tolerances,
    });
    expect(formatDiff(result.diff!)).toBe(
      [
        'missing columns: total_revenue',
        'expected columns: total_revenue',
        'answer columns not expected: revenue',
      ].join('\n'),
    );
  });

  it('explains a row count difference', () => {
    const result = compareResults({
      actual: { columns: ['v'], rows: [[1], [2]] },
      expected: { columns: ['v'], rows: [[1]] },
      tolerances,
    });
    expect(formatDiff(result.diff!)).toBe(
      [
        'row count: 2 actual vs 1 expected; 1 row only in actual',
        'only in actual:',
        '  actual row 1: v=2',
      ].join('\n'),
    );
  });

  it('names ordered rows once', () => {
    const result = compareResults({
      actual: { columns: ['k', 'v'], rows: [['a', null]] },
      expected: { columns: ['k', 'v'], rows: [['a', '']] },
      tolerances,
      ordered: true,
    });
    expect(formatDiff(result.diff!)).toContain('  row 0 (k="a"):\n    v: expected "", actual NULL');
  });
});

describe('formatValue', () => {
  it.each([
    [null, 'NULL'],
    ['', '""'],
    [' 1', '" 1"'],
    ['say "hi"', '"say \\"hi\\""'],
    [1.5, '1.5'],
    [Number.NaN, 'NaN'],
    [2458.3400000000006, '2458.34'],
    [0.1 + 0.2, '0.3'],
    ['2458.3400000000006', '"2458.3400000000006"'],
    [true, 'true'],
    ['x'.repeat(200), `"${'x'.repeat(77)}…"`],
  ])('%j → %s', (value, text) => {
    expect(formatValue(value)).toBe(text);
  });
});
