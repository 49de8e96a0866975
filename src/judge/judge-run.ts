import type { ComparisonOptions } from '../config/index.js';
import type { TestRunResponse } from '../pipeline/index.js';
import type { TestCase } from '../test-files/index.js';
import { type AssertionReport, checkAssertions } from './assertions/index.js';
import { type ComparisonResult, compareResults } from './compare/index.js';
import { decideVerdict, type Verdict } from './verdict.js';

/** Everything the judge found about one run: the verdict and the evidence behind it. */
export interface Judgement {
  verdict: Verdict;
  /** The data comparison; null when the test has no `sql` or the run could not be compared. */
  comparison: ComparisonResult | null;
  /** The tool-call assertions; null when the test has none. */
  assertions: AssertionReport | null;
  /** Why the run could not be judged (reference SQL failed, extraction broke, no verification). */
  error: string | null;
}

/**
 * Judges one answered run by deterministic code, never by a model: the answer's data against
 * the reference rows (with the test's tolerances over the config's), then the tool-call
 * assertions, then the verdict. A run that cannot be judged is an error, never a pass.
 */
export function judgeRun(options: {
  test: TestCase;
  response: TestRunResponse;
  /** `test.comparison` of nao_config.yaml; a test's own `comparison` overrides it key by key. */
  comparison: ComparisonOptions;
}): Judgement {
  const { test, response } = options;
  const verification = response.verification;
  let comparison: ComparisonResult | null = null;
  let error: string | null = null;
  if (test.sql !== null) {
    if (verification === null) error = 'the answer was not verified: the backend returned no verification';
    else if (verification.referenceError !== null)
      error = `reference SQL failed: ${verification.referenceError}`;
    else if (verification.data === null && verification.errorKind === 'extraction-failed')
      error = `answer extraction failed: ${verification.error ?? 'no data'}`;
    else {
      comparison = compareResults({
        actual: verification.data,
        actualError: verification.error,
        expected: verification.expectedData ?? { columns: verification.expectedColumns, rows: [] },
        tolerances: { ...options.comparison, ...(test.comparison ?? {}) },
        ordered: test.ordered,
      });
    }
  }
  const assertions =
    test.assertions.length > 0
      ? checkAssertions({ assertions: test.assertions, toolCalls: response.toolCalls })
      : null;
  return { verdict: decideVerdict({ test, comparison, assertions, error }), comparison, assertions, error };
}
