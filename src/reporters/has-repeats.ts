import type { RunResult } from '../report/results-file.js';

/** True when some test ran more than once on one model (--repeat): attempts are then told apart. */
export function hasRepeats(results: readonly RunResult[]): boolean {
  const seen = new Set<string>();
  for (const result of results) {
    const key = JSON.stringify([result.name, result.model]);
    if (seen.has(key)) return true;
    seen.add(key);
  }
  return false;
}
