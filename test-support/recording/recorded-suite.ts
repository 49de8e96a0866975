import path from 'node:path';
import { loadConfig } from '../../src/config/index.js';
import { NaoError } from '../../src/errors/index.js';
import type { Recorder } from '../../src/recording/recorder.js';
import { errorResult, type RunResult, skippedResult, spentUsd } from '../../src/results/index.js';
import { planRuns, runSuite } from '../../src/scheduler/index.js';
import { executeRun } from '../../src/suite/index.js';
import { discoverTests, formatProblems } from '../../src/test-files/index.js';
import { createLocalClient, openProjectRuntime } from '../../src/test-run/index.js';

/**
 * Runs a project's tests through the real pipeline (config, runtime, local client, scheduler,
 * executeRun) with every run inside `recorder.withRun`: what `nao test --local --record` /
 * `--replay` does, without the CLI's printing. Used by the tests and the example generator.
 */
export async function runRecordedSuite(options: {
  projectDir: string;
  recorder: Recorder;
  env?: Record<string, string | undefined>;
  /** Test names to run (default: all). */
  select?: readonly string[];
  /** Default: test.models of the config. */
  models?: readonly string[];
  repeat?: number;
  concurrency?: number;
}): Promise<RunResult[]> {
  const { recorder } = options;
  const env = options.env ?? {};
  const config = await loadConfig({ projectDir: options.projectDir, env });
  const discovered = await discoverTests({
    testsDir: path.join(config.projectDir, 'tests'),
    databaseNames: config.databases.map((database) => database.name),
  });
  if (discovered.problems.length > 0) {
    throw new NaoError({ code: 'INVALID_TEST_FILES', message: formatProblems(discovered.problems) });
  }
  const select = options.select;
  const tests =
    select === undefined ? discovered.tests : discovered.tests.filter((test) => select.includes(test.name));
  const runtime = await openProjectRuntime({
    config,
    env,
    fetch: recorder.fetch,
    allowMissingKey: recorder.isReplaying,
  });
  const client = createLocalClient(runtime, { recording: recorder });
  try {
    const outcome = await runSuite({
      runs: planRuns({ tests, models: options.models ?? config.test.models, repeat: options.repeat ?? 1 }),
      concurrency: options.concurrency ?? 1,
      // The client runs each one inside the recorder's run.
      execute: async (run, signal) => {
        const result = await executeRun({ run, client, comparison: config.test.comparison, signal });
        return { ...result, spentUsd: spentUsd(result) };
      },
      skipped: (run, reason) => ({ ...skippedResult(run, reason), spentUsd: null }),
      crashed: (run, error) => ({
        ...errorResult({
          run,
          message: error instanceof Error ? error.message : String(error),
          durationMs: 0,
        }),
        spentUsd: null,
      }),
    });
    return outcome.results.map(({ spentUsd: _spent, ...result }) => result);
  } finally {
    await client.close();
  }
}
