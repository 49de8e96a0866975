import {
  orderedModels,
  partialReasons,
  passRate,
  type ResultsFile,
  repeatStats,
  selectionText,
  statusOf,
} from '../results/index.js';
import type { FileOverview, FileSays, HistoryNumbers, HistoryPoint, RunRow } from './api-types.js';
import { fileSaysOverall, recountedModel, recountedModels } from './recount-marks.js';

/** The file's repeat statistics; computed when a file with repeated attempts lacks them. */
function repeatsOf(file: ResultsFile): FileOverview['repeats'] {
  if (file.repeats) return file.repeats;
  const computed = repeatStats(file.results);
  return computed.length > 0 ? computed : null;
}

/**
 * A results file without its runs' details: what the dashboard needs to draw the cards, the
 * model table, the grid and the runs table. A 20,000-run file is ~40 MB with details and a
 * few MB without, so the browser fetches details one run at a time.
 */
export function buildOverview(options: { name: string; file: ResultsFile }): FileOverview {
  const { name, file } = options;
  const runs: RunRow[] = file.results.map((result, index) => ({
    index,
    name: result.name,
    model: result.model,
    status: statusOf(result),
    message: result.message,
    tokens: result.tokens,
    cost: result.cost,
    duration_ms: result.duration_ms,
    tool_call_count: result.tool_call_count,
    attempt: result.attempt,
    file: result.file,
    judged: result.details?.judged === true,
  }));
  return {
    name,
    timestamp: file.timestamp,
    started_at: file.started_at ?? null,
    finished_at: file.finished_at ?? null,
    command: file.command ?? null,
    nao_version: file.nao_version ?? null,
    interrupted: file.interrupted === true,
    repeat: typeof file.repeat === 'number' && file.repeat > 0 ? file.repeat : 1,
    summary: file.summary,
    pass_rate: passRate(file.summary.passed, file.summary.total),
    recounted:
      file.recounted === undefined
        ? null
        : `${file.recounted.reason} The file's own pass rate is ` +
          `${passRate(file.recounted.written_passed, file.recounted.written_total).toFixed(1)}%; ` +
          `nao shows ${passRate(file.summary.passed, file.summary.total).toFixed(1)}%.`,
    by_model: file.by_model,
    recounted_models: recountedModels(file),
    // The reader computes them for a multi-model file that lacks them (older, or the original's).
    comparisons: file.comparisons ?? [],
    models: orderedModels(file.results, file.models ?? []),
    tests: [...new Set(file.results.map((result) => result.name))],
    repeats: repeatsOf(file),
    runs,
  };
}

function historyNumbers(
  summary: ResultsFile['summary'],
  recount: { recounted: boolean; file_says: FileSays | null },
): HistoryNumbers {
  return {
    total: summary.total,
    passed: summary.passed,
    pass_rate: passRate(summary.passed, summary.total),
    total_cost: summary.total_cost,
    runs_without_cost: summary.runs_without_cost,
    pass_rate_ci95: summary.total === 0 ? null : summary.pass_rate_ci95,
    ...recount,
  };
}

/**
 * The few numbers of a file that the history chart plots, overall and per model, with their
 * 95% intervals, what sets them apart from a model's line (a partial run, mock or replayed
 * answers) and, for an original nao file, what the file itself says where nao recounts.
 */
export function buildHistoryPoint(options: { name: string; file: ResultsFile }): HistoryPoint {
  const { name, file } = options;
  const subset =
    file.selection !== undefined &&
    file.selection.last_failed === undefined &&
    file.selection.select.length > 0
      ? [`subset (${selectionText(file)})`]
      : [];
  const answered = (model: string, mark: 'mock' | 'replayed') =>
    file.results.some((result) => result.model === model && result.details[mark] === true);
  return {
    name,
    timestamp: file.timestamp,
    ...historyNumbers(file.summary, {
      recounted: file.recounted !== undefined,
      file_says: fileSaysOverall(file),
    }),
    partial: [...subset, ...partialReasons(file)],
    by_model: file.by_model.map((entry) => {
      const recounted = recountedModel(file, entry.model, entry);
      return {
        model: entry.model,
        ...historyNumbers(entry, { recounted: recounted !== null, file_says: recounted?.file_says ?? null }),
        mock: answered(entry.model, 'mock'),
        replayed: answered(entry.model, 'replayed'),
      };
    }),
  };
}
