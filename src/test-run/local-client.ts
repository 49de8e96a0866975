import type { TestCase } from '../test-files/index.js';
import type { ProjectRuntime } from './project-runtime.js';
import { checkReferences, REFERENCE_CHECK_TIMEOUT_MS, type ReferenceCheck } from './reference-check.js';
import { runTestRequest } from './run-test-request.js';
import type { RunSpending, TestRunRequest, TestRunResponse } from './test-run-types.js';

/** What the local client needs of a recorder (src/recording) for `--record` / `--replay`. */
export interface LocalClientRecording {
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
  return {
    async runTest(options: {
      request: TestRunRequest;
      signal: AbortSignal;
      onSpending?: (spending: RunSpending) => void;
    }): Promise<TestRunResponse> {
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
    },
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
