import { z } from 'zod';
import type { AssertionKind, AssertionOutcome } from './assertion.js';
import { integerField } from './assertion-fields.js';
import type { RunFacts } from './run-facts.js';

/** `{type: max_tokens, max}`: the agent used at most `max` tokens (input + output, over every step). */
export interface MaxTokensAssertion {
  type: 'max_tokens';
  max: number;
}

const maxTokensAssertionSchema = z
  .looseObject({ type: z.literal('max_tokens'), max: integerField(1) })
  .transform((value): MaxTokensAssertion => ({ type: 'max_tokens', max: value.max }));

const count = (value: number) => value.toLocaleString('en-US');

/** Compares the agent's tokens (the run's `tokens`) with the limit. */
export function checkMaxTokensAssertion(options: {
  assertion: MaxTokensAssertion;
  facts: RunFacts;
}): AssertionOutcome {
  const { assertion, facts } = options;
  return facts.tokens <= assertion.max
    ? { passed: true, message: `max_tokens: ${count(facts.tokens)} (max ${count(assertion.max)})` }
    : {
        passed: false,
        message: `too many tokens: the agent used ${count(facts.tokens)}, max ${count(assertion.max)}`,
      };
}

/** The `max_tokens` entry of the assertion registry. */
export const maxTokensKind: AssertionKind<MaxTokensAssertion> = {
  fields: ['type', 'max'],
  schema: maxTokensAssertionSchema,
  check: checkMaxTokensAssertion,
  describe: (assertion) => `the agent uses at most ${assertion.max} tokens`,
};
