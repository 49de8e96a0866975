import { DEFAULT_BACKEND_URL } from '../backend/listen-defaults.js';
import type { NaoConfig } from '../config/index.js';
import { modelStringSchema } from '../config/index.js';
import { UsageError } from '../errors/index.js';
import { parseShardFlag, type ShardSpec } from '../shard/shard-spec.js';
import { type Credentials, credentialsFrom } from './credentials.js';
import { positiveIntegerFlag, positiveNumberFlag, secondsFlag } from './flag-values.js';

/** `nao test` flags as commander hands them over (strings; repeatable flags as lists). */
export interface RawTestRunFlags {
  model?: string[];
  judgeModel?: string;
  threads?: string;
  select?: string[];
  username?: string;
  password?: string;
  local?: boolean;
  backend?: string;
  repeat?: string;
  timeout?: string;
  maxCost?: string;
  failFast?: boolean;
  verbose?: boolean;
  quiet?: boolean;
  junit?: string;
  strict?: boolean;
  color?: boolean;
  record?: boolean;
  replay?: boolean;
  shard?: string;
  /** `--last-failed` alone (true) or with a results file. */
  lastFailed?: string | boolean;
}

export interface TestRunOptions {
  models: string[];
  /** Grades the tests with `expected_answer`; null: each model under test grades its own answers. */
  judgeModel: string | null;
  threads: number;
  select: string[];
  /** `--local`, also set by `--record` / `--replay`: the agent runs in this process. */
  local: boolean;
  backendUrl: string;
  credentials: Credentials | null;
  repeat: number;
  /** `--timeout`, else `test.timeout_s` (which has a default): every run has a wall-clock limit. */
  timeoutMs: number;
  maxCostUsd: number | undefined;
  failFast: boolean;
  verbose: boolean;
  quiet: boolean;
  junitPath: string | undefined;
  strict: boolean;
  /** `--record` / `--replay`: model calls saved to or answered from tests/recordings/. */
  recording: 'record' | 'replay' | null;
  /** `--shard i/n`: run only that slice of the selected tests. */
  shard: ShardSpec | null;
  /**
   * `--last-failed [file]`: rerun only the failed and errored (test, model) pairs of that
   * results file (`file: null`: the latest complete one). null without the flag.
   */
  lastFailed: { file: string | null } | null;
  /** `-m` was given: with --last-failed, only the pairs of these models rerun. */
  modelsGiven: boolean;
}

/**
 * Applies the precedence flag > `test:` block of nao_config.yaml > default, and checks every
 * value; a bad one is a usage error naming the flag and the value (exit code 2).
 */
export function resolveTestRunOptions(options: {
  flags: RawTestRunFlags;
  config: NaoConfig;
  env: Record<string, string | undefined>;
}): TestRunOptions {
  const { flags, config, env } = options;
  const models = dedupe(
    flags.model !== undefined && flags.model.length > 0 ? flags.model : config.test.models,
  );
  for (const model of models) checkModelFlag('-m/--model', model);
  if (flags.judgeModel !== undefined) checkModelFlag('--judge-model', flags.judgeModel);
  const judgeModel = flags.judgeModel?.trim() ?? config.test.judgeModel ?? null;
  const credentials = credentialsFrom({ flags, env });
  if (flags.record && flags.replay) {
    throw new UsageError({ code: 'INVALID_FLAG', message: '--record and --replay cannot be used together.' });
  }
  const recording = flags.record ? 'record' : flags.replay ? 'replay' : null;
  if (recording !== null && flags.backend !== undefined) {
    throw new UsageError({
      code: 'INVALID_FLAG',
      message: `--${recording} runs the agent in this process and cannot go through --backend.`,
    });
  }
  return {
    recording,
    models,
    judgeModel,
    threads:
      flags.threads === undefined ? config.test.threads : positiveIntegerFlag('-t/--threads', flags.threads),
    select: flags.select ?? [],
    local: (flags.local ?? false) || recording !== null,
    backendUrl: flags.backend ?? env.BACKEND_URL ?? DEFAULT_BACKEND_URL,
    credentials,
    repeat: flags.repeat === undefined ? 1 : positiveIntegerFlag('--repeat', flags.repeat),
    timeoutMs:
      flags.timeout === undefined ? config.test.timeoutMs : secondsFlag('--timeout', flags.timeout) * 1000,
    maxCostUsd: flags.maxCost === undefined ? undefined : positiveNumberFlag('--max-cost', flags.maxCost),
    failFast: flags.failFast ?? config.test.failFast,
    verbose: flags.verbose ?? false,
    quiet: flags.quiet ?? false,
    junitPath: flags.junit,
    strict: flags.strict ?? false,
    shard: flags.shard === undefined ? null : parseShardFlag(flags.shard),
    lastFailed: lastFailedFlag(flags.lastFailed),
    modelsGiven: flags.model !== undefined && flags.model.length > 0,
  };
}

/** A model flag's value, trimmed, must be `provider:model_id`. */
function checkModelFlag(flag: string, value: string): void {
  if (modelStringSchema.safeParse(value.trim()).success) return;
  throw new UsageError({
    code: 'INVALID_MODEL',
    message: `${flag} "${value}" is not of the form provider:model_id (for example openai:gpt-4.1).`,
  });
}

function dedupe(values: readonly string[]): string[] {
  return [...new Set(values.map((value) => value.trim()))];
}

function lastFailedFlag(value: string | boolean | undefined): TestRunOptions['lastFailed'] {
  if (value === undefined || value === false) return null;
  if (value === true) return { file: null };
  if (value.trim() === '') {
    throw new UsageError({
      code: 'INVALID_FLAG',
      message:
        '--last-failed was given an empty file name: give a results file, or no value for the latest run.',
    });
  }
  return { file: value };
}
