import type { AssertionKind, AssertionOutcome } from './assertion.js';
import { excerpt } from './assertion-fields.js';
import {
  compilePattern,
  RESPONSE_PATTERN_FIELDS,
  type ResponsePattern,
  responsePatternFields,
  showPattern,
} from './response-pattern.js';
import type { RunFacts } from './run-facts.js';

/** `{type: response_matches, pattern, ignore_case?}`: the final answer text contains a match. */
export interface ResponseMatchesAssertion extends ResponsePattern {
  type: 'response_matches';
}

/** Searches the final answer text for the pattern. */
export function checkResponseMatchesAssertion(options: {
  assertion: ResponseMatchesAssertion;
  facts: RunFacts;
}): AssertionOutcome {
  const { assertion, facts } = options;
  const shown = showPattern(assertion);
  const match = compilePattern(assertion).exec(facts.responseText);
  if (match !== null) return { passed: true, message: `response_matches ${shown}` };
  const response =
    facts.responseText.trim() === '' ? 'the response is empty' : `response: "${excerpt(facts.responseText)}"`;
  return { passed: false, message: `response does not match ${shown} (${response})` };
}

/** The `response_matches` entry of the assertion registry. */
export const responseMatchesKind: AssertionKind<ResponseMatchesAssertion> = {
  fields: RESPONSE_PATTERN_FIELDS,
  schema: responsePatternFields('response_matches'),
  check: checkResponseMatchesAssertion,
  describe: (assertion) => `the response matches ${showPattern(assertion)}`,
};
