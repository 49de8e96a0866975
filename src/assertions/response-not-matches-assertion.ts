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

/** `{type: response_not_matches, pattern, ignore_case?}`: the final answer text has no match. */
export interface ResponseNotMatchesAssertion extends ResponsePattern {
  type: 'response_not_matches';
}

/** Fails on the first match, quoting it. */
export function checkResponseNotMatchesAssertion(options: {
  assertion: ResponseNotMatchesAssertion;
  facts: RunFacts;
}): AssertionOutcome {
  const { assertion, facts } = options;
  const shown = showPattern(assertion);
  const match = compilePattern(assertion).exec(facts.responseText);
  if (match === null) return { passed: true, message: `response_not_matches ${shown}` };
  return {
    passed: false,
    message: `response matches ${shown}, which it must not ("${excerpt(match.text)}")`,
  };
}

/** The `response_not_matches` entry of the assertion registry. */
export const responseNotMatchesKind: AssertionKind<ResponseNotMatchesAssertion> = {
  fields: RESPONSE_PATTERN_FIELDS,
  schema: responsePatternFields('response_not_matches'),
  check: checkResponseNotMatchesAssertion,
  describe: (assertion) => `the response does not match ${showPattern(assertion)}`,
};
