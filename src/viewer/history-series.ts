/**
 * The lines of the history chart: one per model, one point per results file (oldest first),
 * and the ticks of the value axis. A model absent from a file, a model whose runs were all
 * skipped, or a cost nobody knows has no point there (a gap), never a zero. Used by the web UI.
 */
import type { HistoryPoint } from './api-types.js';

export type HistoryMetric = 'pass_rate' | 'total_cost';

export interface HistorySeries {
  model: string;
  /** One value per file, in the order of the files given; null where there is nothing to plot. */
  values: (number | null)[];
}

/** Series per model, the models in the order they first appear from the newest file back. */
export function historySeries(files: readonly HistoryPoint[], metric: HistoryMetric): HistorySeries[] {
  const newestFirst = [...files].reverse();
  const models = [...new Set(newestFirst.flatMap((file) => file.by_model.map((entry) => entry.model)))];
  return models.map((model) => ({
    model,
    values: files.map((file) => {
      const entry = file.by_model.find((candidate) => candidate.model === model);
      if (entry === undefined || entry.total === 0) return null;
      return metric === 'pass_rate' ? entry.pass_rate : entry.total_cost;
    }),
  }));
}

/**
 * Round tick values from 0 up to at least `max` (1, 2, 2.5 or 5 times a power of ten apart),
 * about `count` of them; a max of 0 or less gives [0, 1] so an axis always has a span.
 */
export function niceTicks(max: number, count = 5): number[] {
  if (!Number.isFinite(max) || max <= 0) return [0, 1];
  const rough = max / Math.max(1, count - 1);
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = ([1, 2, 2.5, 5, 10].find((factor) => factor * power >= rough) ?? 10) * power;
  const ticks: number[] = [];
  // Rounded through toPrecision so 0.1 + 0.2 style sums print as 0.3.
  for (let index = 0; ticks.length === 0 || ticks.at(-1)! < max; index++) {
    ticks.push(Number((index * step).toPrecision(12)));
  }
  return ticks;
}
