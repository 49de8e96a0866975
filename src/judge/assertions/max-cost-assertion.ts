import { z } from 'zod';
import type { AssertionKind, AssertionOutcome } from './assertion.js';
import { nonNegativeNumberField } from './assertion-fields.js';
import type { RunFacts } from './run-facts.js';

/** `{type: max_cost_usd, max}`: the agent's run cost at most `max` USD (extraction and judge not counted). */
export interface MaxCostAssertion {
  type: 'max_cost_usd';
  max: number;
}

const maxCostAssertionSchema = z
  .looseObject({ type: z.literal('max_cost_usd'), max: nonNegativeNumberField })
  .transform((value): MaxCostAssertion => ({ type: 'max_cost_usd', max: value.max }));

/** Four significant digits: $0.0123, $0.000456, $1.235. */
export function formatUsd(value: number): string {
  return `$${Number(value.toPrecision(4))}`;
}

/** Compares the agent's cost with the limit; an unpriced model cannot be checked. */
export function checkMaxCostAssertion(options: {
  assertion: MaxCostAssertion;
  facts: RunFacts;
}): AssertionOutcome {
  const { assertion, facts } = options;
  if (facts.costUsd === null) {
    return {
      passed: false,
      uncheckable: true,
      message:
        'max_cost_usd cannot be checked: the model has no price (give it `costs` under llm.providers[].models in nao_config.yaml)',
    };
  }
  const spent = formatUsd(facts.costUsd);
  return facts.costUsd <= assertion.max
    ? { passed: true, message: `max_cost_usd: ${spent} (max ${formatUsd(assertion.max)})` }
    : { passed: false, message: `too expensive: the agent spent ${spent}, max ${formatUsd(assertion.max)}` };
}

/** The `max_cost_usd` entry of the assertion registry. */
export const maxCostKind: AssertionKind<MaxCostAssertion> = {
  fields: ['type', 'max'],
  schema: maxCostAssertionSchema,
  check: checkMaxCostAssertion,
  describe: (assertion) => `the agent costs at most ${formatUsd(assertion.max)}`,
};
