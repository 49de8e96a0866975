/** The z of a two-sided normal interval: 1.959964 for 95%. */
import quantile from '@stdlib/stats-base-dists-normal-quantile';

export function normalQuantileTwoSided(confidence: number): number {
  return quantile(1 - (1 - confidence) / 2, 0, 1);
}
