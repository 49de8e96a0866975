import { z } from 'zod';
import type { AssertionKind, AssertionOutcome } from './assertion.js';
import { booleanField, excerpt } from './assertion-fields.js';
import type { RunFacts } from './run-facts.js';

/**
 * `{type: asked_clarification, expected?}`: the agent asked a clarifying question (`expected:
 * true`, the default) or answered without asking (`false`). Needs `allow_clarification: true`.
 */
export interface AskedClarificationAssertion {
  type: 'asked_clarification';
  expected: boolean;
}

const askedClarificationAssertionSchema = z
  .looseObject({ type: z.literal('asked_clarification'), expected: booleanField.optional() })
  .transform(
    (value): AskedClarificationAssertion => ({
      type: 'asked_clarification',
      expected: value.expected ?? true,
    }),
  );

/** Reads whether the run ended on a `clarification` call. */
export function checkAskedClarificationAssertion(options: {
  assertion: AskedClarificationAssertion;
  facts: RunFacts;
}): AssertionOutcome {
  const { assertion, facts } = options;
  const { clarification } = facts;
  if (clarification === null) {
    return {
      passed: false,
      uncheckable: true,
      message:
        'asked_clarification cannot be checked: the backend does not report clarifications (it predates allow_clarification; update nao chat)',
    };
  }
  const question = clarification.question === null ? '' : ` "${excerpt(clarification.question)}"`;
  if (clarification.asked === assertion.expected) {
    return {
      passed: true,
      message: clarification.asked
        ? `asked_clarification:${question}`
        : 'asked_clarification: none (as expected)',
    };
  }
  return {
    passed: false,
    message: clarification.asked
      ? `the agent asked a clarifying question instead of answering:${question}`
      : 'the agent answered without asking the clarifying question expected',
  };
}

/** The `asked_clarification` entry of the assertion registry. */
export const askedClarificationKind: AssertionKind<AskedClarificationAssertion> = {
  fields: ['type', 'expected'],
  schema: askedClarificationAssertionSchema,
  check: checkAskedClarificationAssertion,
  describe: (assertion) =>
    assertion.expected ? 'the agent asks a clarifying question' : 'the agent answers without asking',
};
