import { z } from 'zod';
import { isToolError } from '../agent/tool-error.js';
import type { AssertionKind, AssertionOutcome } from './assertion.js';
import { excerpt, plural } from './assertion-fields.js';
import type { RunFacts } from './run-facts.js';

/** `{type: no_error}`: no tool call of the run failed (bad SQL, a refused path, invalid arguments). */
export interface NoErrorAssertion {
  type: 'no_error';
}

const noErrorAssertionSchema = z
  .looseObject({ type: z.literal('no_error') })
  .transform((): NoErrorAssertion => ({ type: 'no_error' }));

/** A failed call is one whose result is a tool error, as the model received it. */
export function checkNoErrorAssertion(options: {
  assertion: NoErrorAssertion;
  facts: RunFacts;
}): AssertionOutcome {
  const { toolCalls } = options.facts;
  const failed = toolCalls.filter((call) => isToolError(call.result));
  if (failed.length === 0)
    return { passed: true, message: `no_error: ${plural(toolCalls.length, 'tool call')}, none failed` };
  const first = failed[0]!;
  const reason = isToolError(first.result) ? first.result.error : '';
  return {
    passed: false,
    message: `no_error: ${failed.length} of ${plural(toolCalls.length, 'tool call')} failed, first ${first.toolName}: ${excerpt(reason, 160)}`,
  };
}

/** The `no_error` entry of the assertion registry. */
export const noErrorKind: AssertionKind<NoErrorAssertion> = {
  fields: ['type'],
  schema: noErrorAssertionSchema,
  check: checkNoErrorAssertion,
  describe: () => 'no tool call fails',
};
