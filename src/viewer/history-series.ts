/**
 * The lines of the history chart: one per model, one point per results file (oldest first),
 * and the ticks of the value axis. A model absent from a file, a model whose runs were all
 * skipped, or a cost nobody knows has no point there (a gap), never a zero. Only complete runs
 * of every test answered live are joined into a model's line; a partial run (a subset, a
 * rerun, a shard, an interrupted or stopped run) or replayed answers are marked points apart,
 * with the reason. A pass-rate point carries its 95% interval (the chart's error bar) and, when
 * nao recounted it from an original nao file, what the file says. Used by the web UI.
 */
import type { FileSays, HistoryPoint } from './api-types.js';

export type HistoryMetric = 'pass_rate' | 'total_cost';

export interface HistorySeries {
  model: string;
  /** The built-in `mock:reference`: its points are no model's result. */
  mock: boolean;
  /** One value per file, in the order of the files given, joined into the line; null where there is nothing to join. */
  values: (number | null)[];
  /** Per file, the value of a run set apart from the line (partial or replayed), and why; null elsewhere. */
  marked: ({ value: number; reason: string } | null)[];
  /** Per file, the 95% interval of the point, on the line or apart (pass rate only); null elsewhere. */
  intervals: ([number, number] | null)[];
  /** Per file, a point nao recounted from an original file, with what the file says (pass rate only). */
  recounts: ({ fileSays: FileSays | null } | null)[];
}

/** Why a model's point in a file is not part of its line; null when it is. */
function apartReason(file: HistoryPoint, entry: HistoryPoint['by_model'][number]): string | null {
  const reasons = [...file.partial, ...(entry.replayed ? ['replayed from recordings'] : [])];
  return reasons.length === 0 ? null : reasons.join(', ');
}

/** Series per model, the models in the order they first appear from the newest file back. */
export function historySeries(files: readonly HistoryPoint[], metric: HistoryMetric): HistorySeries[] {
  const newestFirst = [...files].reverse();
  const models = [...new Set(newestFirst.flatMap((file) => file.by_model.map((entry) => entry.model)))];
  return models.map((model) => {
    const values: HistorySeries['values'] = [];
    const marked: HistorySeries['marked'] = [];
    const intervals: HistorySeries['intervals'] = [];
    const recounts: HistorySeries['recounts'] = [];
    let mock = false;
    for (const file of files) {
      const entry = file.by_model.find((candidate) => candidate.model === model);
      const value =
        entry === undefined || entry.total === 0
          ? null
          : metric === 'pass_rate'
            ? entry.pass_rate
            : entry.total_cost;
      const reason = entry === undefined ? null : apartReason(file, entry);
      mock ||= entry?.mock === true;
      values.push(reason === null ? value : null);
      marked.push(reason === null || value === null ? null : { value, reason });
      const rate = metric === 'pass_rate' && value !== null ? entry : undefined;
      intervals.push(rate?.pass_rate_ci95 ?? null);
      recounts.push(rate?.recounted ? { fileSays: rate.file_says } : null);
    }
    return { model, mock, values, marked, intervals, recounts };
  });
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
