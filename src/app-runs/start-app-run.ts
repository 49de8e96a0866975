import type { NaoConfig } from '../config/index.js';
import { NaoError } from '../errors/index.js';
import type { TestRunClient } from '../pipeline/index.js';
import type { AppRunJob } from './app-run-types.js';
import type { RunJobs } from './run-jobs.js';
import { readRunTests } from './run-tests.js';

/**
 * Reads the named tests and starts a job running each on every model through `client`, saved
 * to tests/outputs/ like a CLI run. Unknown or invalid tests are a 400, a job already running a 409.
 */
export async function startAppRun(options: {
  jobs: RunJobs;
  config: NaoConfig;
  tests: readonly string[];
  models: string[];
  client: TestRunClient;
  startedFrom: 'viewer' | 'chat';
  naoVersion: string;
  owner?: string;
}): Promise<{ success: true; job: AppRunJob } | { success: false; status: 400 | 409; error: string }> {
  const { config, models } = options;
  let tests: Awaited<ReturnType<typeof readRunTests>>;
  try {
    tests = await readRunTests({ config, names: options.tests });
  } catch (error) {
    if (!(error instanceof NaoError)) throw error;
    return { success: false, status: 400, error: error.message };
  }
  const started = options.jobs.start({
    tests: tests.map((test) => test.name),
    models,
    total: tests.length * models.length,
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
        naoVersion: options.naoVersion,
        ...context,
      }),
  });
  return started.success ? started : { success: false, status: 409, error: started.error };
}
