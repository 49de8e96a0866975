/**
 * The difference between two pass rates measured on the same tests, from the per-test
 * differences (Miller 2024, §4): pairing removes the tests' own difficulty from the noise,
 * so a paired interval is much narrower than two separate intervals side by side.
 */
import { clusteredMean } from './clustered-mean.js';
import { mcnemarExactP } from './mcnemar-exact.js';
import { normalQuantileTwoSided } from './normal-quantile.js';

/** Below this many shared tests a verdict would mostly be noise, so none is given. */
export const MIN_PAIRED_TESTS = 10;

export interface PairedScore {
  /** Score of the test on side A and on side B, 0–1 (pass fraction with repeats). */
  a: number;
  b: number;
  /** The test (or its folder, with `test.stats.cluster: folder`). */
  cluster: string;
  /** True when both sides ran the test once (McNemar's exact test applies). */
  single: boolean;
}

export type PairedVerdict = 'significant' | 'within noise' | 'too few tests';

export interface PairedDifference {
  /** Tests compared. */
  tests: number;
  /** B − A in points (percent), one decimal. */
  difference: number;
  /** 95% interval of B − A in points. */
  ci95: [number, number];
  /** McNemar's exact two-sided p-value; null when some test ran more than once. */
  p_value: number | null;
  verdict: PairedVerdict;
}

const points = (value: number) => Math.round(value * 1000) / 10;

/**
 * `significant` when the interval excludes 0 and, for single attempts, McNemar's exact test
 * agrees (p < 0.05); `too few tests` below MIN_PAIRED_TESTS.
 */
export function pairedDifference(pairs: readonly PairedScore[]): PairedDifference {
  const estimate = clusteredMean(pairs.map((pair) => ({ score: pair.b - pair.a, cluster: pair.cluster })));
  // clusteredMean's interval is for rates in [0, 1]; a difference lives in [−1, 1].
  const z = normalQuantileTwoSided(0.95);
  const low =
    estimate.standardError === 0 ? estimate.mean : Math.max(-1, estimate.mean - z * estimate.standardError);
  const high =
    estimate.standardError === 0 ? estimate.mean : Math.min(1, estimate.mean + z * estimate.standardError);
  const single = pairs.length > 0 && pairs.every((pair) => pair.single);
  const p_value = single
    ? mcnemarExactP({
        onlyA: pairs.filter((pair) => pair.a > pair.b).length,
        onlyB: pairs.filter((pair) => pair.b > pair.a).length,
      })
    : null;
  let verdict: PairedVerdict;
  if (pairs.length < MIN_PAIRED_TESTS) verdict = 'too few tests';
  else if ((low > 0 || high < 0) && (p_value === null || p_value < 0.05)) verdict = 'significant';
  else verdict = 'within noise';
  return {
    tests: pairs.length,
    difference: points(estimate.mean),
    ci95: [points(low), points(high)],
    p_value,
    verdict,
  };
}
