import { describe, expect, it } from 'vitest';
import { runFacts } from '../../test-support/assertions/run-facts.js';
import { assertionsSchema } from './assertion.js';
import {
  checkResponseMatchesAssertion,
  type ResponseMatchesAssertion,
} from './response-matches-assertion.js';
import {
  checkResponseNotMatchesAssertion,
  type ResponseNotMatchesAssertion,
} from './response-not-matches-assertion.js';

const matches = (pattern: string, ignoreCase = false): ResponseMatchesAssertion => ({
  type: 'response_matches',
  pattern,
  ignoreCase,
});
const notMatches = (pattern: string, ignoreCase = false): ResponseNotMatchesAssertion => ({
  type: 'response_not_matches',
  pattern,
  ignoreCase,
});

const ANSWER = 'The total revenue in 2025 was $202,201.54, from 2,500 orders.';

describe('response_matches', () => {
  it.each<[string, ResponseMatchesAssertion, string, boolean, string]>([
    ['a match anywhere', matches('202,201\\.54'), ANSWER, true, 'response_matches /202,201\\.54/'],
    [
      'case matters by default',
      matches('TOTAL'),
      ANSWER,
      false,
      `response does not match /TOTAL/ (response: "${ANSWER}")`,
    ],
    ['ignore_case', matches('TOTAL', true), ANSWER, true, 'response_matches /TOTAL/i'],
    [
      'a long response is cut in the message',
      matches('^Revenue'),
      `${'word '.repeat(40)}end`,
      false,
      `response does not match /^Revenue/ (response: "${'word '.repeat(16).trim()}…")`,
    ],
    [
      'an empty response',
      matches('\\d'),
      '  ',
      false,
      'response does not match /\\d/ (the response is empty)',
    ],
  ])('%s', (_label, assertion, responseText, passed, message) => {
    expect(checkResponseMatchesAssertion({ assertion, facts: runFacts({ responseText }) })).toEqual({
      passed,
      message,
    });
  });
});

describe('response_not_matches', () => {
  it.each<[string, ResponseNotMatchesAssertion, string, boolean, string]>([
    ['no match', notMatches('cannot answer'), ANSWER, true, 'response_not_matches /cannot answer/'],
    [
      'a match fails, quoting it',
      notMatches('sorry|cannot', true),
      'Sorry, I cannot answer that from the data.',
      false,
      'response matches /sorry|cannot/i, which it must not ("Sorry")',
    ],
  ])('%s', (_label, assertion, responseText, passed, message) => {
    expect(checkResponseNotMatchesAssertion({ assertion, facts: runFacts({ responseText }) })).toEqual({
      passed,
      message,
    });
  });
});

describe('response patterns on hostile answers', () => {
  it('checks a catastrophic pattern against a long answer at once (RE2: linear time)', () => {
    const started = performance.now();
    expect(
      checkResponseMatchesAssertion({
        assertion: matches('^(a+)+$'),
        facts: runFacts({ responseText: `${'a'.repeat(40)}!` }),
      }).passed,
    ).toBe(false);
    expect(
      checkResponseNotMatchesAssertion({
        assertion: notMatches('(\\d+,?)+%'),
        facts: runFacts({ responseText: `growth of ${'1'.repeat(5000)} points` }),
      }),
    ).toEqual({ passed: true, message: 'response_not_matches /(\\d+,?)+%/' });
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('reads inline flags, which JavaScript refused', () => {
    expect(
      checkResponseMatchesAssertion({
        assertion: matches('(?i)total'),
        facts: runFacts({ responseText: ANSWER.toUpperCase() }),
      }).passed,
    ).toBe(true);
  });
});

describe('response patterns in a test file', () => {
  it('reads pattern and ignore_case', () => {
    expect(
      assertionsSchema.parse([
        { type: 'response_matches', pattern: '\\b42\\b' },
        { type: 'response_not_matches', pattern: 'sorry', ignore_case: true },
      ]),
    ).toEqual([matches('\\b42\\b'), notMatches('sorry', true)]);
  });

  it.each([
    [{ type: 'response_matches' }, 'pattern: must be a regular expression (text), e.g. "\\\\b42\\\\b"'],
    [{ type: 'response_matches', pattern: '' }, 'pattern: must not be empty'],
    [
      { type: 'response_not_matches', pattern: 'total (' },
      'pattern: the pattern /total (/ is not a valid RE2 regular expression (missing closing ): `total (`); fix it (RE2 syntax: https://github.com/google/re2/wiki/Syntax)',
    ],
    [
      { type: 'response_matches', pattern: '(\\d)\\1' },
      'pattern: the pattern /(\\d)\\1/ uses the backreference \\1: RE2 syntax has no backreferences; write the repeated text out instead',
    ],
    [
      { type: 'response_matches', pattern: 'total(?! EUR)' },
      'pattern: the pattern /total(?! EUR)/ uses negative lookahead (?!…): RE2 syntax has no lookahead or lookbehind; match the surrounding text instead',
    ],
    [{ type: 'response_matches', pattern: 'x', ignore_case: 'yes' }, 'ignore_case: must be true or false'],
    [
      { type: 'response_matches', regex: 'x', pattern: 'x' },
      'regex: unknown field of a response_matches assertion (allowed: type, pattern, ignore_case)',
    ],
  ])('refuses %j', (entry, message) => {
    const parsed = assertionsSchema.safeParse([entry]);
    expect(parsed.error?.issues.map((issue) => `${issue.path.slice(1).join('.')}: ${issue.message}`)).toEqual(
      [message],
    );
  });
});
