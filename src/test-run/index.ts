export { createLocalClient, openLocalClient } from './local-client.js';
export { openProjectRuntime, type ProjectRuntime } from './project-runtime.js';
export type { ReferenceCheck } from './reference-check.js';
export { runTestRequest } from './run-test-request.js';
export { type TestRunClient, testRunRequest } from './test-run-client.js';
export type {
  RunSpending,
  TableData,
  TestRunRequest,
  TestRunResponse,
  Verification,
} from './test-run-types.js';
export { withoutFailedReferences } from './without-failed-references.js';
