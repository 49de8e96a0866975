export {
  errorResult,
  executeRun,
  SAVED_ROWS_LIMIT,
  skippedResult,
  spentUsd,
  testRunRequest,
} from '../cli/execute-run.js';
export { type PlannedRun, planRuns } from './plan.js';
export {
  type RunOutcome,
  RunTimeoutError,
  runSuite,
  type StopReason,
  type SuiteEvent,
  type SuiteOutcome,
} from './run-suite.js';
export type { RunIdentity, TestRunClient } from './test-run-client.js';
