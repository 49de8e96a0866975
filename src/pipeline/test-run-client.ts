import type { TestRunRequest, TestRunResponse } from '../pipeline/index.js';

/**
 * How the runner reaches the agent: in this process (`--local`) or through the backend's
 * `POST /api/test/run`. Both answer with the same response shape.
 */
export interface TestRunClient {
  runTest(options: {
    request: TestRunRequest;
    signal: AbortSignal;
    run: RunIdentity;
  }): Promise<TestRunResponse>;
  close(): Promise<void>;
}

/** Which run a request belongs to (record/replay keys its files and steps by it). */
export interface RunIdentity {
  test: string;
  /** The test file, relative to tests/. */
  file: string;
  model: string;
  attempt: number;
}

/** The request of one run: the test's prompt and reference, for `provider:model_id`. */
export function testRunRequest(
  test: { prompt: string; sql: string | null; database: string | null },
  model: string,
): TestRunRequest {
  const colon = model.indexOf(':');
  return {
    prompt: test.prompt,
    model: { provider: model.slice(0, colon), modelId: model.slice(colon + 1) },
    sql: test.sql,
    databaseId: test.database,
  };
}
