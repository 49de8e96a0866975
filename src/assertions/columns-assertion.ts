import { z } from 'zod';
import type { AssertionKind, AssertionOutcome } from './assertion.js';
import { type RunFacts, withoutAnswerData } from './run-facts.js';

/** `{type: columns, names: [...]}`: the answer's data has these columns (by exact name; others may follow). */
export interface ColumnsAssertion {
  type: 'columns';
  names: string[];
}

const NAMES_MESSAGE = 'must be a non-empty list of column names, e.g. [month, revenue]';

const columnsAssertionSchema = z
  .looseObject({
    type: z.literal('columns'),
    names: z
      .array(z.string({ error: 'must be a column name (text)' }).trim().min(1, 'must not be empty'), {
        error: NAMES_MESSAGE,
      })
      .min(1, NAMES_MESSAGE),
  })
  .transform((value): ColumnsAssertion => ({ type: 'columns', names: [...new Set(value.names)] }));

function list(names: readonly string[]): string {
  return names.length === 0 ? '(none)' : names.join(', ');
}

/** Looks for each named column in the extracted answer's columns. */
export function checkColumnsAssertion(options: {
  assertion: ColumnsAssertion;
  facts: RunFacts;
}): AssertionOutcome {
  const { assertion, facts } = options;
  const { answer } = facts;
  if (answer.kind !== 'data') {
    return withoutAnswerData({ type: 'columns', answer, expected: `columns ${list(assertion.names)}` });
  }
  const missing = assertion.names.filter((name) => !answer.columns.includes(name));
  if (missing.length === 0) return { passed: true, message: `columns: ${list(assertion.names)}` };
  return {
    passed: false,
    message: `missing column${missing.length === 1 ? '' : 's'}: ${list(missing)} (the answer has ${list(answer.columns)})`,
  };
}

/** The `columns` entry of the assertion registry. */
export const columnsKind: AssertionKind<ColumnsAssertion> = {
  fields: ['type', 'names'],
  schema: columnsAssertionSchema,
  check: checkColumnsAssertion,
  describe: (assertion) => `the answer has the columns ${assertion.names.join(', ')}`,
  readsAnswerData: true,
};
