import type { ComparisonOptions } from '../config/index.js';
import { errorResult, judgedResult, type RunResult } from '../results/index.js';
import type { PlannedRun } from '../scheduler/index.js';
import type { TestCase } from '../test-files/index.js';
import {
  type RunSpending,
  type TestRunClient,
  type TestRunResponse,
  testRunRequest,
} from '../test-run/index.js';
import { judgeRun } from '../verdict/index.js';

/**
 * One planned run, wired end to end: the client (in this process or the backend) answers, the
 * judge decides, the report makes the row. A failure of the run itself becomes an `error` row,
 * never an exception.
 */
export async function executeRun(options: {
  run: PlannedRun<TestCase>;
  client: TestRunClient;
  comparison: ComparisonOptions;
  /** `--judge-model` or `test.judge_model`; null: each model judges its own answers. */
  judgeModel?: string | null;
  signal: AbortSignal;
  now?: () => number;
}): Promise<RunResult> {
  const { run, client, signal } = options;
  const now = options.now ?? Date.now;
  const started = now();
  let response: TestRunResponse;
  // What the completed model calls used, kept for the row of a run that does not answer.
  let spending: RunSpending | undefined;
  try {
    response = await client.runTest({
      request: testRunRequest({ test: run.test, model: run.model, judgeModel: options.judgeModel ?? null }),
      signal,
      run: { test: run.test.name, file: run.test.relativePath, model: run.model, attempt: run.attempt },
      onSpending: (latest) => {
        spending = latest;
      },
    });
  } catch (error) {
    const reason = signal.aborted ? signal.reason : error;
    const message = reason instanceof Error ? reason.message : signal.aborted ? 'cancelled' : String(reason);
    return errorResult({ run, message, durationMs: now() - started, spending });
  }
  const judgement = judgeRun({ test: run.test, response, comparison: options.comparison });
  return judgedResult({ run, response, judgement, durationMs: now() - started });
}
