/**
 * Power of a paired comparison on n tests (Miller 2024, §5): the chance that a true change of
 * `detect` (0–1) shows as significant at 95%, given the standard deviation of one test's
 * paired difference. Normal approximation, two-sided.
 */
import normalCdf from '@stdlib/stats-base-dists-normal-cdf';
import normalQuantile from '@stdlib/stats-base-dists-normal-quantile';

const Z_95 = normalQuantile(0.975, 0, 1);

export function pairedPower(options: { tests: number; sdDifference: number; detect: number }): number {
  if (options.tests <= 0) return 0;
  if (options.sdDifference === 0) return 1;
  const standardError = options.sdDifference / Math.sqrt(options.tests);
  return normalCdf(Math.abs(options.detect) / standardError - Z_95, 0, 1);
}

/** Fewest tests for `power` (default 80%): n = ((z₀.₉₇₅ + z_power) · sd / detect)². */
export function testsForPower(options: { sdDifference: number; detect: number; power?: number }): number {
  const z = Z_95 + normalQuantile(options.power ?? 0.8, 0, 1);
  return Math.max(1, Math.ceil(((z * options.sdDifference) / Math.abs(options.detect)) ** 2));
}
