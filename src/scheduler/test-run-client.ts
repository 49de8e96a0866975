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
