import { describe, expect, it } from 'vitest';
import { runFacts } from '../../test-support/assertions/run-facts.js';
import { assertionsSchema } from './assertion.js';
import { checkRowCountAssertion, type RowCountAssertion } from './row-count-assertion.js';
import type { AnswerFacts } from './run-facts.js';

function rowCount(fields: Partial<Omit<RowCountAssertion, 'type'>>): RowCountAssertion {
  return { type: 'row_count', equals: null, min: null, max: null, ...fields };
}

const rows = (rowCount: number): AnswerFacts => ({ kind: 'data', columns: ['month', 'revenue'], rowCount });

describe('row_count', () => {
  it.each<[string, RowCountAssertion, AnswerFacts, boolean, string]>([
    ['equals, met', rowCount({ equals: 12 }), rows(12), true, 'row_count: 12 rows (exactly 12)'],
    [
      'equals, missed',
      rowCount({ equals: 12 }),
      rows(11),
      false,
      'row_count: the answer has 11 rows, expected exactly 12',
    ],
    ['equals 0 on an empty answer', rowCount({ equals: 0 }), rows(0), true, 'row_count: 0 rows (exactly 0)'],
    ['min, met at the bound', rowCount({ min: 1 }), rows(1), true, 'row_count: 1 row (at least 1)'],
    [
      'min, missed',
      rowCount({ min: 1 }),
      rows(0),
      false,
      'row_count: the answer has 0 rows, expected at least 1',
    ],
    [
      'max, missed',
      rowCount({ max: 10 }),
      rows(11),
      false,
      'row_count: the answer has 11 rows, expected at most 10',
    ],
    ['a range, met', rowCount({ min: 1, max: 10 }), rows(10), true, 'row_count: 10 rows (between 1 and 10)'],
    [
      'the agent ran no SQL',
      rowCount({ min: 1 }),
      { kind: 'none', reason: 'The agent did not run any SQL query.' },
      false,
      'row_count: the answer has no data, expected at least 1 rows (The agent did not run any SQL query.)',
    ],
  ])('%s', (_label, assertion, answer, passed, message) => {
    expect(checkRowCountAssertion({ assertion, facts: runFacts({ answer }) })).toEqual({ passed, message });
  });

  it('cannot be checked when the data could not be extracted', () => {
    const outcome = checkRowCountAssertion({
      assertion: rowCount({ equals: 1 }),
      facts: runFacts({ answer: { kind: 'unavailable', reason: 'answer extraction failed: syntax error' } }),
    });
    expect(outcome).toEqual({
      passed: false,
      uncheckable: true,
      message: 'row_count cannot be checked: answer extraction failed: syntax error',
    });
  });

  it.each([
    [{ type: 'row_count', equals: 3 }, [rowCount({ equals: 3 })]],
    [{ type: 'row_count', min: 0, max: 0 }, [rowCount({ min: 0, max: 0 })]],
  ])('reads %j', (entry, expected) => {
    expect(assertionsSchema.parse([entry])).toEqual(expected);
  });

  it.each([
    [{ type: 'row_count' }, ': needs `equals`, or `min` and/or `max` (row counts)'],
    [{ type: 'row_count', equals: 3, min: 1 }, ': give either `equals` or `min`/`max`, not both'],
    [{ type: 'row_count', min: 5, max: 2 }, 'min: must not be larger than max (2)'],
    [{ type: 'row_count', equals: -1 }, 'equals: must be an integer >= 0'],
    [{ type: 'row_count', max: '10' }, 'max: must be an integer >= 0'],
  ])('refuses %j', (entry, message) => {
    const parsed = assertionsSchema.safeParse([entry]);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => `${issue.path.slice(1).join('.')}: ${issue.message}`)).toEqual(
      [message],
    );
  });
});
