import path from 'node:path';
import type { NaoConfig } from '../config/index.js';
import { type ResultsFile, type RunResult, writeResultsFile } from '../results/index.js';
import { runTestSuite } from '../suite/index.js';
import type { TestCase } from '../test-files/index.js';
import type { TestRunClient } from '../test-run/index.js';
import { equivalentCommand } from './equivalent-command.js';

/**
 * Runs tests as `nao test` does (`runTestSuite`: planned, scheduled, each answer judged by
 * `judgeRun`, with the `test:` settings of nao_config.yaml) and writes the results file into
 * tests/outputs/, like a CLI run, for the runs the apps start.
 */
export async function runAndSave(options: {
  config: NaoConfig;
  tests: readonly TestCase[];
  models: readonly string[];
  client: TestRunClient;
  startedFrom: 'viewer' | 'chat';
  /** Where the viewer's runs ran: through a backend (default), in its process, or replayed. */
  viewerMode?: 'backend' | 'local' | 'replay';
  /** The client was opened for this job alone: closed (databases, sandboxes) once it is saved. */
  ownsClient?: boolean;
  naoVersion: string;
  signal: AbortSignal;
  onRunFinished: (result: RunResult) => void;
}): Promise<{ file: ResultsFile; savedPath: string }> {
  const { tests, models, startedFrom } = options;
  // The chat's runs are the backend's own (`--local` there); the viewer's go through a backend
  // unless none is configured, then they run in the viewer's process.
  const viewerMode = options.viewerMode ?? 'backend';
  const local = startedFrom === 'chat' || viewerMode !== 'backend';
  const command = equivalentCommand({
    tests: tests.map((test) => test.name),
    models,
    local,
    replay: viewerMode === 'replay',
  });
  try {
    return await runAndWrite({ ...options, command });
  } finally {
    if (options.ownsClient) await options.client.close();
  }
}

async function runAndWrite(
  options: Parameters<typeof runAndSave>[0] & { command: string },
): Promise<{ file: ResultsFile; savedPath: string }> {
  const { config, tests, models, startedFrom, command } = options;
  const settings = config.test;
  const { file, finishedAt } = await runTestSuite({
    tests,
    models,
    repeat: 1,
    client: options.client,
    comparison: settings.comparison,
    judgeModel: settings.judgeModel ?? null,
    threads: settings.threads,
    timeoutMs: settings.timeoutMs,
    signal: options.signal,
    onEvent: (event) => {
      if (event.type === 'finish') options.onRunFinished(event.result);
    },
    record: { command, naoVersion: options.naoVersion },
  });
  file.started_from = startedFrom;
  const savedPath = await writeResultsFile({
    outputsDir: path.join(config.projectDir, 'tests', 'outputs'),
    file,
    now: finishedAt,
  });
  return { file, savedPath };
}
