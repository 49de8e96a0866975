/**
 * `summary` and `by_model` of the results file. Skipped runs were never run, so they are
 * counted in `skipped` and nowhere else: `total`, `pass_rate`, tokens, costs, durations and
 * the averages cover only the runs that ran (passed + failed + errors + unverified = total).
 */
import { compareModels } from './model-comparisons.js';
import { hasPassRateInterval, passRateInterval } from './pass-rate-interval.js';
import type { ModelSummary, ResultsFile, RunResult, StatsCluster, Summary } from './results-file.js';
import { statusOf } from './run-status.js';

/** Sums of floats are rounded to 1e-10 USD so 0.0125 × 3 is written as 0.0375. */
function roundUsd(value: number): number {
  return Math.round(value * 1e10) / 1e10;
}

function knownNumber(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/**
 * Totals and averages over the runs of `results` (see the module comment for skipped runs),
 * with the pass rate's 95% interval clustered on `cluster` (default: the test).
 */
export function summarize(results: readonly RunResult[], options: { cluster?: StatsCluster } = {}): Summary {
  let passed = 0;
  let failed = 0;
  let errors = 0;
  let unverified = 0;
  let skipped = 0;
  let totalTokens = 0;
  let totalCost: number | null = null;
  let runsWithoutCost = 0;
  let extractionCost: number | null = null;
  let judged = 0;
  let judgedPassed = 0;
  let judgeCost: number | null = null;
  let totalDurationMs = 0;
  let totalToolCalls = 0;

  for (const result of results) {
    const status = statusOf(result);
    if (status === 'skipped') {
      skipped++;
      continue;
    }
    if (status === 'passed') passed++;
    else if (status === 'failed') failed++;
    else if (status === 'error') errors++;
    else unverified++;

    totalTokens += knownNumber(result.tokens) ?? 0;
    const cost = knownNumber(result.cost);
    if (cost === null) runsWithoutCost++;
    else totalCost = (totalCost ?? 0) + cost;
    const extraction = knownNumber(result.details?.extraction_cost);
    if (extraction !== null) extractionCost = (extractionCost ?? 0) + extraction;
    if (result.details?.judged === true) {
      judged++;
      if (status === 'passed') judgedPassed++;
    }
    const judge = knownNumber(result.details?.judge?.cost);
    if (judge !== null) judgeCost = (judgeCost ?? 0) + judge;
    totalDurationMs += knownNumber(result.duration_ms) ?? 0;
    totalToolCalls += knownNumber(result.tool_call_count) ?? 0;
  }

  const total = passed + failed + errors + unverified;
  return {
    total,
    passed,
    // As the original nao counts it: every run that ran and did not pass.
    failed: total - passed,
    errors,
    unverified,
    skipped,
    total_tokens: totalTokens,
    total_cost: totalCost === null ? null : roundUsd(totalCost),
    runs_without_cost: runsWithoutCost,
    total_extraction_cost: extractionCost === null ? null : roundUsd(extractionCost),
    judged,
    judged_passed: judgedPassed,
    total_judge_cost: judgeCost === null ? null : roundUsd(judgeCost),
    total_duration_ms: totalDurationMs,
    total_duration_s: Math.round(totalDurationMs / 100) / 10,
    total_tool_calls: totalToolCalls,
    avg_duration_ms: total === 0 ? 0 : Math.round(totalDurationMs / total),
    avg_tool_calls: total === 0 ? 0 : Math.round((totalToolCalls * 10) / total) / 10,
    ...passRateInterval(results, options),
  };
}

/**
 * Runs whose status is `failed` (wrong data, a failed assertion, a judge's fail): the file's
 * `failed` counts every run that did not pass, as the original nao does, errors and unverified
 * runs included.
 */
export function failedRuns(summary: Pick<Summary, 'failed' | 'errors' | 'unverified'>): number {
  return summary.failed - summary.errors - summary.unverified;
}

/** Percent of runs that passed with one decimal: 2 of 3 → 66.7. */
export function passRate(passed: number, total: number): number {
  return total === 0 ? 0 : Math.round((passed * 1000) / total) / 10;
}

/** Average known cost per run, the fair price to compare models that ran different counts. */
function costPerRun(summary: Summary): number | null {
  const priced = summary.total - summary.runs_without_cost;
  return summary.total_cost === null || priced <= 0 ? null : summary.total_cost / priced;
}

/**
 * Ranking of the Performance by Model table: pass rate (desc, compared exactly, not on the
 * rounded percent), then cost per priced run (asc, unknown after known; equal to ranking by
 * total cost when models ran the same tests), then model name. Models with no run that ran
 * come last.
 */
export function compareModelSummaries(a: ModelSummary, b: ModelSummary): number {
  if ((a.total === 0) !== (b.total === 0)) return a.total === 0 ? 1 : -1;
  const byRate = b.passed * a.total - a.passed * b.total;
  if (byRate !== 0) return byRate;
  const costA = costPerRun(a);
  const costB = costPerRun(b);
  if (costA !== costB) {
    if (costA === null) return 1;
    if (costB === null) return -1;
    return costA - costB;
  }
  return a.model < b.model ? -1 : a.model > b.model ? 1 : 0;
}

/**
 * One summary per model, ranked like the Performance by Model table. Models named in
 * `modelOrder` that have no result at all still get a (zero) row, so a configured model
 * never silently disappears from the comparison.
 */
export function summarizeByModel(
  results: readonly RunResult[],
  options: { modelOrder?: readonly string[]; cluster?: StatsCluster } = {},
): ModelSummary[] {
  const byModel = new Map<string, RunResult[]>();
  for (const model of options.modelOrder ?? []) byModel.set(model, []);
  for (const result of results) {
    const runs = byModel.get(result.model);
    if (runs) runs.push(result);
    else byModel.set(result.model, [result]);
  }
  const summaries = [...byModel].map(([model, runs]) => {
    const summary = summarize(runs, options.cluster ? { cluster: options.cluster } : {});
    const { total, passed, failed, errors, unverified, skipped, ...rest } = summary;
    return {
      model,
      total,
      passed,
      failed,
      errors,
      unverified,
      skipped,
      pass_rate: passRate(passed, total),
      ...rest,
    } satisfies ModelSummary;
  });
  return summaries.sort(compareModelSummaries);
}

/** Models in configured order, then any other model in the order its results appear. */
export function orderedModels(results: readonly RunResult[], modelOrder: readonly string[] = []): string[] {
  const present = new Set(results.map((result) => result.model));
  const ordered = modelOrder.filter(
    (model, index) => present.has(model) && modelOrder.indexOf(model) === index,
  );
  for (const result of results) if (!ordered.includes(result.model)) ordered.push(result.model);
  return ordered;
}

/**
 * The file with `by_model`, the pass-rate intervals and (with several models) `comparisons`
 * present: files written before they existed (and the original nao's) get them computed from
 * their results, so the viewer's model tables and error bars and `nao test summary` work on
 * them too.
 */
export function ensureByModel(
  file: Omit<ResultsFile, 'by_model'> & { by_model?: ModelSummary[] | null },
): ResultsFile {
  const cluster = file.stats_cluster === 'folder' ? { cluster: 'folder' as const } : {};
  let byModel = file.by_model;
  if (!Array.isArray(byModel))
    byModel = summarizeByModel(file.results, { modelOrder: file.models ?? [], ...cluster });
  else if (!byModel.every(hasPassRateInterval)) {
    byModel = byModel.map((entry) =>
      hasPassRateInterval(entry)
        ? entry
        : {
            ...entry,
            ...passRateInterval(
              file.results.filter((result) => result.model === entry.model),
              cluster,
            ),
          },
    );
  }
  const summary = hasPassRateInterval(file.summary)
    ? file.summary
    : { ...file.summary, ...passRateInterval(file.results, cluster) };
  const comparisons =
    file.comparisons ??
    compareModels({ results: file.results, byModel: [...byModel].sort(compareModelSummaries), ...cluster });
  return { ...file, summary, by_model: byModel, ...(comparisons.length > 0 ? { comparisons } : {}) };
}
