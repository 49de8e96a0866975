import type { AnswerFacts, RunFacts } from '../assertions/index.js';
import type { TestCase } from '../test-files/index.js';
import type { TestRunResponse } from '../test-run/index.js';

/** The facts of one run that the assertions read, from the pipeline's (or the backend's) answer. */
export function buildRunFacts(options: { test: Pick<TestCase, 'sql'>; response: TestRunResponse }): RunFacts {
  const { response } = options;
  const clarification = response.clarification;
  return {
    toolCalls: response.toolCalls,
    responseText: response.text,
    answer: answerFacts(options),
    tokens: response.usage.totalTokens,
    costUsd: response.cost?.totalCost ?? null,
    clarification:
      clarification === undefined
        ? null
        : { asked: clarification !== null, question: clarification?.question ?? null },
  };
}

function answerFacts(options: { test: Pick<TestCase, 'sql'>; response: TestRunResponse }): AnswerFacts {
  const verification = options.response.verification;
  if (verification === null) {
    return {
      kind: 'unavailable',
      reason:
        options.test.sql === null
          ? 'the backend extracted no answer data (it predates row_count and columns assertions on tests without sql; update nao chat)'
          : 'the backend returned no verification',
    };
  }
  if (verification.data !== null) {
    return { kind: 'data', columns: verification.data.columns, rowCount: verification.data.rows.length };
  }
  if (verification.referenceError !== null) {
    return { kind: 'unavailable', reason: `reference SQL failed: ${verification.referenceError}` };
  }
  if (verification.errorKind === 'no-queries' || verification.errorKind === 'cannot-answer') {
    return { kind: 'none', reason: verification.error ?? verification.errorKind };
  }
  return { kind: 'unavailable', reason: `answer extraction failed: ${verification.error ?? 'no data'}` };
}
