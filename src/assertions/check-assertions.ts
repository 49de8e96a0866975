import { type Assertion, type AssertionOutcome, checkAssertion } from './assertion.js';
import type { RunFacts } from './run-facts.js';

export interface AssertionResult extends AssertionOutcome {
  assertion: Assertion;
}

export interface AssertionReport {
  /** True when every assertion passed (and for an empty list). */
  passed: boolean;
  /** The per-assertion messages in declaration order, joined with "; ". */
  message: string;
  results: AssertionResult[];
  /** Why some assertion could not be checked (the run is then an error); null when all were. */
  error: string | null;
}

/**
 * Checks a test's assertions against the facts of one run. Pure and deterministic: the
 * verdict never depends on a model's opinion.
 */
export function checkAssertions(options: {
  assertions: readonly Assertion[];
  facts: RunFacts;
}): AssertionReport {
  const { assertions, facts } = options;
  const results = assertions.map(
    (assertion): AssertionResult => ({
      assertion,
      ...checkAssertion({ assertion, facts }),
    }),
  );
  const uncheckable = results.filter((result) => result.uncheckable === true);
  return {
    passed: results.every((result) => result.passed),
    message: results.map((result) => result.message).join('; '),
    results,
    error: uncheckable.length === 0 ? null : uncheckable.map((result) => result.message).join('; '),
  };
}
