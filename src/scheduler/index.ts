export { type PlannedRun, planRuns } from './plan.js';
export { RunTimeoutError, runSuite, type StopReason, type SuiteOutcome } from './run-suite.js';
