export { executeRun } from './execute-run.js';
export { runTestSuite } from './run-test-suite.js';
