import type { TestRunRequest, TestRunResponse } from '../test-run/index.js';

/**
 * How the runner reaches the agent: in this process (`--local`) or through the backend's
 * `POST /api/test/run`. Both answer with the same response shape.
 */
export interface TestRunClient {
  runTest(options: { request: TestRunRequest; signal: AbortSignal }): Promise<TestRunResponse>;
  close(): Promise<void>;
}
