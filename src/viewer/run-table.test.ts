import { describe, expect, it } from 'vitest';
import type { RunRow } from './api-types.js';
import { filterRuns, isRunColumn, type RunColumn, sortRuns } from './run-table.js';

function row(index: number, overrides: Partial<RunRow> = {}): RunRow {
  return {
    index,
    name: `test_${index}`,
    model: 'openai:gpt-4.1',
    status: 'passed',
    message: 'match',
    tokens: 100,
    cost: 0.01,
    duration_ms: 1000,
    tool_call_count: 1,
    judged: false,
    attempt: 1,
    file: `test_${index}.yml`,
    ...overrides,
  };
}

const rows: RunRow[] = [
  row(0, { name: 'total_revenue', status: 'failed', cost: null, tokens: 50 }),
  row(1, { name: 'Top_customers', model: 'anthropic:claude', status: 'passed', cost: 0.2, tokens: 300 }),
  row(2, { name: 'test_10', status: 'error', cost: 0.05, tokens: 0 }),
  row(3, { name: 'test_9', model: 'anthropic:claude', status: 'unverified', cost: null, tokens: 300 }),
  row(4, { name: 'revenue_q4', status: 'skipped', cost: 0.001, tokens: 10 }),
];

const names = (list: RunRow[]) => list.map((entry) => entry.name);

describe('filterRuns', () => {
  it.each([
    [{ model: 'anthropic:claude', status: null, search: '' }, ['Top_customers', 'test_9']],
    [{ model: null, status: 'failed' as const, search: '' }, ['total_revenue']],
    [{ model: null, status: null, search: '  REVENUE ' }, ['total_revenue', 'revenue_q4']],
    [{ model: 'openai:gpt-4.1', status: null, search: 'test' }, ['test_10']],
    [{ model: null, status: null, search: 'nothing like it' }, []],
  ])('filters %j', (filter, expected) => {
    expect(names(filterRuns(rows, filter))).toEqual(expected);
  });
});

describe('sortRuns', () => {
  it('sorts by status worst first, then keeps file order for ties', () => {
    expect(sortRuns(rows, { column: 'status', direction: 'asc' }).map((entry) => entry.status)).toEqual([
      'failed',
      'error',
      'unverified',
      'passed',
      'skipped',
    ]);
  });

  it('sorts names naturally and case-insensitively', () => {
    expect(names(sortRuns(rows, { column: 'name', direction: 'asc' }))).toEqual([
      'revenue_q4',
      'test_9',
      'test_10',
      'Top_customers',
      'total_revenue',
    ]);
  });

  it('keeps unknown costs last in both directions', () => {
    const cost = (direction: 'asc' | 'desc') =>
      sortRuns(rows, { column: 'cost', direction }).map((entry) => entry.cost);
    expect(cost('asc')).toEqual([0.001, 0.05, 0.2, null, null]);
    expect(cost('desc')).toEqual([0.2, 0.05, 0.001, null, null]);
  });

  it('sorts numbers descending with ties in file order', () => {
    expect(sortRuns(rows, { column: 'tokens', direction: 'desc' }).map((entry) => entry.index)).toEqual([
      1, 3, 0, 4, 2,
    ]);
  });

  it('does not change the rows it was given', () => {
    const copy = [...rows];
    sortRuns(rows, { column: 'tokens', direction: 'asc' });
    expect(rows).toEqual(copy);
  });
});

describe('isRunColumn', () => {
  it.each<[unknown, boolean]>([
    ['cost', true],
    ['duration_ms', true],
    ['details', false],
    [undefined, false],
  ])('%j → %s', (value, expected) => {
    expect(isRunColumn(value)).toBe(expected);
    if (expected) expect(sortRuns(rows, { column: value as RunColumn, direction: 'asc' })).toHaveLength(5);
  });
});
