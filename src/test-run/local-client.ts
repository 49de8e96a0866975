import type { NaoConfig } from '../config/index.js';
import type { TestCase } from '../test-files/index.js';
import { openProjectRuntime, type ProjectRuntime } from './project-runtime.js';
import { checkReferences, REFERENCE_CHECK_TIMEOUT_MS, type ReferenceCheck } from './reference-check.js';
import { runTestRequest } from './run-test-request.js';
import type { RunIdentity } from './test-run-client.js';
import type { RunSpending, TestRunRequest, TestRunResponse } from './test-run-types.js';

/** What the local client needs of a recorder (src/recording) for `--record` / `--replay`. */
export interface LocalClientRecording {
  /** Runs `fn` as one run: its model calls are keyed by (test, model, attempt, step) in its recording file. */
  withRun<T>(run: RunIdentity & { signal: AbortSignal }, fn: () => Promise<T>): Promise<T>;
  /** The transport for the provider packages: it records or replays per run. */
  readonly fetch: typeof globalThis.fetch;
  /** The current run's query-id generator: replayed tool results must name queries as recorded. */
  currentQueryIdGenerator(): (() => string) | undefined;
  /** The recording error behind a failed model call of the current run (the SDK rewraps it). */
  currentRunError(): Error | undefined;
  readonly isReplaying: boolean;
}

/** `nao test --local`: runs each request in this process, no backend and no log-in. */
export function createLocalClient(
  runtime: ProjectRuntime,
  { recording }: { recording?: LocalClientRecording } = {},
) {
  const run = async (options: {
    request: TestRunRequest;
    signal: AbortSignal;
    onSpending?: (spending: RunSpending) => void;
  }): Promise<TestRunResponse> => {
    const generateQueryId = recording?.currentQueryIdGenerator();
    let response: TestRunResponse;
    try {
      response = await runTestRequest({
        runtime,
        request: options.request,
        signal: options.signal,
        generateQueryId,
        onSpending: options.onSpending,
      });
    } catch (error) {
      throw recording?.currentRunError() ?? error;
    }
    // A verdict must never rest on a model call that was not answered from its recording.
    const failure = recording?.currentRunError();
    if (failure !== undefined) throw failure;
    return recording?.isReplaying === true ? { ...response, replayed: true } : response;
  };
  return {
    runTest: (options: Parameters<typeof run>[0] & { run: RunIdentity }): Promise<TestRunResponse> =>
      recording === undefined
        ? run(options)
        : recording.withRun({ ...options.run, signal: options.signal }, () => run(options)),
    prepareModel(model: string): void {
      runtime.model(model);
    },
    checkReferences: (
      tests: readonly Pick<TestCase, 'sql' | 'database' | 'relativePath'>[],
      signal?: AbortSignal,
    ): Promise<ReadonlyMap<string, ReferenceCheck>> =>
      checkReferences({
        tests,
        databases: runtime.databases,
        unavailable: runtime.config.unavailableDatabases,
        timeoutMs: Math.min(
          REFERENCE_CHECK_TIMEOUT_MS,
          runtime.agentContext.limits.queryTimeoutMs ?? REFERENCE_CHECK_TIMEOUT_MS,
        ),
        ...(signal === undefined ? {} : { signal }),
      }),
    close: () => runtime.close(),
  };
}

/**
 * Opens the project's runtime (its databases and models) and the local client over it, as
 * `nao test --local` and the viewer's runs without a backend do; what the runtime warns of
 * (an unreachable database, a missing price, a privileged role) goes to `warn`.
 */
export async function openLocalClient(options: {
  config: NaoConfig;
  env: Record<string, string | undefined>;
  warn: (line: string) => void;
  recording?: LocalClientRecording | undefined;
  /** The network for model calls when nothing is recorded (tests point it at a stand-in). */
  fetch?: typeof globalThis.fetch | undefined;
}): Promise<ReturnType<typeof createLocalClient>> {
  const { recording, warn } = options;
  const runtime = await openProjectRuntime({
    config: options.config,
    env: options.env,
    onUnavailableDatabase: (database) =>
      warn(`Warning: ${database.reason} The runs that query it are errors; the others run.`),
    onPriceWarning: (warning) => warn(`Warning: ${warning}`),
    onDatabaseWarning: (warning) => warn(`Warning: ${warning}`),
    fetch: recording?.fetch ?? options.fetch,
    allowMissingKey: recording?.isReplaying === true,
  });
  return createLocalClient(runtime, { recording });
}
