import { z } from 'zod';
import { isMapping } from './args-match.js';
import {
  checkToolCallAssertion,
  TOOL_CALL_FIELDS,
  type ToolCallAssertion,
  type ToolCallRecord,
  toolCallAssertionSchema,
} from './tool-call-assertion.js';

export const ASSERTION_TYPES = ['tool_call'] as const;
export type AssertionType = (typeof ASSERTION_TYPES)[number];

/** Every assertion a test file can declare; one member per `type`. */
export type Assertion = ToolCallAssertion;

/** What checking one assertion against a run's tool calls found. */
export interface AssertionOutcome {
  passed: boolean;
  /** Calls that satisfied the assertion. */
  matched: number;
  message: string;
}

interface AssertionKind<A extends Assertion> {
  /** The keys an entry of this type may have, as written in YAML. */
  fields: readonly string[];
  schema: z.ZodType<A, unknown>;
  check(options: { assertion: A; toolCalls: readonly ToolCallRecord[] }): AssertionOutcome;
}

/** Exhaustive over `AssertionType`, so adding a type without its schema and check does not compile. */
const ASSERTION_KINDS: { [T in AssertionType]: AssertionKind<Extract<Assertion, { type: T }>> } = {
  tool_call: { fields: TOOL_CALL_FIELDS, schema: toolCallAssertionSchema, check: checkToolCallAssertion },
};

function isAssertionType(value: unknown): value is AssertionType {
  return typeof value === 'string' && (ASSERTION_TYPES as readonly string[]).includes(value);
}

const supported = `supported: ${ASSERTION_TYPES.join(', ')}`;

/**
 * One entry of a test file's `assertions` list, dispatched on `type`. Issues carry paths
 * relative to the entry (`['min_count']`), so the caller can prefix `assertions[i]`.
 */
export const assertionSchema: z.ZodType<Assertion, unknown> = z.unknown().transform((value, ctx) => {
  if (!isMapping(value)) {
    ctx.addIssue({
      code: 'custom',
      message: `must be a mapping such as {type: tool_call, tool: execute_sql}`,
    });
    return z.NEVER;
  }
  const type = value.type;
  if (type === undefined || type === null) {
    ctx.addIssue({ code: 'custom', path: ['type'], message: `is required (${supported})` });
    return z.NEVER;
  }
  if (!isAssertionType(type)) {
    ctx.addIssue({
      code: 'custom',
      path: ['type'],
      message: `unknown assertion type ${JSON.stringify(type)} (${supported})`,
    });
    return z.NEVER;
  }
  const kind = ASSERTION_KINDS[type];
  const unknownFields = Object.keys(value).filter((key) => !kind.fields.includes(key));
  const parsed = kind.schema.safeParse(value);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
    }
  }
  // A misspelt `min_count` would otherwise be ignored and silently weaken the check.
  for (const key of unknownFields) {
    ctx.addIssue({
      code: 'custom',
      path: [key],
      message: `unknown field of a ${type} assertion (allowed: ${kind.fields.join(', ')})`,
    });
  }
  if (!parsed.success || unknownFields.length > 0) return z.NEVER;
  return parsed.data;
});

/** The `assertions` list; absent or null means no assertions. */
export const assertionsSchema = z
  .array(assertionSchema, {
    error: 'must be a list of assertions, e.g. - {type: tool_call, tool: execute_sql}',
  })
  .nullish()
  .transform((value) => value ?? []);

/** Checks one assertion of any type. */
export function checkAssertion(options: {
  assertion: Assertion;
  toolCalls: readonly ToolCallRecord[];
}): AssertionOutcome {
  const { assertion, toolCalls } = options;
  return ASSERTION_KINDS[assertion.type].check({ assertion, toolCalls });
}
