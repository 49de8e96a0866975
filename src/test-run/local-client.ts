import type { ProjectRuntime } from './project-runtime.js';
import { runTestRequest } from './run-test-request.js';
import type { TestRunRequest, TestRunResponse } from './test-run-types.js';

/** `nao test --local`: runs each request in this process, no backend and no log-in. */
export function createLocalClient(runtime: ProjectRuntime) {
  return {
    runTest(options: { request: TestRunRequest; signal: AbortSignal }): Promise<TestRunResponse> {
      return runTestRequest({ runtime, request: options.request, signal: options.signal });
    },
    close: () => runtime.close(),
  };
}
