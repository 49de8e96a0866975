import { describe, expect, it } from 'vitest';
import { runFacts } from '../../test-support/assertions/run-facts.js';
import { checkAskedClarificationAssertion } from './asked-clarification-assertion.js';
import { assertionsSchema } from './assertion.js';
import type { RunFacts } from './run-facts.js';

const ASKED: RunFacts['clarification'] = { asked: true, question: 'Which quarter do you mean?' };
const ANSWERED: RunFacts['clarification'] = { asked: false, question: null };

describe('asked_clarification', () => {
  it.each<[string, boolean, RunFacts['clarification'], boolean, string]>([
    ['expected and asked', true, ASKED, true, 'asked_clarification: "Which quarter do you mean?"'],
    [
      'expected but answered',
      true,
      ANSWERED,
      false,
      'the agent answered without asking the clarifying question expected',
    ],
    ['not expected and answered', false, ANSWERED, true, 'asked_clarification: none (as expected)'],
    [
      'not expected but asked',
      false,
      ASKED,
      false,
      'the agent asked a clarifying question instead of answering: "Which quarter do you mean?"',
    ],
  ])('%s', (_label, expected, clarification, passed, message) => {
    expect(
      checkAskedClarificationAssertion({
        assertion: { type: 'asked_clarification', expected },
        facts: runFacts({ clarification }),
      }),
    ).toEqual({ passed, message });
  });

  it('cannot be checked when the backend does not report clarifications', () => {
    expect(
      checkAskedClarificationAssertion({
        assertion: { type: 'asked_clarification', expected: false },
        facts: runFacts({ clarification: null }),
      }),
    ).toMatchObject({ passed: false, uncheckable: true });
  });

  it('expects a question by default', () => {
    expect(
      assertionsSchema.parse([
        { type: 'asked_clarification' },
        { type: 'asked_clarification', expected: false },
      ]),
    ).toEqual([
      { type: 'asked_clarification', expected: true },
      { type: 'asked_clarification', expected: false },
    ]);
  });
});
