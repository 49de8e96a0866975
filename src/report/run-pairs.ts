import type { RunResult } from './results-file.js';

/**
 * The results of each (test, model) pair, the unit of `--repeat` statistics and of run diffs:
 * pairs in the order they first appear, attempts in the order given.
 */
export function groupByPair(results: readonly RunResult[]): Map<string, RunResult[]> {
  const groups = new Map<string, RunResult[]>();
  for (const result of results) {
    const key = JSON.stringify([result.name, result.model]);
    const group = groups.get(key);
    if (group) group.push(result);
    else groups.set(key, [result]);
  }
  return groups;
}

/** True when some test ran more than once on one model (--repeat): attempts are then told apart. */
export function hasRepeats(results: readonly RunResult[]): boolean {
  return groupByPair(results).size < results.length;
}
