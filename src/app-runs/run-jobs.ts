import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { messageOf } from '../errors/index.js';
import type { ResultsFile, RunResult } from '../results/index.js';
import type { AppRunJob, AppRunOutcome } from './app-run-types.js';

/** Finished jobs kept for their pages to read; older ones are forgotten. */
const KEPT_JOBS = 20;

/** Jobs running at once on one server, whoever started them: each runs `test.threads` runs. */
export const MAX_RUNNING_JOBS = 4;

/** When to look again after a refusal: jobs take a while, polling them every few seconds is enough. */
const BUSY_RETRY_SECONDS = 10;

export type StartJobResult =
  | { success: true; job: AppRunJob }
  | {
      success: false;
      /** own-job: the same owner's job still runs; server-busy: MAX_RUNNING_JOBS are running. */
      reason: 'own-job' | 'server-busy';
      error: string;
      retryAfterSeconds: number;
    };

export type CancelJobResult =
  | { success: true; job: AppRunJob }
  | { success: false; status: 404 | 409; error: string };

export interface RunJobs {
  /**
   * Starts a job in the background, unless its owner's last one is still running (app runs cost
   * money, so a second click never doubles a run) or the server runs as many as it takes.
   */
  start(options: {
    tests: string[];
    models: string[];
    total: number;
    /** Who may read the job (the backend's user id); undefined: anyone who reaches the server. */
    owner?: string;
    /** The project folder, to show the results file relative to it. */
    projectDir: string;
    run: (context: {
      signal: AbortSignal;
      onRunFinished: (result: RunResult) => void;
    }) => Promise<{ file: ResultsFile; savedPath: string }>;
  }): StartJobResult;
  get(id: string, owner?: string): AppRunJob | null;
  /** Stops a running job of `owner`: runs under way are aborted, what finished is saved. */
  cancel(id: string, owner?: string): CancelJobResult;
  /** Aborts the running jobs and waits for them to save what finished. */
  close(): Promise<void>;
}

function outcomeOf(result: RunResult): AppRunOutcome {
  return { name: result.name, model: result.model, status: result.status, message: result.message };
}

/** The in-memory jobs of one server (the viewer's or the backend's). */
export function createRunJobs(options: { log?: (line: string) => void; maxRunning?: number } = {}): RunJobs {
  const maxRunning = options.maxRunning ?? MAX_RUNNING_JOBS;
  const jobs = new Map<string, { job: AppRunJob; owner: string | undefined }>();
  // The running jobs by owner ('' for a server without accounts, the viewer's): one each.
  const running = new Map<string, { id: string; controller: AbortController; done: Promise<void> }>();

  const forgetOld = () => {
    const finished = [...jobs.values()].filter((entry) => entry.job.state !== 'running');
    for (const entry of finished.slice(0, -KEPT_JOBS)) jobs.delete(entry.job.id);
  };

  return {
    start(request) {
      const ownerKey = request.owner ?? '';
      if (running.has(ownerKey)) {
        return {
          success: false,
          reason: 'own-job',
          error: 'A run started from here is still going; wait for it to finish, or cancel it.',
          retryAfterSeconds: BUSY_RETRY_SECONDS,
        };
      }
      if (running.size >= maxRunning) {
        return {
          success: false,
          reason: 'server-busy',
          error: `The server is running ${running.size} test runs of other users, the most it runs at once; try again shortly.`,
          retryAfterSeconds: BUSY_RETRY_SECONDS,
        };
      }
      const job: AppRunJob = {
        id: randomUUID(),
        state: 'running',
        tests: request.tests,
        models: request.models,
        total: request.total,
        finished: 0,
        file: null,
        path: null,
        runs: [],
        error: null,
        cancelled: false,
      };
      jobs.set(job.id, { job, owner: request.owner });
      const controller = new AbortController();
      const done = request
        .run({
          signal: controller.signal,
          onRunFinished: (result) => {
            job.finished++;
            job.runs.push(outcomeOf(result));
          },
        })
        .then(
          ({ file, savedPath }) => {
            // Plan order, with the runs that never ran (Ctrl-C, Cancel) as the file has them.
            job.runs = file.results.map(outcomeOf);
            job.file = path.basename(savedPath);
            job.path = path.relative(request.projectDir, savedPath).split(path.sep).join('/');
            job.state = 'done';
          },
          (error: unknown) => {
            job.error = messageOf(error);
            job.state = 'failed';
            options.log?.(`app run ${job.id} failed: ${job.error}`);
          },
        )
        .finally(() => {
          running.delete(ownerKey);
          forgetOld();
        });
      running.set(ownerKey, { id: job.id, controller, done });
      return { success: true, job };
    },
    get(id, owner) {
      const entry = jobs.get(id);
      if (entry === undefined || entry.owner !== owner) return null;
      return entry.job;
    },
    cancel(id, owner) {
      const entry = jobs.get(id);
      if (entry === undefined || entry.owner !== owner) {
        return { success: false, status: 404, error: `No test run ${id}.` };
      }
      const current = running.get(owner ?? '');
      if (entry.job.state !== 'running' || current?.id !== id) {
        return { success: false, status: 409, error: `Test run ${id} has already finished.` };
      }
      entry.job.cancelled = true;
      current.controller.abort(new Error('cancelled'));
      return { success: true, job: entry.job };
    },
    async close() {
      const all = [...running.values()];
      for (const current of all) current.controller.abort(new Error('interrupted'));
      await Promise.all(all.map((current) => current.done));
    },
  };
}
