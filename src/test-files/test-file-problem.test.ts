import { describe, expect, it } from 'vitest';
import { formatFieldPath, formatProblems } from './test-file-problem.js';

describe('formatFieldPath', () => {
  it.each<[PropertyKey[], string]>([
    [['prompt'], 'prompt'],
    [['assertions', 1, 'min_count'], 'assertions[1].min_count'],
    [['comparison', 'rtol'], 'comparison.rtol'],
    [['assertions', 0, 'args', 'sql query'], 'assertions[0].args["sql query"]'],
    [['assertions', 0, 'args', 'a.b'], 'assertions[0].args["a.b"]'],
    [[], ''],
  ])('%j → %s', (path, expected) => {
    expect(formatFieldPath(path)).toBe(expected);
  });
});

describe('formatProblems', () => {
  it('prints a count and one line per problem, with the field when there is one', () => {
    expect(
      formatProblems([
        { file: 'orders.yml', field: 'prompt', message: 'is required: the question the agent must answer' },
        { file: 'orders.yml', field: 'assertions[1].min_count', message: 'must be an integer >= 1' },
        {
          file: 'contracts/eu.yml',
          field: null,
          message: 'invalid YAML at line 2, column 3: Missing closing "quote',
        },
      ]),
    ).toBe(
      [
        '3 problems in 2 test files:',
        '  orders.yml: prompt: is required: the question the agent must answer',
        '  orders.yml: assertions[1].min_count: must be an integer >= 1',
        '  contracts/eu.yml: invalid YAML at line 2, column 3: Missing closing "quote',
      ].join('\n'),
    );
  });

  it('uses singular nouns for one problem', () => {
    expect(formatProblems([{ file: 'a.yml', field: null, message: 'is empty' }])).toBe(
      '1 problem in 1 test file:\n  a.yml: is empty',
    );
  });

  it('indents the continuation lines of a multi-line message', () => {
    expect(formatProblems([{ file: 'a.yml', field: 'sql', message: 'first\nsecond' }])).toBe(
      '1 problem in 1 test file:\n  a.yml: sql: first\n    second',
    );
  });

  it('says so when there is nothing to report', () => {
    expect(formatProblems([])).toBe('No problems in the test files.');
  });
});
