import type { TableData, TestRunResponse } from '../test-run/index.js';

/**
 * The answer of `POST /api/test/run` as sent: the original nao's response shape, which its
 * CLI reads (`verification.data` and `expectedData` as row objects, `cost` always an object,
 * `usage` with its eight counts only). `verification` holds exactly the fields of the oldest
 * shipped original client's `VerificationResult(**verification)`, which refuses any other key;
 * nao's own verification fields (`sql`, `error`, `usage`, the rows in column order, `errorKind`,
 * …) go in the sibling `naoVerification`, which original clients ignore.
 * nao's CLI reads either shape (client/test-run-response.ts).
 */
export function testRunWire(response: TestRunResponse): Record<string, unknown> {
  const { verification } = response;
  return {
    // Every field as it is (text, toolCalls, usage, finishReason, durationMs, the judge's verdict, …)
    // but the ones rewritten below.
    ...response,
    // An unpriced model has no cost: `{}` reads as "no cost" to both CLIs (the original's
    // TokenCost(**cost) takes an empty object, not null).
    cost: response.cost ?? {},
    verification:
      verification === null
        ? null
        : {
            data: rowObjects(verification.data),
            expectedData: rowObjects(verification.expectedData) ?? [],
            expectedColumns: verification.expectedColumns,
          },
    naoVerification:
      verification === null
        ? null
        : {
            sql: verification.sql,
            error: verification.error ?? verification.referenceError,
            usage: verification.usage,
            table: { data: verification.data, expected: verification.expectedData },
            errorKind: verification.errorKind,
            referenceError: verification.referenceError,
            snapshotConsistent: verification.snapshotConsistent,
            attempts: verification.attempts,
            cost: verification.cost ?? {},
          },
  };
}

function rowObjects(table: TableData | null): Record<string, unknown>[] | null {
  if (table === null) return null;
  return table.rows.map((row) =>
    Object.fromEntries(table.columns.map((column, index) => [column, row[index]])),
  );
}
