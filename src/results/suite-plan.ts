/**
 * `nao test plan`: is the suite big enough to see a change of `detect` points in a model's
 * pass rate from one run to the next? Paired on the same tests, a test's difficulty cancels
 * and only its run-to-run flakiness is noise, measured from the attempts of `--repeat`; with
 * one attempt per test it is unknown, so the worst case (any test may flip) is assumed.
 */
import { pairedPower, testsForPower } from '../stats/index.js';
import type { ModelSummary, ResultsFile } from './results-file.js';
import { statusOf } from './run-status.js';

export interface ModelPlan {
  model: string;
  summary: ModelSummary;
  tests: number;
  /** Attempts per test in the file (the most any test had). */
  repeat: number;
  /** Variance of one attempt around its test's pass fraction; null when each test ran once. */
  withinVariance: number | null;
  /** Chance that a real change of `detect` shows as significant with this suite and repeat. */
  power: number;
  /** Tests for 80% at this repeat, and repeats for 80% with these tests. */
  testsNeeded: number;
  repeatsNeeded: number;
}

export function planSuite(options: { file: ResultsFile; detect: number }): ModelPlan[] {
  return options.file.by_model
    .filter((summary) => summary.total > 0)
    .map((summary) => {
      const tally = new Map<string, { passes: number; runs: number }>();
      for (const result of options.file.results) {
        const status = statusOf(result);
        if (result.model !== summary.model || status === 'skipped') continue;
        const entry = tally.get(result.name) ?? { passes: 0, runs: 0 };
        entry.runs++;
        if (status === 'passed') entry.passes++;
        tally.set(result.name, entry);
      }
      const tests = [...tally.values()];
      const repeat = Math.max(...tests.map((entry) => entry.runs));
      const repeated = tests.filter((entry) => entry.runs > 1);
      // Unbiased per-attempt variance within each repeated test, averaged over the tests.
      const withinVariance =
        repeated.length === 0
          ? null
          : repeated.reduce((sum, { passes, runs }) => {
              const share = passes / runs;
              return sum + (share * (1 - share) * runs) / (runs - 1);
            }, 0) / repeated.length;
      const rate = summary.passed / summary.total;
      const perAttempt = withinVariance ?? rate * (1 - rate);
      // A test's paired difference between two runs of `repeat` attempts each.
      const sdAt = (attempts: number) => Math.sqrt((2 * perAttempt) / attempts);
      const detect = options.detect / 100;
      const single = testsForPower({ sdDifference: sdAt(1), detect });
      return {
        model: summary.model,
        summary,
        tests: tests.length,
        repeat,
        withinVariance,
        power: pairedPower({ tests: tests.length, sdDifference: sdAt(repeat), detect }),
        testsNeeded: testsForPower({ sdDifference: sdAt(repeat), detect }),
        repeatsNeeded: Math.max(1, Math.ceil(single / tests.length)),
      };
    });
}
