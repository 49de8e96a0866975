/**
 * Wilson score interval of a binomial proportion: unlike the plain normal (Wald) interval it
 * stays inside [0, 1] and does not collapse to a point at 0/n or n/n, which is what a small
 * suite needs (Newcombe 1998, method 3; Brown, Cai & DasGupta 2001).
 */
import { normalQuantileTwoSided } from './normal-quantile.js';

/** [low, high] as proportions (0–1); n = 0 knows nothing, so [0, 1]. */
export function wilsonInterval(options: {
  successes: number;
  trials: number;
  confidence?: number;
}): [number, number] {
  const { successes, trials } = options;
  if (trials <= 0) return [0, 1];
  const z = normalQuantileTwoSided(options.confidence ?? 0.95);
  const p = successes / trials;
  const z2 = z * z;
  const centre = p + z2 / (2 * trials);
  const spread = z * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials));
  const denominator = 1 + z2 / trials;
  // Exactly 0 and 1 at the edges (the formula gives them up to rounding).
  const low = successes === 0 ? 0 : (centre - spread) / denominator;
  const high = successes === trials ? 1 : (centre + spread) / denominator;
  return [Math.max(0, low), Math.min(1, high)];
}
