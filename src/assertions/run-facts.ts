import type { AssertionOutcome, AssertionType } from './assertion.js';
import type { ToolCallRecord } from './tool-call-assertion.js';

/**
 * What the assertions may read of one run, built once by `judgeRun` from the pipeline's
 * answer. A fact the run could not provide is said so (`unavailable`, `null`), never guessed:
 * an assertion that needs it cannot be checked and the run is an error, not a pass.
 */
export interface RunFacts {
  /** Every tool call of the run, in order, with its result (`{error}` for a failed call). */
  toolCalls: readonly ToolCallRecord[];
  /** The agent's final answer text. */
  responseText: string;
  /** The data of the answer, as the extraction read it from the agent's query results. */
  answer: AnswerFacts;
  /** The agent's tokens, summed over its steps (extraction and judge calls not counted). */
  tokens: number;
  /** The agent's cost in USD; null when its model has no price anywhere. */
  costUsd: number | null;
  /** Whether the agent asked a clarifying question; null when the backend does not report it. */
  clarification: { asked: boolean; question: string | null } | null;
}

export type AnswerFacts =
  | { kind: 'data'; columns: readonly string[]; rowCount: number }
  /** The agent's own failure (it ran no SQL, or said its results cannot answer): nothing to count. */
  | { kind: 'none'; reason: string }
  /** The harness could not provide the data (extraction broke, an older backend): cannot check. */
  | { kind: 'unavailable'; reason: string };

/**
 * The outcome of an assertion on the answer's data (`type`) when there is none: an error when
 * the harness could not provide it, a failure when the agent produced none.
 */
export function withoutAnswerData(options: {
  type: AssertionType;
  answer: Exclude<AnswerFacts, { kind: 'data' }>;
  /** What was expected, for the message: `5 rows`, `columns month, revenue`. */
  expected: string;
}): AssertionOutcome {
  const { type, answer, expected } = options;
  if (answer.kind === 'unavailable') {
    return { passed: false, uncheckable: true, message: `${type} cannot be checked: ${answer.reason}` };
  }
  return {
    passed: false,
    message: `${type}: the answer has no data, expected ${expected} (${answer.reason})`,
  };
}
