/** One run of the suite: a test, against a model, for one attempt. */
export interface PlannedRun<Test> {
  /** Position in the report: models in configured order, then tests in discovery order, then attempts. */
  index: number;
  test: Test;
  model: string;
  /** 1-based. */
  attempt: number;
}

/** Lays out models × tests × attempts in the order results are saved and printed. */
export function planRuns<Test>(options: {
  tests: readonly Test[];
  models: readonly string[];
  repeat: number;
  /** Keeps only some (test, model) pairs (`--last-failed`); default every pair. */
  include?: (test: Test, model: string) => boolean;
}): PlannedRun<Test>[] {
  const runs: PlannedRun<Test>[] = [];
  for (const model of options.models) {
    for (const test of options.tests) {
      if (options.include !== undefined && !options.include(test, model)) continue;
      for (let attempt = 1; attempt <= options.repeat; attempt++) {
        runs.push({ index: runs.length, test, model, attempt });
      }
    }
  }
  return runs;
}
