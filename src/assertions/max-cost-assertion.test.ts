import { describe, expect, it } from 'vitest';
import { runFacts } from '../../test-support/assertions/run-facts.js';
import { formatCost } from '../number-format/format-values.js';
import { assertionsSchema } from './assertion.js';
import { checkMaxCostAssertion } from './max-cost-assertion.js';
import { checkMaxTokensAssertion } from './max-tokens-assertion.js';

describe('max_cost_usd', () => {
  it.each<[number, boolean, string]>([
    [0.0123, true, 'max_cost_usd: $0.0123 (max $0.05)'],
    [0.05, true, 'max_cost_usd: $0.05 (max $0.05)'],
    [0.061234, false, 'too expensive: the agent spent $0.0612, max $0.05'],
    [0.000456, true, 'max_cost_usd: $0.000456 (max $0.05)'],
    [0.05004, false, 'too expensive: the agent spent $0.05, max $0.05 (over by $0.00004)'],
  ])('the agent spent %s', (costUsd, passed, message) => {
    expect(
      checkMaxCostAssertion({ assertion: { type: 'max_cost_usd', max: 0.05 }, facts: runFacts({ costUsd }) }),
    ).toEqual({ passed, message });
  });

  it('cannot be checked for a model without a price', () => {
    expect(
      checkMaxCostAssertion({
        assertion: { type: 'max_cost_usd', max: 1 },
        facts: runFacts({ costUsd: null }),
      }),
    ).toEqual({
      passed: false,
      uncheckable: true,
      message:
        'max_cost_usd cannot be checked: the model has no price (give it `costs` under llm.providers[].models in nao_config.yaml)',
    });
  });

  it.each([
    [0.000456, 1.23456, 'max_cost_usd: $0.000456 (max $1.2346)'],
    [0, 0, 'max_cost_usd: $0 (max $0)'],
  ])('formats dollars as the report does: %s of %s', (costUsd, max, message) => {
    expect(
      checkMaxCostAssertion({ assertion: { type: 'max_cost_usd', max }, facts: runFacts({ costUsd }) })
        .message,
    ).toBe(message);
    expect(message).toContain(formatCost(costUsd));
    expect(message).toContain(formatCost(max));
  });

  it('needs max as a number >= 0', () => {
    expect(assertionsSchema.parse([{ type: 'max_cost_usd', max: 0.1 }])).toEqual([
      { type: 'max_cost_usd', max: 0.1 },
    ]);
    expect(assertionsSchema.safeParse([{ type: 'max_cost_usd', max: -1 }]).error?.issues[0]?.message).toBe(
      'must be a number >= 0',
    );
  });
});

describe('max_tokens', () => {
  it.each<[number, boolean, string]>([
    [19_999, true, 'max_tokens: 19,999 (max 20,000)'],
    [25_300, false, 'too many tokens: the agent used 25,300, max 20,000'],
  ])('the agent used %s tokens', (tokens, passed, message) => {
    expect(
      checkMaxTokensAssertion({
        assertion: { type: 'max_tokens', max: 20_000 },
        facts: runFacts({ tokens }),
      }),
    ).toEqual({ passed, message });
  });

  it('needs max as an integer >= 1', () => {
    expect(assertionsSchema.safeParse([{ type: 'max_tokens', max: 0 }]).error?.issues[0]?.message).toBe(
      'must be an integer >= 1',
    );
  });
});
