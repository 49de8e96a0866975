/**
 * The JSON of runs started from the apps (the viewer's Run again, the chat's Save as test),
 * as types only: both web UIs import them from here and never a server module.
 */
import type { RunStatus } from '../results/index.js';

/** What to run: tests by name, each on every model, once. */
export interface AppRunRequest {
  tests: string[];
  models: string[];
}

/** One finished run of a job, as the pages show it. */
export interface AppRunOutcome {
  name: string;
  model: string;
  status: RunStatus;
  message: string;
}

export interface AppRunJob {
  id: string;
  /** done: the results file is written (whatever the runs' verdicts); failed: it could not be. */
  state: 'running' | 'done' | 'failed';
  tests: string[];
  models: string[];
  /** Runs planned and finished so far. */
  total: number;
  finished: number;
  /** The results file's name inside tests/outputs/, once written. */
  file: string | null;
  /** The same file relative to the project folder (`tests/outputs/results_….json`). */
  path: string | null;
  runs: AppRunOutcome[];
  /** Why the job failed (state `failed`). */
  error: string | null;
  /** Stopped by its user: the runs that had not finished are missing from the saved file's verdicts. */
  cancelled?: boolean;
}

/**
 * Whether the viewer can run tests: through a backend it reaches and is logged in to (mode
 * `backend`), in its own process with the project's config (mode `local`, when no backend is
 * configured), or not, with what to do about it.
 */
export type AppRunnerStatus =
  | { state: 'ready'; mode: 'backend'; backendUrl: string; user: string; models: string[] }
  | { state: 'ready'; mode: 'local'; backendUrl: null; user: null; models: string[] }
  | {
      state: 'unavailable';
      reason: 'disabled' | 'no-backend' | 'other-project' | 'not-logged-in';
      backendUrl: string | null;
      message: string;
      /** The command that fixes it, to show as code (`nao chat`, `nao login`). */
      command: string | null;
    };
