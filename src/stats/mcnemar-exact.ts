/**
 * McNemar's exact test of paired pass/fail outcomes: of the tests whose outcome differs
 * between A and B (b pass only on A, c pass only on B), is the split further from even than
 * chance allows? Two-sided p = min(1, 2·P(X ≤ min(b, c))) with X ~ Binomial(b + c, ½).
 */
import binomialCdf from '@stdlib/stats-base-dists-binomial-cdf';

export function mcnemarExactP(options: { onlyA: number; onlyB: number }): number {
  const discordant = options.onlyA + options.onlyB;
  if (discordant === 0) return 1;
  return Math.min(1, 2 * binomialCdf(Math.min(options.onlyA, options.onlyB), discordant, 0.5));
}
