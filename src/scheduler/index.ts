export { type PlannedRun, planRuns } from './plan.js';
export { runSuite, type StopReason } from './run-suite.js';
