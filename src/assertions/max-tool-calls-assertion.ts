import { z } from 'zod';
import type { AssertionKind, AssertionOutcome } from './assertion.js';
import { integerField, plural, toolNameField } from './assertion-fields.js';
import type { RunFacts } from './run-facts.js';

/** `{type: max_tool_calls, max, tool?}`: the agent made at most `max` tool calls (of `tool`, when given). */
export interface MaxToolCallsAssertion {
  type: 'max_tool_calls';
  max: number;
  /** Only calls of this tool count; null: every call counts. */
  tool: string | null;
}

const maxToolCallsAssertionSchema = z
  .looseObject({
    type: z.literal('max_tool_calls'),
    max: integerField(0),
    tool: toolNameField.optional(),
  })
  .transform(
    (value): MaxToolCallsAssertion => ({ type: 'max_tool_calls', max: value.max, tool: value.tool ?? null }),
  );

/** Counts the calls (of one tool, or all). */
export function checkMaxToolCallsAssertion(options: {
  assertion: MaxToolCallsAssertion;
  facts: RunFacts;
}): AssertionOutcome {
  const { assertion, facts } = options;
  const { tool, max } = assertion;
  const count = facts.toolCalls.filter((call) => tool === null || call.toolName === tool).length;
  const what = plural(count, tool === null ? 'call' : `${tool} call`);
  return count <= max
    ? { passed: true, message: `max_tool_calls: ${what} (max ${max})` }
    : { passed: false, message: `too many tool calls: ${what}, max ${max}` };
}

/** The `max_tool_calls` entry of the assertion registry. */
export const maxToolCallsKind: AssertionKind<MaxToolCallsAssertion> = {
  fields: ['type', 'max', 'tool'],
  schema: maxToolCallsAssertionSchema,
  check: checkMaxToolCallsAssertion,
  describe: (assertion) => `at most ${assertion.max} ${assertion.tool ?? 'tool'} calls`,
};
