import type { TestCase } from '../test-files/index.js';

/** What the verdict needs of a check (the data comparison, the judge, the assertions): its outcome. */
export interface CheckOutcome {
  passed: boolean;
  message: string;
}

export type VerdictStatus = 'passed' | 'failed' | 'error' | 'unverified';

export interface Verdict {
  status: VerdictStatus;
  /** True only for `passed`: an error or an unverified run never counts as a pass. */
  passed: boolean;
  message: string;
}

/**
 * Judges one run from what the test asks for: its data must match when it has reference
 * SQL, the judge model must accept its answer when it has an expected answer, its assertions
 * must hold when it has some, and all of them together. A run that could not be judged is
 * `error` (something failed) or `unverified` (nothing to check), never a pass.
 */
export function decideVerdict(options: {
  test: Pick<TestCase, 'sql' | 'expectedAnswer' | 'assertions'>;
  comparison: CheckOutcome | null;
  /** The judge model's grading of the answer against `expected_answer`. */
  judged: CheckOutcome | null;
  assertions: CheckOutcome | null;
  /** Transport, provider, reference SQL, extraction or judge failure of this run. */
  error: string | null;
}): Verdict {
  const { test, comparison, judged, assertions, error } = options;
  if (error !== null) {
    return {
      status: 'error',
      passed: false,
      message: error.trim() === '' ? 'error (no details given)' : error,
    };
  }
  const checksData = test.sql !== null;
  const checksAnswer = test.expectedAnswer !== null;
  const checksAssertions = test.assertions.length > 0;
  if (!checksData && !checksAnswer && !checksAssertions) {
    return { status: 'unverified', passed: false, message: 'no verification' };
  }
  // A missing result means the pipeline skipped a check the test asks for: not judgeable.
  if (checksData && comparison === null) {
    return { status: 'error', passed: false, message: 'the data was not compared with the reference SQL' };
  }
  if (checksAnswer && judged === null) {
    return { status: 'error', passed: false, message: 'the answer was not graded by the judge model' };
  }
  if (checksAssertions && assertions === null) {
    return { status: 'error', passed: false, message: 'the assertions were not checked' };
  }
  const parts: CheckOutcome[] = [];
  if (checksData && comparison !== null) parts.push(comparison);
  if (checksAnswer && judged !== null) parts.push(judged);
  if (checksAssertions && assertions !== null) parts.push(assertions);
  const passed = parts.every((part) => part.passed);
  return {
    status: passed ? 'passed' : 'failed',
    passed,
    message: parts
      .map((part) => part.message)
      .filter((message) => message !== '')
      .join('; '),
  };
}
