/**
 * The mean of per-run scores with a 95% interval whose standard error is clustered: runs of
 * one cluster (the K attempts of a test, or the tests of a folder) are not independent, so
 * their deviations are summed within the cluster before squaring (Miller 2024, "Adding Error
 * Bars to Evals", eq. 4), with the G/(G−1) small-sample factor. With one run per cluster
 * this is the ordinary standard error of the mean.
 */
import { normalQuantileTwoSided } from './normal-quantile.js';
import { wilsonInterval } from './wilson-interval.js';

export interface ScoredRun {
  /** 0–1 (1 = passed). */
  score: number;
  /** Runs with the same key are one cluster. */
  cluster: string;
}

export interface MeanEstimate {
  mean: number;
  standardError: number;
  /** [low, high] on the scores' scale, clipped to [0, 1]. */
  ci95: [number, number];
  clusters: number;
}

export function clusteredMean(runs: readonly ScoredRun[]): MeanEstimate {
  const n = runs.length;
  if (n === 0) return { mean: 0, standardError: 0, ci95: [0, 1], clusters: 0 };
  const mean = runs.reduce((sum, run) => sum + run.score, 0) / n;
  const deviations = new Map<string, number>();
  for (const run of runs) deviations.set(run.cluster, (deviations.get(run.cluster) ?? 0) + run.score - mean);
  const clusters = deviations.size;
  let squares = 0;
  for (const deviation of deviations.values()) squares += deviation * deviation;
  const variance = clusters > 1 ? (squares / (n * n)) * (clusters / (clusters - 1)) : 0;
  const standardError = Math.sqrt(variance);
  if (standardError === 0) {
    // Every cluster scored the same (all passed, all failed, or one cluster): a zero-width
    // interval would claim certainty, so fall back to Wilson over the clusters.
    const ci95 = wilsonInterval({ successes: mean * clusters, trials: clusters });
    return { mean, standardError, ci95, clusters };
  }
  const z = normalQuantileTwoSided(0.95);
  return {
    mean,
    standardError,
    ci95: [Math.max(0, mean - z * standardError), Math.min(1, mean + z * standardError)],
    clusters,
  };
}
