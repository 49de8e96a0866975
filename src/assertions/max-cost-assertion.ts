import { z } from 'zod';
import { formatCost } from '../number-format/format-values.js';
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
  // The one cost format of every output, so the message reads like the tables' Cost column.
  const spent = formatCost(facts.costUsd);
  const max = formatCost(assertion.max);
  if (facts.costUsd <= assertion.max) return { passed: true, message: `max_cost_usd: ${spent} (max ${max})` };
  // Rounded alike ($0.05004 and $0.05 both print $0.05), the two would not show why it failed.
  const over = spent === max ? ` (over by ${formatCost(facts.costUsd - assertion.max)})` : '';
  return { passed: false, message: `too expensive: the agent spent ${spent}, max ${max}${over}` };
}

/** The `max_cost_usd` entry of the assertion registry. */
export const maxCostKind: AssertionKind<MaxCostAssertion> = {
  fields: ['type', 'max'],
  schema: maxCostAssertionSchema,
  check: checkMaxCostAssertion,
  describe: (assertion) => `the agent costs at most ${formatCost(assertion.max)}`,
};
