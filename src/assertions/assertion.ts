import { z } from 'zod';
import { isMapping } from './args-match.js';
import { type AskedClarificationAssertion, askedClarificationKind } from './asked-clarification-assertion.js';
import { type ColumnsAssertion, columnsKind } from './columns-assertion.js';
import { type MaxCostAssertion, maxCostKind } from './max-cost-assertion.js';
import { type MaxTokensAssertion, maxTokensKind } from './max-tokens-assertion.js';
import { type MaxToolCallsAssertion, maxToolCallsKind } from './max-tool-calls-assertion.js';
import { type NoErrorAssertion, noErrorKind } from './no-error-assertion.js';
import { type ResponseMatchesAssertion, responseMatchesKind } from './response-matches-assertion.js';
import {
  type ResponseNotMatchesAssertion,
  responseNotMatchesKind,
} from './response-not-matches-assertion.js';
import { type RowCountAssertion, rowCountKind } from './row-count-assertion.js';
import type { RunFacts } from './run-facts.js';
import { type ToolCallAssertion, toolCallKind } from './tool-call-assertion.js';

export const ASSERTION_TYPES = [
  'tool_call',
  'row_count',
  'columns',
  'response_matches',
  'response_not_matches',
  'no_error',
  'max_tool_calls',
  'max_cost_usd',
  'max_tokens',
  'asked_clarification',
] as const;
export type AssertionType = (typeof ASSERTION_TYPES)[number];

/** Every assertion a test file can declare; one member per `type`. */
export type Assertion =
  | ToolCallAssertion
  | RowCountAssertion
  | ColumnsAssertion
  | ResponseMatchesAssertion
  | ResponseNotMatchesAssertion
  | NoErrorAssertion
  | MaxToolCallsAssertion
  | MaxCostAssertion
  | MaxTokensAssertion
  | AskedClarificationAssertion;

/** What checking one assertion against a run found. */
export interface AssertionOutcome {
  passed: boolean;
  /** Calls that satisfied a `tool_call` assertion. */
  matched?: number;
  message: string;
  /** The run lacks a fact the assertion needs (no price, no extracted data): an error, not a failure. */
  uncheckable?: true;
}

/** One assertion type: its YAML fields and schema, its check, and how `nao test show` says it. */
export interface AssertionKind<A extends Assertion> {
  /** The keys an entry of this type may have, as written in YAML. */
  fields: readonly string[];
  schema: z.ZodType<A, unknown>;
  check(options: { assertion: A; facts: RunFacts }): AssertionOutcome;
  /** One line for `nao test show`. */
  describe(assertion: A): string;
  /** True when the assertion reads the answer's data, which must then be extracted (also without `sql`). */
  readsAnswerData?: true;
}

/** Exhaustive over `AssertionType`, so adding a type without its schema and check does not compile. */
const ASSERTION_KINDS: { [T in AssertionType]: AssertionKind<Extract<Assertion, { type: T }>> } = {
  tool_call: toolCallKind,
  row_count: rowCountKind,
  columns: columnsKind,
  response_matches: responseMatchesKind,
  response_not_matches: responseNotMatchesKind,
  no_error: noErrorKind,
  max_tool_calls: maxToolCallsKind,
  max_cost_usd: maxCostKind,
  max_tokens: maxTokensKind,
  asked_clarification: askedClarificationKind,
};

/** The kind of `assertion`, typed for it (the registry's mapped type loses the link otherwise). */
function kindOf<A extends Assertion>(assertion: A): AssertionKind<A> {
  return ASSERTION_KINDS[assertion.type] as unknown as AssertionKind<A>;
}

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
      message: `unknown assertion type ${shortText(type)} (${supported})`,
    });
    return z.NEVER;
  }
  const kind: AssertionKind<Assertion> = ASSERTION_KINDS[type] as AssertionKind<Assertion>;
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
export function checkAssertion(options: { assertion: Assertion; facts: RunFacts }): AssertionOutcome {
  const { assertion, facts } = options;
  return kindOf(assertion).check({ assertion, facts });
}

/** `tool_call: execute_sql called at least 1x`, for `nao test show`. */
export function describeAssertion(assertion: Assertion): string {
  return `${assertion.type}: ${kindOf(assertion).describe(assertion)}`;
}

/** True when some assertion reads the answer's data, so it must be extracted even without `sql`. */
export function readsAnswerData(assertions: readonly Assertion[]): boolean {
  return assertions.some((assertion) => kindOf(assertion).readsAnswerData === true);
}

/** A value of the test file, quoted in at most 200 characters: a message never echoes the whole file. */
function shortText(value: unknown): string {
  const json = JSON.stringify(value) ?? String(value);
  return json.length <= 200 ? json : `${json.slice(0, 200)}…`;
}
