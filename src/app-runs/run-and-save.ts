import path from 'node:path';
import type { NaoConfig } from '../config/index.js';
import type { TestRunClient } from '../pipeline/index.js';
import { type ResultsFile, type RunResult, writeResultsFile } from '../report/index.js';
import { runTestSuite } from '../suite/index.js';
import type { TestCase } from '../test-files/index.js';

/**
 * Runs tests as `nao test` does (`runTestSuite`: planned, scheduled, each answer judged by
 * `judgeRun`) and writes the results file into tests/outputs/, like a CLI run, for the
 * runs the apps start.
 */
export async function runAndSave(options: {
  tests: readonly TestCase[];
  models: readonly string[];
  client: TestRunClient;
  /** The `test:` block of nao_config.yaml: tolerances, threads and the judge model, as for `nao test`. */
  settings: NaoConfig['test'];
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
  const { file, finishedAt } = await runTestSuite({
    tests: options.tests,
    models: options.models,
    repeat: 1,
    client: options.client,
    comparison: options.settings.comparison,
    judgeModel: options.settings.judgeModel ?? null,
    threads: options.settings.threads,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    onEvent: (event) => {
      if (event.type === 'finish') options.onRunFinished?.(event.result);
    },
    record: { command: options.command, naoVersion: options.naoVersion },
    ...(options.now === undefined ? {} : { now: options.now }),
  });
  file.started_from = options.startedFrom;
  const savedPath = await writeResultsFile({
    outputsDir: path.join(options.testsDir, 'outputs'),
    file,
    now: finishedAt,
  });
  return { file, savedPath };
}
