import path from 'node:path';
import { executeRun } from '../cli/execute-run.js';
import type { ComparisonOptions } from '../config/index.js';
import { PRICE_TABLE_VERSION } from '../llm/index.js';
import type { TestRunClient } from '../pipeline/index.js';
import {
  buildResultsFile,
  errorResult,
  type ResultsFile,
  type RunResult,
  skippedResult,
  spentUsd,
  writeResultsFile,
} from '../report/index.js';
import { planRuns, runSuite } from '../scheduler/index.js';
import type { TestCase } from '../test-files/index.js';

/**
 * Runs tests as `nao test` does — planned, scheduled, each answer judged by `executeRun`
 * (`judgeRun`) — and writes the results file into tests/outputs/, like a CLI run, for the
 * runs the apps start.
 */
export async function runAndSave(options: {
  tests: readonly TestCase[];
  models: readonly string[];
  client: TestRunClient;
  comparison: ComparisonOptions;
  threads: number;
  /** The project's tests/ folder; the file goes to its outputs/. */
  testsDir: string;
  /** The `nao test` command line that does the same run, for the file's `command`. */
  command: string;
  startedFrom: 'viewer' | 'chat';
  naoVersion: string;
  signal?: AbortSignal;
  onRunFinished?: (result: RunResult) => void;
  now?: () => Date;
}): Promise<{ file: ResultsFile; savedPath: string }> {
  const now = options.now ?? (() => new Date());
  const startedAt = now();
  const runs = planRuns({ tests: options.tests, models: options.models, repeat: 1 });
  const outcome = await runSuite({
    runs,
    concurrency: options.threads,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    execute: (run, signal) =>
      executeRun({ run, client: options.client, comparison: options.comparison, signal }),
    spentUsd,
    skipped: skippedResult,
    crashed: (run, error) =>
      errorResult({ run, message: error instanceof Error ? error.message : String(error), durationMs: 0 }),
    onEvent: (event) => {
      if (event.type === 'finish') options.onRunFinished?.(event.result);
    },
  });
  const finishedAt = now();
  const file = buildResultsFile({
    results: outcome.results,
    now: finishedAt,
    startedAt,
    models: [...options.models],
    repeat: 1,
    command: options.command,
    naoVersion: options.naoVersion,
    priceTableVersion: PRICE_TABLE_VERSION,
    interrupted: outcome.stoppedBy === 'interrupted',
  });
  file.started_from = options.startedFrom;
  const savedPath = await writeResultsFile({
    outputsDir: path.join(options.testsDir, 'outputs'),
    file,
    now: finishedAt,
  });
  return { file, savedPath };
}
