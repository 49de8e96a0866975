import { describe, expect, it } from 'vitest';
import { clusteredMean, type ScoredRun } from './clustered-mean.js';

const runs = (scores: number[][]): ScoredRun[] =>
  scores.flatMap((cluster, index) => cluster.map((score) => ({ score, cluster: `t${index}` })));

describe('clusteredMean', () => {
  it('with one run per cluster is the mean ± 1.96 · s/√n', () => {
    // 6 of 10: s² = 10/9 · 0.24, SE = √(0.2667/10) = 0.16330
    const estimate = clusteredMean(runs([[1], [1], [1], [1], [1], [1], [0], [0], [0], [0]]));
    expect(estimate.mean).toBeCloseTo(0.6, 10);
    expect(estimate.standardError).toBeCloseTo(0.163299, 5);
    expect(estimate.ci95[0]).toBeCloseTo(0.6 - 1.959964 * 0.163299, 5);
    expect(estimate.ci95[1]).toBeCloseTo(0.6 + 1.959964 * 0.163299, 5);
  });

  it('treats the attempts of one test as one unit: a wider interval than if they were independent', () => {
    // Each test passes all or none of its 3 attempts: 3 informative units, not 9.
    const clustered = clusteredMean(
      runs([
        [1, 1, 1],
        [1, 1, 1],
        [0, 0, 0],
      ]),
    );
    const independent = clusteredMean(
      [1, 1, 1, 1, 1, 1, 0, 0, 0].map((score, index) => ({ score, cluster: `r${index}` })),
    );
    expect(clustered.mean).toBeCloseTo(2 / 3, 10);
    // Σ_c (Σ dev)² / n² · G/(G−1) = (1 + 1 + 4) / 81 · 3/2 → SE = 0.33333
    expect(clustered.standardError).toBeCloseTo(1 / 3, 6);
    expect(clustered.standardError).toBeGreaterThan(independent.standardError);
  });

  it('never gives a zero-width interval at 0% or 100%', () => {
    const all = clusteredMean(
      runs([
        [1, 1],
        [1, 1],
        [1, 1],
        [1, 1],
      ]),
    );
    expect(all.ci95[1]).toBe(1);
    expect(all.ci95[0]).toBeCloseTo(0.5101, 4); // Wilson 4/4
    const none = clusteredMean(runs([[0], [0], [0]]));
    expect(none.ci95[0]).toBe(0);
    expect(none.ci95[1]).toBeCloseTo(0.5615, 4); // Wilson 0/3
  });

  it('knows nothing of no runs', () => {
    expect(clusteredMean([]).ci95).toEqual([0, 1]);
  });
});
