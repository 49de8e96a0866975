import { z } from 'zod';
import type { AssertionKind, AssertionOutcome } from './assertion.js';
import { integerField, plural } from './assertion-fields.js';
import { type RunFacts, withoutAnswerData } from './run-facts.js';

/** `{type: row_count, equals?, min?, max?}`: the answer's data has that many rows. */
export interface RowCountAssertion {
  type: 'row_count';
  equals: number | null;
  min: number | null;
  max: number | null;
}

const rowCountAssertionSchema = z
  .looseObject({
    type: z.literal('row_count'),
    equals: integerField(0).optional(),
    min: integerField(0).optional(),
    max: integerField(0).optional(),
  })
  .superRefine((value, ctx) => {
    const { equals, min, max } = value;
    if (equals === undefined && min === undefined && max === undefined) {
      ctx.addIssue({ code: 'custom', message: 'needs `equals`, or `min` and/or `max` (row counts)' });
    } else if (equals !== undefined && (min !== undefined || max !== undefined)) {
      ctx.addIssue({ code: 'custom', message: 'give either `equals` or `min`/`max`, not both' });
    } else if (min !== undefined && max !== undefined && min > max) {
      ctx.addIssue({ code: 'custom', path: ['min'], message: `must not be larger than max (${max})` });
    }
  })
  .transform(
    (value): RowCountAssertion => ({
      type: 'row_count',
      equals: value.equals ?? null,
      min: value.min ?? null,
      max: value.max ?? null,
    }),
  );

/** `exactly 5`, `at least 1`, `at most 10`, `between 1 and 10`. */
function describeRowCount(assertion: RowCountAssertion): string {
  const { equals, min, max } = assertion;
  if (equals !== null) return `exactly ${equals}`;
  if (min !== null && max !== null) return `between ${min} and ${max}`;
  return min !== null ? `at least ${min}` : `at most ${max}`;
}

/** Counts the rows of the extracted answer; without data the agent failed, or it cannot be checked. */
export function checkRowCountAssertion(options: {
  assertion: RowCountAssertion;
  facts: RunFacts;
}): AssertionOutcome {
  const { assertion, facts } = options;
  const expected = describeRowCount(assertion);
  const { answer } = facts;
  if (answer.kind !== 'data') {
    return withoutAnswerData({ type: 'row_count', answer, expected: `${expected} rows` });
  }
  const count = answer.rowCount;
  const { equals, min, max } = assertion;
  const passed =
    equals !== null ? count === equals : (min === null || count >= min) && (max === null || count <= max);
  return passed
    ? { passed, message: `row_count: ${plural(count, 'row')} (${expected})` }
    : { passed, message: `row_count: the answer has ${plural(count, 'row')}, expected ${expected}` };
}

/** The `row_count` entry of the assertion registry. */
export const rowCountKind: AssertionKind<RowCountAssertion> = {
  fields: ['type', 'equals', 'min', 'max'],
  schema: rowCountAssertionSchema,
  check: checkRowCountAssertion,
  describe: (assertion) => `${describeRowCount(assertion)} rows in the answer`,
  readsAnswerData: true,
};
