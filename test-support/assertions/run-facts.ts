import type { RunFacts } from '../../src/assertions/index.js';

/** The facts of a plain run (no calls, empty answer text, one row of data); a test sets what it checks. */
export function runFacts(overrides: Partial<RunFacts> = {}): RunFacts {
  return {
    toolCalls: [],
    responseText: '',
    answer: { kind: 'data', columns: ['total'], rowCount: 1 },
    tokens: 0,
    costUsd: 0,
    clarification: { asked: false, question: null },
    ...overrides,
  };
}
