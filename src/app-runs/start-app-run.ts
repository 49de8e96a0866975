import type { NaoConfig } from '../config/index.js';
import { NaoError } from '../errors/index.js';
import type { TestCase } from '../test-files/index.js';
import type { TestRunClient } from '../test-run/index.js';
import type { AppRunJob } from './app-run-types.js';
import type { RunJobs } from './run-jobs.js';
import { readRunTests } from './run-tests.js';

/** Runs (tests × models) one job may plan: a click must not start thousands of paid model calls. */
export const MAX_RUNS_PER_JOB = 100;

export type StartAppRunResult =
  | { success: true; job: AppRunJob }
  | { success: false; status: 400 | 403 | 409 | 429; error: string; retryAfterSeconds?: number };

/**
 * Reads the named tests and starts a job running each on every model through `client`, saved
 * to tests/outputs/ like a CLI run. Unknown or invalid tests and too many runs are a 400, a test
 * `vetTests` refuses a 403, the owner's job still running a 409, a server running its most a 429.
 */
export async function startAppRun(options: {
  jobs: RunJobs;
  config: NaoConfig;
  tests: readonly string[];
  models: string[];
  client: TestRunClient;
  startedFrom: 'viewer' | 'chat';
  /** Where the viewer's runs run (see runAndSave). */
  viewerMode?: 'backend' | 'local' | 'replay';
  /** Opened for this job alone: closed once its results file is saved. */
  ownsClient?: boolean;
  naoVersion: string;
  owner?: string;
  /** Why these tests may not run for this user (their reference SQL), or null when they may. */
  vetTests?: (tests: readonly TestCase[]) => Promise<string | null>;
}): Promise<StartAppRunResult> {
  const { config, models } = options;
  let tests: Awaited<ReturnType<typeof readRunTests>>;
  try {
    tests = await readRunTests({ config, names: options.tests });
  } catch (error) {
    if (!(error instanceof NaoError)) throw error;
    return { success: false, status: 400, error: error.message };
  }
  const total = tests.length * models.length;
  if (total > MAX_RUNS_PER_JOB) {
    return {
      success: false,
      status: 400,
      error: `${tests.length} tests on ${models.length} models are ${total} runs; one run from here plans at most ${MAX_RUNS_PER_JOB}. Pick fewer, or run them with nao test.`,
    };
  }
  const refused = (await options.vetTests?.(tests)) ?? null;
  if (refused !== null) return { success: false, status: 403, error: refused };
  const started = options.jobs.start({
    tests: tests.map((test) => test.name),
    models,
    total,
    owner: options.owner,
    projectDir: config.projectDir,
    // The engines and the SDK load with the first run, not with the viewer.
    run: async (context) =>
      (await import('./run-and-save.js')).runAndSave({
        config,
        tests,
        models,
        client: options.client,
        startedFrom: options.startedFrom,
        viewerMode: options.viewerMode ?? 'backend',
        ownsClient: options.ownsClient ?? false,
        naoVersion: options.naoVersion,
        ...context,
      }),
  });
  if (started.success) return started;
  const { error, retryAfterSeconds } = started;
  return { success: false, status: started.reason === 'own-job' ? 409 : 429, error, retryAfterSeconds };
}
