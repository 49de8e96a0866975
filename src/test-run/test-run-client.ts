import { readsAnswerData } from '../assertions/index.js';
import type { TestCase } from '../test-files/index.js';
import type { ReferenceCheck } from './reference-check.js';
import type { RunSpending, TestRunRequest, TestRunResponse } from './test-run-types.js';

/**
 * How the runner reaches the agent: in this process (`--local`) or through the backend's
 * `POST /api/test/run`. Both answer with the same response shape.
 */
export interface TestRunClient {
  runTest(options: {
    request: TestRunRequest;
    signal: AbortSignal;
    run: RunIdentity;
    /**
     * Told what the run's completed model calls used and cost, as each completes, so a run cut
     * short still reports them. Only runs in this process can; a backend's come with its answer.
     */
    onSpending?: (spending: RunSpending) => void;
  }): Promise<TestRunResponse>;
  /** Resolves a model up front (in this process), so a missing API key stops the command, not each run. */
  prepareModel?(model: string): void;
  /**
   * Plans each test's reference SQL on its database before the first run (in this process,
   * which holds the databases), keyed by test file; see reference-check.ts.
   */
  checkReferences?(
    tests: readonly Pick<TestCase, 'sql' | 'database' | 'relativePath'>[],
    signal?: AbortSignal,
  ): Promise<ReadonlyMap<string, ReferenceCheck>>;
  close(): Promise<void>;
}

/** Which run a request belongs to (record/replay keys its files and steps by it). */
export interface RunIdentity {
  test: string;
  /** The test file, relative to tests/. */
  file: string;
  model: string;
  attempt: number;
}

function modelOf(model: string): { provider: string; modelId: string } {
  const colon = model.indexOf(':');
  return { provider: model.slice(0, colon), modelId: model.slice(colon + 1) };
}

/**
 * The request of one run: the test's prompt and reference, for `provider:model_id`. The fields
 * newer than the first backend are sent only when the test uses them, so a plain test's
 * request is the same for every backend version.
 */
export function testRunRequest(options: {
  test: Pick<
    TestCase,
    'prompt' | 'sql' | 'database' | 'assertions' | 'expectedAnswer' | 'allowClarification'
  >;
  model: string;
  /** `--judge-model` or `test.judge_model`; null: the model under test judges. */
  judgeModel?: string | null;
}): TestRunRequest {
  const { test } = options;
  const judgeModel = options.judgeModel ?? options.model;
  return {
    prompt: test.prompt,
    model: modelOf(options.model),
    sql: test.sql,
    databaseId: test.database,
    ...(test.sql === null && readsAnswerData(test.assertions) ? { extractAnswer: true } : {}),
    ...(test.expectedAnswer === null
      ? {}
      : { expectedAnswer: test.expectedAnswer, judgeModel: modelOf(judgeModel) }),
    ...(test.allowClarification ? { allowClarification: true } : {}),
  };
}
