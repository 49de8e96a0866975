export type { AppRunJob } from './app-run-types.js';
export type { AppRunner } from './backend-runner.js';
export { equivalentCommand } from './equivalent-command.js';
export { runAndSave } from './run-and-save.js';
export { createRunJobs, type RunJobs } from './run-jobs.js';
export { runRequestSchema } from './run-request-schema.js';
export { readRunTests } from './run-tests.js';
