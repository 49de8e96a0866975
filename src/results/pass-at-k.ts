/**
 * Statistics of repeated runs (`--repeat K`): how likely a test passes when a model gets k
 * tries (pass@k), how likely it passes k times in a row (pass^k), and whether it is flaky.
 */
import type { RepeatStats, RunResult } from './results-file.js';
import { groupByPair } from './run-pairs.js';
import { statusOf } from './run-status.js';

function checkCounts(options: { n: number; c: number; k: number }): void {
  const { n, c, k } = options;
  for (const [name, value] of Object.entries(options)) {
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new RangeError(`pass@k: ${name} must be a non-negative integer, got ${value}`);
    }
  }
  if (c > n) throw new RangeError(`pass@k: passes c=${c} cannot exceed runs n=${n}`);
  if (k < 1 || k > n) throw new RangeError(`pass@k: k=${k} must be between 1 and runs n=${n}`);
}

/**
 * The unbiased estimator 1 − C(n−c, k) / C(n, k) of "at least one of k tries passes", from c
 * passes in n runs. Computed as 1 − Π_{i=n−c+1..n} (1 − k/i), which never builds a binomial,
 * so it stays exact-ish for any n (the form used by the HumanEval paper).
 */
export function passAtK(options: { n: number; c: number; k: number }): number {
  checkCounts(options);
  const { n, c, k } = options;
  if (n - c < k) return 1;
  let allFail = 1;
  for (let i = n - c + 1; i <= n; i++) allFail *= 1 - k / i;
  return 1 - allFail;
}

/** (c/n)^k: the chance that k tries in a row all pass, at the observed pass rate. */
export function passHatK(options: { n: number; c: number; k: number }): number {
  checkCounts(options);
  const { n, c, k } = options;
  return (c / n) ** k;
}

/**
 * Per (test, model) statistics over its attempts, for every pair that has more than one
 * result, in the order the pairs first appear. Skipped attempts never ran and are left out
 * of n (a pair whose attempts were all skipped has no statistics); error and unverified
 * attempts count as runs that did not pass, since they never produced a passing answer.
 * k = n, the number of attempts that ran.
 */
export function repeatStats(results: readonly RunResult[]): RepeatStats[] {
  const stats: RepeatStats[] = [];
  for (const attempts of groupByPair(results).values()) {
    if (attempts.length < 2) continue;
    const { name, model } = attempts[0]!;
    const statuses = attempts.map(statusOf).filter((status) => status !== 'skipped');
    const n = statuses.length;
    if (n === 0) continue;
    const c = statuses.filter((status) => status === 'passed').length;
    stats.push({
      name,
      model,
      runs: n,
      passes: c,
      k: n,
      pass_at_k: passAtK({ n, c, k: n }),
      pass_hat_k: passHatK({ n, c, k: n }),
      flaky: c > 0 && c < n,
    });
  }
  return stats;
}
