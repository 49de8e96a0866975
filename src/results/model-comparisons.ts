/**
 * Models of one run compared on the same tests (issue #33): "is the best model really better,
 * or is the gap two tests of noise?". Each model is paired with the best-ranked one, test by
 * test, so the tests' own difficulty cancels out.
 */
import { pairedDifference } from '../stats/index.js';
import { clusterKey } from './pass-rate-interval.js';
import type { ModelComparison, ModelSummary, RunResult, StatsCluster } from './results-file.js';
import { statusOf } from './run-status.js';

/** Pass fraction per test of one model (runs that ran only), and how many runs that was. */
function scoresByTest(
  results: readonly RunResult[],
  model: string,
): Map<string, { score: number; runs: number; file: string }> {
  const tally = new Map<string, { passes: number; runs: number; file: string }>();
  for (const result of results) {
    if (result.model !== model) continue;
    const status = statusOf(result);
    if (status === 'skipped') continue;
    const entry = tally.get(result.name) ?? { passes: 0, runs: 0, file: result.file };
    entry.runs++;
    if (status === 'passed') entry.passes++;
    tally.set(result.name, entry);
  }
  return new Map(
    [...tally].map(([name, entry]) => [
      name,
      { score: entry.passes / entry.runs, runs: entry.runs, file: entry.file },
    ]),
  );
}

/** One model against another on the tests both ran: A − B with its interval and a verdict. */
export function compareTwoModels(options: {
  results: readonly RunResult[];
  modelA: string;
  modelB: string;
  cluster?: StatsCluster;
}): ModelComparison {
  const a = scoresByTest(options.results, options.modelA);
  const b = scoresByTest(options.results, options.modelB);
  const pairs = [...a]
    .filter(([name]) => b.has(name))
    .map(([name, left]) => {
      const right = b.get(name)!;
      return {
        // pairedDifference measures b − a; the comparison reports A − B.
        a: right.score,
        b: left.score,
        cluster: clusterKey({ name, file: left.file }, options.cluster ?? 'test'),
        single: left.runs === 1 && right.runs === 1,
      };
    });
  const result = pairedDifference(pairs);
  return {
    model_a: options.modelA,
    model_b: options.modelB,
    tests: result.tests,
    difference: result.difference,
    difference_ci95: result.ci95,
    p_value: result.p_value,
    verdict: result.verdict,
  };
}

/** Every other model against the best-ranked one (`byModel` is ranked); none for one model. */
export function compareModels(options: {
  results: readonly RunResult[];
  byModel: readonly ModelSummary[];
  cluster?: StatsCluster;
}): ModelComparison[] {
  const ran = options.byModel.filter((summary) => summary.total > 0);
  const best = ran[0];
  if (best === undefined) return [];
  return ran.slice(1).map((other) =>
    compareTwoModels({
      results: options.results,
      modelA: best.model,
      modelB: other.model,
      ...(options.cluster ? { cluster: options.cluster } : {}),
    }),
  );
}
