/**
 * Run-to-run diff (`nao test diff BEFORE AFTER`): which (test, model) pairs started failing,
 * got fixed, stayed the same, appeared or disappeared between two results files.
 */
import { didYouMean, UsageError } from '../errors/index.js';
import { type PairedDifference, pairedDifference } from '../stats/index.js';
import type { ModelSummary, ResultsFile, RunResult, RunStatus } from './results-file.js';
import { groupByPair } from './run-pairs.js';
import { statusOf } from './run-status.js';
import { orderedModels, summarizeByModel } from './summarize.js';

/** What one side of the diff says about a (test, model) pair, over all its attempts. */
export interface PairOutcome {
  /**
   * passed when every attempt that ran passed; skipped when none ran; otherwise the worst
   * status among the attempts that ran (failed, then error, then unverified).
   */
  status: RunStatus;
  /** A pair passes when at least one attempt ran and every attempt that ran passed. */
  passed: boolean;
  passes: number;
  /** Attempts that ran (skipped ones excluded). */
  runs: number;
  /** All attempts, skipped included. */
  attempts: number;
  /** The message of the first attempt with the pair's status. */
  message: string;
}

export interface ComparedPair {
  name: string;
  model: string;
  before: PairOutcome | null;
  after: PairOutcome | null;
}

export interface ModelPassRates {
  model: string;
  before: ModelSummary | null;
  after: ModelSummary | null;
  /**
   * After − before on the tests that ran on both sides, paired test by test: is the change
   * real (`significant`) or `within noise`? null when no test ran on both sides.
   */
  change: PairedDifference | null;
}

export interface RunComparison {
  before: { timestamp: string };
  after: { timestamp: string };
  /** Passed before, ran and did not pass after. `nao test diff` fails on any. */
  regressions: ComparedPair[];
  /** Ran and did not pass before, passed after. */
  fixes: ComparedPair[];
  /** Ran on both sides with the same pass/not-pass outcome (the status may differ: failed → error). */
  unchanged: ComparedPair[];
  /** Only in the after file. */
  added: ComparedPair[];
  /** Only in the before file. */
  removed: ComparedPair[];
  /** In both files but skipped on at least one side, so there is nothing to compare. */
  notRun: ComparedPair[];
  /** Per-model summaries of the compared runs on each side, in the after file's model order. */
  models: ModelPassRates[];
}

const WORST_FIRST: readonly RunStatus[] = ['failed', 'error', 'unverified'];

function outcomeOf(attempts: readonly RunResult[]): PairOutcome {
  const statuses = attempts.map(statusOf);
  const ran = statuses.filter((status) => status !== 'skipped');
  const passes = ran.filter((status) => status === 'passed').length;
  let status: RunStatus;
  if (ran.length === 0) status = 'skipped';
  else if (passes === ran.length) status = 'passed';
  else status = WORST_FIRST.find((candidate) => (ran as RunStatus[]).includes(candidate)) ?? 'failed';
  const index = statuses.indexOf(status);
  return {
    status,
    passed: status === 'passed',
    passes,
    runs: ran.length,
    attempts: attempts.length,
    message: attempts[Math.max(0, index)]?.message ?? '',
  };
}

function checkFilter(options: { kind: 'model' | 'test'; value: string; known: readonly string[] }): void {
  const { kind, value, known } = options;
  if (known.includes(value)) return;
  const suggestion = didYouMean(value, known);
  throw new UsageError({
    code: kind === 'model' ? 'DIFF_UNKNOWN_MODEL' : 'DIFF_UNKNOWN_TEST',
    message:
      `No ${kind} "${value}" in either results file.` +
      (suggestion ? ` Did you mean "${suggestion}"?` : '') +
      ` Available ${kind}s: ${known.length > 0 ? known.join(', ') : '(none)'}.`,
  });
}

/**
 * Compares two results files pair by pair, optionally for one model and/or one test
 * (an unknown name is a UsageError listing the available ones). With --repeat, a pair passes
 * only when all its attempts that ran passed, so 3/3 → 2/3 is a regression.
 */
export function compareRunFiles(options: {
  before: ResultsFile;
  after: ResultsFile;
  model?: string;
  test?: string;
}): RunComparison {
  const all = [...options.before.results, ...options.after.results];
  if (options.model !== undefined) {
    checkFilter({
      kind: 'model',
      value: options.model,
      known: [...new Set(all.map((result) => result.model))],
    });
  }
  if (options.test !== undefined) {
    checkFilter({ kind: 'test', value: options.test, known: [...new Set(all.map((result) => result.name))] });
  }
  const selected = (results: readonly RunResult[]) =>
    results.filter(
      (result) =>
        (options.model === undefined || result.model === options.model) &&
        (options.test === undefined || result.name === options.test),
    );
  const beforeResults = selected(options.before.results);
  const afterResults = selected(options.after.results);
  const before = groupByPair(beforeResults);
  const after = groupByPair(afterResults);

  const comparison: RunComparison = {
    before: { timestamp: options.before.timestamp },
    after: { timestamp: options.after.timestamp },
    regressions: [],
    fixes: [],
    unchanged: [],
    added: [],
    removed: [],
    notRun: [],
    models: [],
  };
  const keys = [...after.keys(), ...[...before.keys()].filter((key) => !after.has(key))];
  for (const key of keys) {
    const afterRuns = after.get(key);
    const beforeRuns = before.get(key);
    const first = (afterRuns ?? beforeRuns)?.[0];
    if (first === undefined) continue;
    const pair: ComparedPair = {
      name: first.name,
      model: first.model,
      before: beforeRuns ? outcomeOf(beforeRuns) : null,
      after: afterRuns ? outcomeOf(afterRuns) : null,
    };
    if (pair.before === null) comparison.added.push(pair);
    else if (pair.after === null) comparison.removed.push(pair);
    else if (pair.before.runs === 0 || pair.after.runs === 0) comparison.notRun.push(pair);
    else if (pair.before.passed && !pair.after.passed) comparison.regressions.push(pair);
    else if (!pair.before.passed && pair.after.passed) comparison.fixes.push(pair);
    else comparison.unchanged.push(pair);
  }

  const beforeModels = summarizeByModel(beforeResults);
  const afterModels = summarizeByModel(afterResults);
  const models = orderedModels([...afterResults, ...beforeResults], options.after.models ?? []);
  const compared = [...comparison.regressions, ...comparison.fixes, ...comparison.unchanged];
  comparison.models = models.map((model) => {
    const pairs = compared
      .filter((pair) => pair.model === model)
      .map((pair) => ({
        a: pair.before!.passes / pair.before!.runs,
        b: pair.after!.passes / pair.after!.runs,
        cluster: pair.name,
        single: pair.before!.runs === 1 && pair.after!.runs === 1,
      }));
    return {
      model,
      before: beforeModels.find((summary) => summary.model === model) ?? null,
      after: afterModels.find((summary) => summary.model === model) ?? null,
      change: pairs.length > 0 ? pairedDifference(pairs) : null,
    };
  });
  return comparison;
}

/** A model whose pass rate dropped beyond noise: what `nao test diff --fail-on significant` fails on. */
export function significantDrops(comparison: RunComparison): ModelPassRates[] {
  return comparison.models.filter(
    (entry) => entry.change !== null && entry.change.verdict === 'significant' && entry.change.difference < 0,
  );
}
