import { describe, expect, it } from 'vitest';
import type { HistoryNumbers, HistoryPoint } from './api-types.js';
import { historySeries, niceTicks } from './history-series.js';

/** A model's numbers; the interval is a stand-in (rate ± 10) that the series must carry through as given. */
function numbers(passed: number, total: number, cost: number | null): HistoryNumbers {
  const rate = total === 0 ? 0 : Math.round((passed * 1000) / total) / 10;
  return {
    total,
    passed,
    pass_rate: rate,
    total_cost: cost,
    runs_without_cost: cost === null ? total : 0,
    pass_rate_ci95: total === 0 ? null : [rate - 10, rate + 10],
    recounted: false,
    file_says: null,
  };
}

function point(
  name: string,
  models: Record<string, HistoryNumbers & { replayed?: boolean; mock?: boolean }>,
  partial: string[] = [],
): HistoryPoint {
  return {
    name,
    timestamp: name,
    ...numbers(0, 0, null),
    partial,
    by_model: Object.entries(models).map(([model, entry]) => ({
      model,
      mock: false,
      replayed: false,
      ...entry,
    })),
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
      {
        model: 'openai:b',
        mock: false,
        values: [null, null, 33.3],
        marked: [null, null, null],
        intervals: [null, null, [33.3 - 10, 33.3 + 10]],
        recounts: [null, null, null],
      },
      {
        model: 'openai:a',
        mock: false,
        values: [50, 100, 75],
        marked: [null, null, null],
        intervals: [
          [40, 60],
          [90, 110],
          [65, 85],
        ],
        recounts: [null, null, null],
      },
    ]);
  });

  it('leaves unknown costs as gaps rather than zeros', () => {
    expect(historySeries(files, 'total_cost').map((entry) => entry.values)).toEqual([
      [null, null, 0.25],
      [0.5, null, 1],
    ]);
  });

  it('gives intervals and recount marks to pass-rate points only', () => {
    const cost = historySeries(files, 'total_cost');
    expect(cost.flatMap((entry) => [...entry.intervals, ...entry.recounts])).toEqual(Array(12).fill(null));
  });

  it('marks a point nao recounted from an original file, with what the file says', () => {
    const says = { passed: 2, total: 4, pass_rate: 50 };
    const series = historySeries(
      [
        point('original', { 'openai:a': { ...numbers(1, 4, null), recounted: true, file_says: says } }),
        point('unknown', { 'openai:a': { ...numbers(1, 4, null), recounted: true, file_says: null } }),
        point('ours', { 'openai:a': numbers(1, 4, null) }),
      ],
      'pass_rate',
    );
    expect(series[0]?.recounts).toEqual([{ fileSays: says }, { fileSays: null }, null]);
  });

  it('keeps partial runs and replayed answers off the line, as marked points with the reason', () => {
    const series = historySeries(
      [
        point('full', { 'openai:a': numbers(2, 4, 1) }),
        point('shard', { 'openai:a': numbers(1, 1, 0.2) }, ['shard 1/2']),
        point('replay', { 'openai:a': { ...numbers(3, 4, 1), replayed: true } }),
        point('full2', {
          'openai:a': numbers(4, 4, 1),
          'mock:reference': { ...numbers(4, 4, 0), mock: true },
        }),
      ],
      'pass_rate',
    );
    expect(series).toEqual([
      {
        model: 'openai:a',
        mock: false,
        values: [50, null, null, 100],
        marked: [
          null,
          { value: 100, reason: 'shard 1/2' },
          { value: 75, reason: 'replayed from recordings' },
          null,
        ],
        // A point set apart keeps its error bar.
        intervals: [
          [40, 60],
          [90, 110],
          [65, 85],
          [90, 110],
        ],
        recounts: [null, null, null, null],
      },
      {
        model: 'mock:reference',
        mock: true,
        values: [null, null, null, 100],
        marked: [null, null, null, null],
        intervals: [null, null, null, [90, 110]],
        recounts: [null, null, null, null],
      },
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
