import type { TestCase } from '../test-files/index.js';

/** What the verdict needs of a check (the data comparison or the assertions): its outcome. */
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
 * SQL, its assertions must hold when it has some, and both when it has both. A run that
 * could not be judged is `error` (something failed) or `unverified` (nothing to check),
 * never a pass.
 */
export function decideVerdict(options: {
  test: Pick<TestCase, 'sql' | 'assertions'>;
  comparison: CheckOutcome | null;
  assertions: CheckOutcome | null;
  /** Transport, provider, reference SQL or extraction failure of this run. */
  error: string | null;
}): Verdict {
  const { test, comparison, assertions, error } = options;
  if (error !== null) {
    return {
      status: 'error',
      passed: false,
      message: error.trim() === '' ? 'error (no details given)' : error,
    };
  }
  const checksData = test.sql !== null;
  const checksAssertions = test.assertions.length > 0;
  if (!checksData && !checksAssertions) {
    return { status: 'unverified', passed: false, message: 'no verification' };
  }
  // A missing result means the pipeline skipped a check the test asks for: not judgeable.
  if (checksData && comparison === null) {
    return { status: 'error', passed: false, message: 'the data was not compared with the reference SQL' };
  }
  if (checksAssertions && assertions === null) {
    return { status: 'error', passed: false, message: 'the tool-call assertions were not checked' };
  }
  const parts: Array<{ passed: boolean; message: string }> = [];
  if (checksData && comparison !== null) parts.push(comparison);
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
