import { z } from 'zod';
import { argsMatch, isMapping } from './args-match.js';
import type { AssertionKind, AssertionOutcome } from './assertion.js';
import { integerField, plural, toolNameField } from './assertion-fields.js';

/** `{type: tool_call, tool, args?, min_count?}`: the agent called `tool` at least `minCount` times. */
export interface ToolCallAssertion {
  type: 'tool_call';
  tool: string;
  /** Argument subset every counted call must carry; null when any arguments count. */
  args: Record<string, unknown> | null;
  minCount: number;
}

/** One tool call of a run, as the backend reports it. */
export interface ToolCallRecord {
  toolName: string;
  args: unknown;
  /** The tool's output: `{error}` for a failed call (read by `no_error`); absent or null: never ran. */
  result?: unknown;
}

/**
 * Validates one `type: tool_call` entry as written in YAML (snake_case) into a `ToolCallAssertion`.
 * Unknown fields are reported by `assertionSchema`, which knows every type's fields.
 */
const toolCallAssertionSchema = z
  .looseObject({
    type: z.literal('tool_call'),
    tool: toolNameField,
    // YAML `args:` with nothing after it reads as null: the same as leaving `args` out.
    args: z
      .custom<Record<string, unknown>>(isMapping, 'must be a mapping of argument names to expected values')
      .nullish(),
    min_count: integerField(1).optional(),
  })
  .transform(
    (value): ToolCallAssertion => ({
      type: 'tool_call',
      tool: value.tool,
      args: value.args ?? null,
      minCount: value.min_count ?? 1,
    }),
  );

/** Counts the calls that satisfy `assertion` and says why it passed or failed. */
export function checkToolCallAssertion(options: {
  assertion: ToolCallAssertion;
  toolCalls: readonly ToolCallRecord[];
}): AssertionOutcome {
  const { assertion, toolCalls } = options;
  const sameTool = toolCalls.filter((call) => call.toolName === assertion.tool);
  const { args } = assertion;
  const matched =
    args === null ? sameTool.length : sameTool.filter((call) => argsMatch(args, call.args)).length;
  const passed = matched >= assertion.minCount;
  if (passed) {
    const argsNote = args === null ? '' : ', args matched';
    return {
      passed,
      matched,
      message: `tool_call: ${assertion.tool} (x${matched}, min ${assertion.minCount}${argsNote})`,
    };
  }
  const withArgs = args === null ? '' : ` with args ${formatArgs(args)}`;
  const otherArgs = sameTool.length - matched;
  const otherNote =
    args === null || otherArgs === 0
      ? ''
      : `; ${plural(otherArgs, `${assertion.tool} call`)} with other args`;
  return {
    passed,
    matched,
    message: `missing tool_call: ${assertion.tool}${withArgs} (found ${matched}, need >= ${assertion.minCount}${otherNote})`,
  };
}

/** JSON, except that values JSON cannot spell (NaN, ±Infinity) keep their YAML-ish name. */
function formatArgs(args: Record<string, unknown>): string {
  return JSON.stringify(args, (_key, value: unknown) => {
    if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
    return value;
  });
}

/** The `tool_call` entry of the assertion registry. */
export const toolCallKind: AssertionKind<ToolCallAssertion> = {
  fields: ['type', 'tool', 'args', 'min_count'],
  schema: toolCallAssertionSchema,
  check: ({ assertion, facts }) => checkToolCallAssertion({ assertion, toolCalls: facts.toolCalls }),
  describe: (assertion) =>
    `${assertion.tool} called at least ${assertion.minCount}x` +
    (assertion.args === null ? '' : ` with args ${JSON.stringify(assertion.args)}`),
};
