/**
 * `nao test merge`: shard files of one suite become one results file, built by the same code
 * as a whole run's (same order, summary, by_model and repeats), so every reader treats it as
 * one run. Shards of different suites, overlapping shards and missing shards are refused.
 */
import { UsageError } from '../errors/index.js';
import {
  buildResultsFile,
  notRunResult,
  type ResultsFile,
  type RunResult,
  type ShardRecord,
  type SuiteFingerprint,
  type SuiteTestRecord,
} from '../results/index.js';
import { planRuns } from '../scheduler/index.js';
import { readShardRecord } from './shard-record.js';
import { assignShards } from './shard-spec.js';
import { withDigest } from './suite-fingerprint.js';

export interface ShardFile {
  /** How the file is named in messages and in `merged.shards[].source`. */
  source: string;
  file: ResultsFile;
}

interface ReadShard extends ShardFile {
  shard: ShardRecord;
}

const ONE_SUITE_HINT =
  'Merge the shards of one `nao test --shard i/n` run: the same commit, nao_config.yaml, -m, -s and --repeat.';

function runKey(name: string, model: string, attempt: number): string {
  return JSON.stringify([name, model, attempt]);
}

function label(shard: ShardRecord): string {
  return `shard ${shard.index}/${shard.count}`;
}

/** What differs between the suites of two shards, in words. */
function suiteDifferences(a: SuiteFingerprint, b: SuiteFingerprint): string[] {
  const differences: string[] = [];
  if (a.config_sha256 !== b.config_sha256) differences.push('nao_config.yaml differs');
  if (JSON.stringify(a.models) !== JSON.stringify(b.models))
    differences.push(`models ${a.models.join(', ')} vs ${b.models.join(', ')}`);
  if (a.repeat !== b.repeat) differences.push(`--repeat ${a.repeat} vs ${b.repeat}`);
  const byName = (tests: SuiteTestRecord[]) => new Map(tests.map((test) => [test.name, test]));
  const aTests = byName(a.tests);
  const bTests = byName(b.tests);
  const only = (from: Map<string, SuiteTestRecord>, other: Map<string, SuiteTestRecord>) =>
    [...from.keys()].filter((name) => !other.has(name));
  const listed = (names: string[]) =>
    names.length > 5 ? `${names.slice(0, 5).join(', ')} and ${names.length - 5} more` : names.join(', ');
  const onlyA = only(aTests, bTests);
  const onlyB = only(bTests, aTests);
  if (onlyA.length > 0) differences.push(`tests only in the first: ${listed(onlyA)}`);
  if (onlyB.length > 0) differences.push(`tests only in the second: ${listed(onlyB)}`);
  const changed = [...aTests.values()]
    .filter((test) => {
      const other = bTests.get(test.name);
      return other !== undefined && (other.sha256 !== test.sha256 || other.file !== test.file);
    })
    .map((test) => test.name);
  if (changed.length > 0) differences.push(`test files changed: ${listed(changed)}`);
  if (differences.length === 0) differences.push('the tests run in another order');
  return differences;
}

/** The shard's runs by key; refuses a run of another shard's test, a stray run or a missing one. */
function shardRuns(options: { read: ReadShard; shardOf: Map<string, number> }): Map<string, RunResult> {
  const { read, shardOf } = options;
  const { suite, index, count } = read.shard;
  const runs = new Map<string, RunResult>();
  const problems: string[] = [];
  for (const result of read.file.results) {
    const owner = shardOf.get(result.name);
    const key = runKey(result.name, result.model, result.attempt);
    if (owner === undefined) problems.push(`test ${result.name} is not in the suite`);
    else if (owner !== index) {
      throw new UsageError({
        code: 'SHARD_OVERLAP',
        message: `${read.source} (${label(read.shard)}) holds runs of ${result.name}, a test of shard ${owner}/${count}: the shards overlap. ${ONE_SUITE_HINT}`,
      });
    } else if (!suite.models.includes(result.model))
      problems.push(`model ${result.model} is not in the suite`);
    else if (result.attempt > suite.repeat)
      problems.push(`${result.name} has attempt ${result.attempt} of ${suite.repeat}`);
    else if (runs.has(key))
      problems.push(`${result.name} on ${result.model}, attempt ${result.attempt}, is there twice`);
    else runs.set(key, result);
  }
  // Counted, not planned: a record claiming more runs than the file holds must not make the
  // merge allocate them. Every run kept above is one of the planned ones, so the rest are absent.
  const ownTests = suite.tests.filter((test) => shardOf.get(test.name) === index);
  const expected = ownTests.length * suite.models.length * suite.repeat;
  const absent = expected - runs.size;
  if (absent > 0) {
    const first = firstAbsent({ tests: ownTests, models: suite.models, repeat: suite.repeat, runs });
    const which =
      first === undefined ? '' : `, the first ${first.name} on ${first.model}, attempt ${first.attempt}`;
    problems.push(
      `${absent} run(s) are missing${which} ` +
        `(its record lists ${ownTests.length} test(s) × ${suite.models.length} model(s) × repeat ${suite.repeat} = ${expected} run(s); the file holds ${read.file.results.length})`,
    );
  }
  if (problems.length > 0) {
    throw new UsageError({
      code: 'SHARD_CONTENTS_MISMATCH',
      message: `${read.source} (${label(read.shard)}) does not hold the runs its suite record lists: ${problems.slice(0, 3).join('; ')}. Run that shard again.`,
    });
  }
  return runs;
}

/** The first planned run (in run order) the shard lacks; stops there, whatever the repeat count. */
function firstAbsent(options: {
  tests: readonly SuiteTestRecord[];
  models: readonly string[];
  repeat: number;
  runs: ReadonlyMap<string, RunResult>;
}): { name: string; model: string; attempt: number } | undefined {
  for (const model of options.models) {
    for (const test of options.tests) {
      for (let attempt = 1; attempt <= options.repeat; attempt++) {
        if (!options.runs.has(runKey(test.name, model, attempt))) return { name: test.name, model, attempt };
      }
    }
  }
  return undefined;
}

/** The timestamps that are set, in order (nao's timestamps sort as text). */
function sortedTimes(values: readonly (string | undefined)[]): string[] {
  return values.filter((value) => value !== undefined).sort();
}

/**
 * One results file from the shard files of a suite, in the order and with the summaries a
 * single run of it would have. Refused (UsageError, exit 2): a file that is not a shard,
 * shards of different suites, shard counts or nao versions, two files of one shard, a shard
 * holding another's tests, and a missing shard unless `allowPartial` — its runs are then
 * recorded as skipped.
 */
export function mergeShardFiles(options: {
  shards: readonly ShardFile[];
  allowPartial: boolean;
  /** The merge's time: the file's `timestamp`. */
  now: Date;
  /** The merge's command line, for `command`. */
  command?: string;
}): ResultsFile {
  if (options.shards.length === 0) {
    throw new UsageError({
      code: 'NO_SHARDS',
      message: 'nao test merge needs the results files of the shards.',
    });
  }
  const shards: ReadShard[] = options.shards.map((input) => {
    const shard = readShardRecord(input.file, input.source);
    if (withDigest(shard.suite).sha256 !== shard.suite.sha256) {
      throw new UsageError({
        code: 'SHARD_RECORD_INVALID',
        message: `${input.source} has a shard record that was edited (its suite digest does not match). Run that shard again.`,
      });
    }
    return { ...input, shard };
  });
  const first = shards[0]!;
  const { suite, count } = first.shard;
  for (const other of shards.slice(1)) {
    if (other.shard.count !== count) {
      throw new UsageError({
        code: 'SHARD_COUNT_MISMATCH',
        message: `${first.source} is ${label(first.shard)} but ${other.source} is ${label(other.shard)}: every shard of a run has the same n in --shard i/n.`,
      });
    }
    if (other.shard.suite.sha256 !== suite.sha256) {
      throw new UsageError({
        code: 'SHARD_SUITE_MISMATCH',
        message: `${other.source} is a shard of another suite than ${first.source}: ${suiteDifferences(suite, other.shard.suite).join('; ')}. ${ONE_SUITE_HINT}`,
      });
    }
    if (other.file.stats_cluster !== first.file.stats_cluster) {
      throw new UsageError({
        code: 'SHARD_SUITE_MISMATCH',
        message: `${first.source} and ${other.source} cluster their intervals differently (test.stats.cluster): ${ONE_SUITE_HINT}`,
      });
    }
    if (other.file.nao_version !== first.file.nao_version) {
      throw new UsageError({
        code: 'SHARD_VERSION_MISMATCH',
        message: `${first.source} was written by nao ${first.file.nao_version ?? '(unknown)'} and ${other.source} by nao ${other.file.nao_version ?? '(unknown)'}: run every shard with the same nao.`,
      });
    }
  }
  const byIndex = new Map<number, ReadShard>();
  for (const read of shards) {
    const twin = byIndex.get(read.shard.index);
    if (twin !== undefined) {
      throw new UsageError({
        code: 'SHARD_OVERLAP',
        message: `${twin.source} and ${read.source} are both ${label(read.shard)}: the shards overlap. Pass each shard's file once.`,
      });
    }
    byIndex.set(read.shard.index, read);
  }

  const assignment = assignShards({ tests: suite.tests, count, fileOf: (test) => test.file });
  const shardOf = new Map([...assignment].map(([test, index]) => [test.name, index]));
  const found = new Map<string, RunResult>();
  for (const read of shards) for (const [key, run] of shardRuns({ read, shardOf })) found.set(key, run);

  const missing = Array.from({ length: count }, (_, k) => k + 1).filter((index) => !byIndex.has(index));
  if (missing.length > 0 && !options.allowPartial) {
    const names = missing.map((index) => `${index}/${count}`).join(', ');
    throw new UsageError({
      code: 'SHARD_MISSING',
      message: `Shard ${names} ${missing.length === 1 ? 'is' : 'are'} missing: pass every shard's results file, or --allow-partial to merge without ${missing.length === 1 ? 'it' : 'them'} (their runs are then recorded as skipped).`,
    });
  }

  const results = planRuns({ tests: suite.tests, models: suite.models, repeat: suite.repeat }).map(
    (run) =>
      found.get(runKey(run.test.name, run.model, run.attempt)) ??
      notRunResult({
        name: run.test.name,
        file: run.test.file,
        model: run.model,
        attempt: run.attempt,
        message: `skipped: shard ${shardOf.get(run.test.name)}/${count} was not merged`,
      }),
  );
  const ordered = [...byIndex.keys()].sort((a, b) => a - b).map((index) => byIndex.get(index)!);
  const file = buildResultsFile({
    results,
    now: options.now,
    models: suite.models,
    repeat: suite.repeat,
    command: options.command,
    naoVersion: first.file.nao_version,
    priceTableVersion: first.file.price_table_version,
    interrupted: ordered.some((read) => read.file.interrupted === true),
    // The shards' own intervals cover a slice each: the merged ones are computed anew, on what
    // the run clustered on (test.stats.cluster, recorded in each shard's file).
    ...(first.file.stats_cluster === 'folder' ? { cluster: 'folder' as const } : {}),
  });
  const startedAt = sortedTimes(ordered.map((read) => read.file.started_at))[0];
  const finishedAt = sortedTimes(ordered.map((read) => read.file.finished_at)).at(-1);
  if (startedAt !== undefined) file.started_at = startedAt;
  if (finishedAt !== undefined) file.finished_at = finishedAt;
  file.merged = {
    shard_count: count,
    suite,
    shards: ordered.map((read) => ({
      index: read.shard.index,
      source: read.source,
      ...(read.file.command === undefined ? {} : { command: read.file.command }),
      ...(read.file.started_at === undefined ? {} : { started_at: read.file.started_at }),
      ...(read.file.finished_at === undefined ? {} : { finished_at: read.file.finished_at }),
    })),
    missing,
  };
  return file;
}
