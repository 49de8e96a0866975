import { z } from 'zod';
import { isMapping } from './args-match.js';
import {
  ASKED_CLARIFICATION_FIELDS,
  type AskedClarificationAssertion,
  askedClarificationAssertionSchema,
  checkAskedClarificationAssertion,
} from './asked-clarification-assertion.js';
import {
  COLUMNS_FIELDS,
  type ColumnsAssertion,
  checkColumnsAssertion,
  columnsAssertionSchema,
} from './columns-assertion.js';
import {
  checkMaxCostAssertion,
  formatUsd,
  MAX_COST_FIELDS,
  type MaxCostAssertion,
  maxCostAssertionSchema,
} from './max-cost-assertion.js';
import {
  checkMaxTokensAssertion,
  MAX_TOKENS_FIELDS,
  type MaxTokensAssertion,
  maxTokensAssertionSchema,
} from './max-tokens-assertion.js';
import {
  checkMaxToolCallsAssertion,
  MAX_TOOL_CALLS_FIELDS,
  type MaxToolCallsAssertion,
  maxToolCallsAssertionSchema,
} from './max-tool-calls-assertion.js';
import {
  checkNoErrorAssertion,
  NO_ERROR_FIELDS,
  type NoErrorAssertion,
  noErrorAssertionSchema,
} from './no-error-assertion.js';
import {
  checkResponseMatchesAssertion,
  RESPONSE_MATCHES_FIELDS,
  type ResponseMatchesAssertion,
  responseMatchesAssertionSchema,
} from './response-matches-assertion.js';
import {
  checkResponseNotMatchesAssertion,
  RESPONSE_NOT_MATCHES_FIELDS,
  type ResponseNotMatchesAssertion,
  responseNotMatchesAssertionSchema,
} from './response-not-matches-assertion.js';
import { showPattern } from './response-pattern.js';
import {
  checkRowCountAssertion,
  describeRowCount,
  ROW_COUNT_FIELDS,
  type RowCountAssertion,
  rowCountAssertionSchema,
} from './row-count-assertion.js';
import type { RunFacts } from './run-facts.js';
import {
  checkToolCallAssertion,
  TOOL_CALL_FIELDS,
  type ToolCallAssertion,
  toolCallAssertionSchema,
} from './tool-call-assertion.js';

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

interface AssertionKind<A extends Assertion> {
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
  tool_call: {
    fields: TOOL_CALL_FIELDS,
    schema: toolCallAssertionSchema,
    check: ({ assertion, facts }) => checkToolCallAssertion({ assertion, toolCalls: facts.toolCalls }),
    describe: (assertion) =>
      `${assertion.tool} called at least ${assertion.minCount}x` +
      (assertion.args === null ? '' : ` with args ${JSON.stringify(assertion.args)}`),
  },
  row_count: {
    fields: ROW_COUNT_FIELDS,
    schema: rowCountAssertionSchema,
    check: checkRowCountAssertion,
    describe: (assertion) => `${describeRowCount(assertion)} rows in the answer`,
    readsAnswerData: true,
  },
  columns: {
    fields: COLUMNS_FIELDS,
    schema: columnsAssertionSchema,
    check: checkColumnsAssertion,
    describe: (assertion) => `the answer has the columns ${assertion.names.join(', ')}`,
    readsAnswerData: true,
  },
  response_matches: {
    fields: RESPONSE_MATCHES_FIELDS,
    schema: responseMatchesAssertionSchema,
    check: checkResponseMatchesAssertion,
    describe: (assertion) => `the response matches ${showPattern(assertion)}`,
  },
  response_not_matches: {
    fields: RESPONSE_NOT_MATCHES_FIELDS,
    schema: responseNotMatchesAssertionSchema,
    check: checkResponseNotMatchesAssertion,
    describe: (assertion) => `the response does not match ${showPattern(assertion)}`,
  },
  no_error: {
    fields: NO_ERROR_FIELDS,
    schema: noErrorAssertionSchema,
    check: checkNoErrorAssertion,
    describe: () => 'no tool call fails',
  },
  max_tool_calls: {
    fields: MAX_TOOL_CALLS_FIELDS,
    schema: maxToolCallsAssertionSchema,
    check: checkMaxToolCallsAssertion,
    describe: (assertion) => `at most ${assertion.max} ${assertion.tool ?? 'tool'} calls`,
  },
  max_cost_usd: {
    fields: MAX_COST_FIELDS,
    schema: maxCostAssertionSchema,
    check: checkMaxCostAssertion,
    describe: (assertion) => `the agent costs at most ${formatUsd(assertion.max)}`,
  },
  max_tokens: {
    fields: MAX_TOKENS_FIELDS,
    schema: maxTokensAssertionSchema,
    check: checkMaxTokensAssertion,
    describe: (assertion) => `the agent uses at most ${assertion.max} tokens`,
  },
  asked_clarification: {
    fields: ASKED_CLARIFICATION_FIELDS,
    schema: askedClarificationAssertionSchema,
    check: checkAskedClarificationAssertion,
    describe: (assertion) =>
      assertion.expected ? 'the agent asks a clarifying question' : 'the agent answers without asking',
  },
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
      message: `unknown assertion type ${JSON.stringify(type)} (${supported})`,
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
