import { describe, expect, it } from 'vitest';
import type { HistoryNumbers, HistoryPoint } from './api-types.js';
import { historySeries, niceTicks } from './history-series.js';

function numbers(passed: number, total: number, cost: number | null): HistoryNumbers {
  return {
    total,
    passed,
    pass_rate: total === 0 ? 0 : Math.round((passed * 1000) / total) / 10,
    total_cost: cost,
    runs_without_cost: cost === null ? total : 0,
  };
}

function point(name: string, models: Record<string, HistoryNumbers>): HistoryPoint {
  return {
    name,
    timestamp: name,
    ...numbers(0, 0, null),
    by_model: Object.entries(models).map(([model, entry]) => ({ model, ...entry })),
  };
}

const files = [
  point('old', { 'openai:a': numbers(1, 2, 0.5) }),
  point('mid', { 'openai:a': numbers(2, 2, null), 'openai:b': numbers(0, 0, null) }),
  point('new', { 'openai:b': numbers(1, 3, 0.25), 'openai:a': numbers(3, 4, 1) }),
];

describe('historySeries', () => {
  it('gives one line per model with a gap where the model did not run', () => {
    expect(historySeries(files, 'pass_rate')).toEqual([
      { model: 'openai:b', values: [null, null, 33.3] },
      { model: 'openai:a', values: [50, 100, 75] },
    ]);
  });

  it('leaves unknown costs as gaps rather than zeros', () => {
    expect(historySeries(files, 'total_cost')).toEqual([
      { model: 'openai:b', values: [null, null, 0.25] },
      { model: 'openai:a', values: [0.5, null, 1] },
    ]);
  });

  it('has no series without files', () => {
    expect(historySeries([], 'pass_rate')).toEqual([]);
  });
});

describe('niceTicks', () => {
  it.each([
    [100, 5, [0, 25, 50, 75, 100]],
    [100, 3, [0, 50, 100]],
    [0.3, 4, [0, 0.1, 0.2, 0.3]],
    [0.0123, 5, [0, 0.005, 0.01, 0.015]],
    [7, 5, [0, 2, 4, 6, 8]],
    [0, 5, [0, 1]],
    [Number.NaN, 5, [0, 1]],
  ])('niceTicks(%d, %d) → %j', (max, count, expected) => {
    expect(niceTicks(max, count)).toEqual(expected);
  });
});
