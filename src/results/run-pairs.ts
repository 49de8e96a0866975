import type { RunResult } from './results-file.js';

interface Pair {
  name: string;
  model: string;
}

/** The key of a (test, model) pair in `groupByPair`'s map. */
export function pairKey(pair: Pair): string {
  return JSON.stringify([pair.name, pair.model]);
}

/**
 * The results of each (test, model) pair, the unit of `--repeat` statistics and of run diffs:
 * pairs in the order they first appear, attempts in the order given.
 */
export function groupByPair<T extends Pair>(results: readonly T[]): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const result of results) {
    const key = pairKey(result);
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
