import type { ComparisonOptions } from '../config/index.js';
import { messageOf } from '../errors/index.js';
import { PRICE_TABLE_VERSION } from '../llm/index.js';
import {
  buildResultsFile,
  errorResult,
  type ResultsFile,
  type RunResult,
  type SelectionRecord,
  type ShardRecord,
  skippedResult,
  spentUsd,
} from '../results/index.js';
import { planRuns, runSuite, type StopReason } from '../scheduler/index.js';
import type { TestCase } from '../test-files/index.js';
import type { TestRunClient } from '../test-run/index.js';
import { executeRun } from './execute-run.js';

/** What a suite tells its listener while it runs. */
export type TestSuiteEvent = { type: 'finish'; result: RunResult } | { type: 'stop'; reason: StopReason };

/**
 * A suite end to end, as `nao test` and the apps' runs share it: models × tests × repeats
 * scheduled through the client, each answer judged and made a row, then the results file
 * (summary, by_model and repeats computed from the rows). Writing and printing are the caller's.
 */
export async function runTestSuite(options: {
  tests: readonly TestCase[];
  models: readonly string[];
  repeat: number;
  /** Runs only these (test, model) pairs (`--last-failed`); default every pair. */
  include?: (test: TestCase, model: string) => boolean;
  client: TestRunClient;
  /** `test.comparison` of nao_config.yaml. */
  comparison: ComparisonOptions;
  /** `--judge-model` or `test.judge_model`; null: each model judges its own answers. */
  judgeModel?: string | null;
  /** `test.stats.cluster`: what the pass-rate intervals cluster on (default: the test). */
  cluster?: 'test' | 'folder';
  threads: number;
  startSpacingMs?: number;
  timeoutMs?: number;
  maxCostUsd?: number;
  failFast?: boolean;
  /** Aborting it (Ctrl-C) stops the suite; what finished is kept. */
  signal?: AbortSignal;
  onEvent?: (event: TestSuiteEvent) => void;
  /** What the results file records of the run. */
  record: { command: string; naoVersion: string; shard?: ShardRecord; selection?: SelectionRecord };
  now?: () => Date;
}): Promise<{ file: ResultsFile; stoppedBy: StopReason | null; finishedAt: Date }> {
  const now = options.now ?? (() => new Date());
  const startedAt = now();
  const outcome = await runSuite({
    runs: planRuns({
      tests: options.tests,
      models: options.models,
      repeat: options.repeat,
      include: options.include,
    }),
    concurrency: options.threads,
    startSpacingMs: options.startSpacingMs,
    timeoutMs: options.timeoutMs,
    maxCostUsd: options.maxCostUsd,
    failFast: options.failFast ?? false,
    signal: options.signal,
    execute: (run, signal) =>
      executeRun({
        run,
        client: options.client,
        comparison: options.comparison,
        judgeModel: options.judgeModel ?? null,
        signal,
      }),
    spentUsd,
    skipped: skippedResult,
    crashed: (run, error) => errorResult({ run, message: messageOf(error), durationMs: 0 }),
    onEvent: (event) => {
      if (event.type === 'finish') options.onEvent?.({ type: 'finish', result: event.result });
      if (event.type === 'stop') options.onEvent?.({ type: 'stop', reason: event.reason });
    },
  });
  const finishedAt = now();
  const file = buildResultsFile({
    results: outcome.results,
    now: finishedAt,
    startedAt,
    models: [...options.models],
    repeat: options.repeat,
    command: options.record.command,
    naoVersion: options.record.naoVersion,
    priceTableVersion: PRICE_TABLE_VERSION,
    interrupted: outcome.stoppedBy === 'interrupted',
    stoppedBy:
      outcome.stoppedBy === 'fail-fast' || outcome.stoppedBy === 'budget' ? outcome.stoppedBy : undefined,
    shard: options.record.shard,
    selection: options.record.selection,
    ...(options.cluster ? { cluster: options.cluster } : {}),
  });
  return { file, stoppedBy: outcome.stoppedBy, finishedAt };
}
