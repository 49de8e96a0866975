import { describe, expect, it } from 'vitest';
import { runFacts } from '../../test-support/assertions/run-facts.js';
import { assertionsSchema } from './assertion.js';
import { type ColumnsAssertion, checkColumnsAssertion } from './columns-assertion.js';
import type { AnswerFacts } from './run-facts.js';

const columns = (...names: string[]): ColumnsAssertion => ({ type: 'columns', names });
const answer = (...names: string[]): AnswerFacts => ({ kind: 'data', columns: names, rowCount: 3 });

describe('columns', () => {
  it.each<[string, ColumnsAssertion, AnswerFacts, boolean, string]>([
    [
      'every column, others too',
      columns('month', 'revenue'),
      answer('month', 'revenue', 'orders'),
      true,
      'columns: month, revenue',
    ],
    [
      'one missing',
      columns('month', 'revenue'),
      answer('month', 'total_revenue'),
      false,
      'missing column: revenue (the answer has month, total_revenue)',
    ],
    [
      'names are exact (case matters)',
      columns('Month', 'Revenue'),
      answer('month', 'revenue'),
      false,
      'missing columns: Month, Revenue (the answer has month, revenue)',
    ],
    [
      'the agent said its results cannot answer',
      columns('month'),
      { kind: 'none', reason: 'The agent could not answer from its query results.' },
      false,
      'columns: the answer has no data, expected columns month (The agent could not answer from its query results.)',
    ],
  ])('%s', (_label, assertion, data, passed, message) => {
    expect(checkColumnsAssertion({ assertion, facts: runFacts({ answer: data }) })).toEqual({
      passed,
      message,
    });
  });

  it('cannot be checked by a backend that extracted nothing', () => {
    expect(
      checkColumnsAssertion({
        assertion: columns('month'),
        facts: runFacts({ answer: { kind: 'unavailable', reason: 'the backend extracted no answer data' } }),
      }),
    ).toMatchObject({
      passed: false,
      uncheckable: true,
      message: 'columns cannot be checked: the backend extracted no answer data',
    });
  });

  it('reads the names trimmed, without repeats, and refuses an empty list', () => {
    expect(assertionsSchema.parse([{ type: 'columns', names: [' month ', 'month', 'revenue'] }])).toEqual([
      columns('month', 'revenue'),
    ]);
    const parsed = assertionsSchema.safeParse([{ type: 'columns', names: [] }]);
    expect(parsed.error?.issues.map((issue) => issue.message)).toEqual([
      'must be a non-empty list of column names, e.g. [month, revenue]',
    ]);
  });
});
