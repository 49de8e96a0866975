/**
 * The viewer's runs without a backend: `nao test server` runs the tests in its own process as
 * `nao test --local` does (the project's nao_config.yaml, its models and keys, its databases),
 * or as `nao test --replay` when every run of the job has a recording in tests/recordings/.
 * Bounded and cancellable like the backend's runs: one job at a time, at most
 * MAX_RUNS_PER_JOB runs, each job's databases opened for it and closed once it is saved.
 */
import { access } from 'node:fs/promises';
import path from 'node:path';
import { loadConfig, type NaoConfig } from '../config/index.js';
import { NaoError } from '../errors/index.js';
import { createRecorder } from '../recording/index.js';
import { recordingFilePath } from '../recording/recording-file.js';
import type { TestCase } from '../test-files/index.js';
import { openLocalClient, type TestRunClient } from '../test-run/index.js';
import type { AppRunner } from './backend-runner.js';
import { createRunJobs } from './run-jobs.js';
import { readRunTests } from './run-tests.js';
import { startAppRun } from './start-app-run.js';

export function createLocalRunner(options: {
  projectDir: string;
  env: Record<string, string | undefined>;
  naoVersion: string;
  /** Warnings of the runs' runtime (an unreachable database, a missing price), for the terminal. */
  log: (line: string) => void;
  /** The network for model calls (tests point it at a stand-in); default the standard fetch. */
  fetch?: typeof fetch;
}): AppRunner {
  const jobs = createRunJobs({ log: options.log });
  const config = () => loadConfig({ projectDir: options.projectDir, env: options.env });
  return {
    async status() {
      return {
        state: 'ready',
        mode: 'local',
        backendUrl: null,
        user: null,
        models: (await config()).test.models,
      };
    },
    async start(request) {
      const current = await config();
      const replay = await allRecorded({ config: current, names: request.tests, models: request.models });
      return startAppRun({
        jobs,
        config: current,
        tests: request.tests,
        models: request.models,
        client: lazyLocalClient({ ...options, config: current, replay }),
        ownsClient: true,
        startedFrom: 'viewer',
        viewerMode: replay ? 'replay' : 'local',
        naoVersion: options.naoVersion,
      });
    },
    job: (id) => jobs.get(id),
    cancel: (id) => jobs.cancel(id),
    close: () => jobs.close(),
  };
}

function recordingsDir(config: NaoConfig): string {
  return path.join(config.projectDir, 'tests', 'recordings');
}

/**
 * Whether every (test, model) of the job has its recording: then it replays (no key, no cost).
 * A job with one run not recorded runs live, as a replay would make that run an error.
 */
async function allRecorded(options: {
  config: NaoConfig;
  names: string[];
  models: string[];
}): Promise<boolean> {
  let tests: TestCase[];
  try {
    tests = await readRunTests({ config: options.config, names: options.names });
  } catch (error) {
    // startAppRun reads them again and refuses the run with this error.
    if (error instanceof NaoError) return false;
    throw error;
  }
  if (tests.length === 0 || options.models.length === 0) return false;
  const files = tests.flatMap((test) =>
    options.models.map((model) =>
      recordingFilePath({
        recordingsDir: recordingsDir(options.config),
        model,
        test: test.relativePath,
        attempt: 1,
      }),
    ),
  );
  const found = await Promise.all(
    files.map((file) =>
      access(file).then(
        () => true,
        () => false,
      ),
    ),
  );
  return found.every(Boolean);
}

/**
 * A client that opens the project's runtime (databases, models) with the job's first run, so
 * a click answers at once and the viewer holds no connection between jobs.
 */
function lazyLocalClient(options: {
  config: NaoConfig;
  env: Record<string, string | undefined>;
  replay: boolean;
  log: (line: string) => void;
  fetch?: typeof fetch;
}): TestRunClient {
  let opening: Promise<TestRunClient> | undefined;
  const open = () => {
    opening ??= openJobClient(options);
    return opening;
  };
  return {
    runTest: async (request) => (await open()).runTest(request),
    async close() {
      const client = await opening?.catch(() => undefined);
      await client?.close();
    },
  };
}

async function openJobClient(options: {
  config: NaoConfig;
  env: Record<string, string | undefined>;
  replay: boolean;
  log: (line: string) => void;
  fetch?: typeof fetch;
}): Promise<TestRunClient> {
  const { config } = options;
  const recording = options.replay
    ? createRecorder({
        recordingsDir: recordingsDir(config),
        mode: 'replay',
        displayDir: config.projectDir,
        ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
      })
    : undefined;
  return openLocalClient({ config, env: options.env, warn: options.log, recording, fetch: options.fetch });
}
