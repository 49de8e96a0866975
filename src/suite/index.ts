export { executeRun } from './execute-run.js';
export { runTestSuite, type TestSuiteEvent } from './run-test-suite.js';
