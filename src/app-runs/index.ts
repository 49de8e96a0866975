export type { AppRunJob } from './app-run-types.js';
export type { AppRunner } from './backend-runner.js';
export { createRunJobs, type RunJobs } from './run-jobs.js';
export { runRequestSchema } from './run-request-schema.js';
export { startAppRun } from './start-app-run.js';
