import { compareModels } from './model-comparisons.js';
import { repeatStats } from './pass-at-k.js';
import type { ResultsFile, RunResult, SelectionRecord, ShardRecord, StatsCluster } from './results-file.js';
import { summarize, summarizeByModel } from './summarize.js';
import { localIsoTimestamp } from './write-results.js';

/**
 * Assembles the results file from the runner's results (kept in the order given) so that
 * `summary`, `by_model` and `repeats` always agree with `results`. Pass the same `now` to
 * `writeResultsFile` so the file name and `timestamp` name the same second.
 */
export function buildResultsFile(options: {
  results: RunResult[];
  now: Date;
  /** Configured models in order; also gives a configured model without results a by_model row. */
  models?: string[];
  repeat?: number;
  command?: string;
  naoVersion?: string;
  priceTableVersion?: string;
  interrupted?: boolean;
  startedAt?: Date;
  /** `--shard i/n`: which slice of which suite the results are. */
  shard?: ShardRecord;
  /** Why the suite stopped starting runs before the end (not for Ctrl-C: that is `interrupted`). */
  stoppedBy?: 'fail-fast' | 'budget';
  /** `-s` / `--last-failed`: the run covered only these tests. */
  selection?: SelectionRecord;
  /** `test.stats.cluster`: what the pass-rate intervals cluster on (default: the test). */
  cluster?: StatsCluster;
}): ResultsFile {
  const { results } = options;
  const repeats = repeatStats(results);
  const cluster = options.cluster ? { cluster: options.cluster } : {};
  const byModel = summarizeByModel(results, { modelOrder: options.models ?? [], ...cluster });
  const comparisons = compareModels({ results, byModel, ...cluster });
  const file: ResultsFile = {
    timestamp: localIsoTimestamp(options.now),
    results,
    summary: summarize(results, cluster),
    by_model: byModel,
    ...(comparisons.length > 0 ? { comparisons } : {}),
  };
  if (repeats.length > 0 || (options.repeat ?? 1) > 1) file.repeats = repeats;
  if (options.cluster === 'folder') file.stats_cluster = 'folder';
  if (options.naoVersion !== undefined) file.nao_version = options.naoVersion;
  if (options.priceTableVersion !== undefined) file.price_table_version = options.priceTableVersion;
  if (options.command !== undefined) file.command = options.command;
  if (options.models !== undefined) file.models = options.models;
  if (options.repeat !== undefined) file.repeat = options.repeat;
  if (options.interrupted !== undefined) file.interrupted = options.interrupted;
  if (options.stoppedBy !== undefined) file.stopped_by = options.stoppedBy;
  if (options.selection !== undefined) file.selection = options.selection;
  if (options.startedAt !== undefined) file.started_at = localIsoTimestamp(options.startedAt);
  file.finished_at = localIsoTimestamp(options.now);
  if (options.shard !== undefined) file.shard = options.shard;
  return file;
}
