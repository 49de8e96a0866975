import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { messageOf } from '../errors/index.js';
import type { ResultsFile, RunResult } from '../report/index.js';
import type { AppRunJob, AppRunOutcome } from './app-run-types.js';

/** Finished jobs kept for their pages to read; older ones are forgotten. */
const KEPT_JOBS = 20;

export type StartJobResult = { success: true; job: AppRunJob } | { success: false; error: string };

export interface RunJobs {
  /**
   * Starts a job in the background, unless one is running: app runs cost money, so a second
   * click never doubles a run.
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
  /** Aborts the running job and waits for it to save what finished. */
  close(): Promise<void>;
}

function outcomeOf(result: RunResult): AppRunOutcome {
  return { name: result.name, model: result.model, status: result.status, message: result.message };
}

/** The in-memory jobs of one server (the viewer's or the backend's). */
export function createRunJobs(options: { log?: (line: string) => void } = {}): RunJobs {
  const jobs = new Map<string, { job: AppRunJob; owner: string | undefined }>();
  let running: { controller: AbortController; done: Promise<void> } | null = null;

  const forgetOld = () => {
    const finished = [...jobs.values()].filter((entry) => entry.job.state !== 'running');
    for (const entry of finished.slice(0, -KEPT_JOBS)) jobs.delete(entry.job.id);
  };

  return {
    start(request) {
      if (running !== null) {
        return { success: false, error: 'A run started from here is still going; wait for it to finish.' };
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
            // Plan order, with the runs that never ran (Ctrl-C) as the file has them.
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
          running = null;
          forgetOld();
        });
      running = { controller, done };
      return { success: true, job };
    },
    get(id, owner) {
      const entry = jobs.get(id);
      if (entry === undefined || entry.owner !== owner) return null;
      return entry.job;
    },
    async close() {
      const current = running;
      if (current === null) return;
      current.controller.abort(new Error('interrupted'));
      await current.done;
    },
  };
}
