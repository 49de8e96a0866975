import { type Assertion, checkAssertion } from './assertion.js';
import type { ToolCallRecord } from './tool-call-assertion.js';

export interface AssertionResult {
  assertion: Assertion;
  passed: boolean;
  /** Calls that satisfied the assertion. */
  matched: number;
  message: string;
}

export interface AssertionReport {
  /** True when every assertion passed (and for an empty list). */
  passed: boolean;
  /** The per-assertion messages in declaration order, joined with "; ". */
  message: string;
  results: AssertionResult[];
}

/**
 * Checks a test's tool-call assertions against the tool calls of one run. Pure and
 * deterministic: the verdict never depends on a model's opinion.
 */
export function checkAssertions(options: {
  assertions: readonly Assertion[];
  toolCalls: readonly ToolCallRecord[];
}): AssertionReport {
  const { assertions, toolCalls } = options;
  const results = assertions.map(
    (assertion): AssertionResult => ({
      assertion,
      ...checkAssertion({ assertion, toolCalls }),
    }),
  );
  return {
    passed: results.every((result) => result.passed),
    message: results.map((result) => result.message).join('; '),
    results,
  };
}
