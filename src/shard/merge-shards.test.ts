import { describe, expect, it } from 'vitest';
import { run } from '../../test-support/results/run-fixture.js';
import {
  buildResultsFile,
  type ResultsFile,
  type RunStatus,
  type StatsCluster,
  type SuiteFingerprint,
  summarize,
} from '../results/index.js';
import { toJUnitXml } from '../results/reporters/junit.js';
import { planRuns } from '../scheduler/index.js';
import { mergeShardFiles, type ShardFile } from './merge-shards.js';
import { assignShards } from './shard-spec.js';
import { withDigest } from './suite-fingerprint.js';

const NOW = new Date(2025, 1, 9, 14, 30, 22, 123);
const MODELS = ['openai:gpt-4.1', 'anthropic:claude-sonnet-4-5'];
const STATUSES: RunStatus[] = ['passed', 'failed', 'passed', 'error', 'unverified', 'passed', 'skipped'];
const hash = (seed: string) => seed.repeat(64).slice(0, 64);

function suiteOf(overrides: Partial<Omit<SuiteFingerprint, 'sha256'>> = {}): SuiteFingerprint {
  const names = [
    'total_revenue',
    'finance/aov',
    'finance/payments',
    'return_rate',
    'top_customers',
    'orders',
  ];
  return withDigest({
    config_sha256: hash('c'),
    models: MODELS,
    repeat: 2,
    tests: names.map((name, k) => ({
      name: name.split('/').at(-1)!,
      file: `${name}.yml`,
      sha256: hash(String(k)),
    })),
    ...overrides,
  });
}

/** The results of a whole run of the suite: statuses, costs and durations vary by run. */
function wholeRun(suite: SuiteFingerprint, cluster?: StatsCluster): ResultsFile {
  const results = planRuns({ tests: suite.tests, models: suite.models, repeat: suite.repeat }).map(
    (planned) =>
      run({
        name: planned.test.name,
        file: planned.test.file,
        model: planned.model,
        attempt: planned.attempt,
        status: STATUSES[planned.index % STATUSES.length]!,
        ...(STATUSES[planned.index % STATUSES.length] === 'skipped'
          ? {}
          : { cost: 0.001 * (planned.index + 1) }),
      }),
  );
  return buildResultsFile({
    results,
    now: NOW,
    models: suite.models,
    repeat: suite.repeat,
    naoVersion: '0.1.0',
    ...(cluster ? { cluster } : {}),
  });
}

/** The same runs split as `nao test --shard k/count` would have written them. */
function shardFiles(suite: SuiteFingerprint, count: number, cluster?: StatsCluster): ShardFile[] {
  const whole = wholeRun(suite, cluster);
  const shardOf = assignShards({ tests: suite.tests, count, fileOf: (test) => test.file });
  const owner = new Map([...shardOf].map(([test, index]) => [test.name, index]));
  return Array.from({ length: count }, (_, k) => ({
    source: `shard-${k + 1}/results.json`,
    file: buildResultsFile({
      results: whole.results.filter((result) => owner.get(result.name) === k + 1),
      now: new Date(2025, 1, 9, 14, 0, k),
      startedAt: new Date(2025, 1, 9, 13, 50 + k),
      models: suite.models,
      repeat: suite.repeat,
      naoVersion: '0.1.0',
      command: `nao test --shard ${k + 1}/${count}`,
      shard: { index: k + 1, count, suite },
      ...(cluster ? { cluster } : {}),
    }),
  }));
}

const merge = (shards: ShardFile[], allowPartial = false) =>
  mergeShardFiles({ shards, allowPartial, now: NOW, command: 'nao test merge' });

describe('mergeShardFiles', () => {
  it('gives the results, summary, by_model, repeats and JUnit of the suite run once', () => {
    const suite = suiteOf();
    const whole = wholeRun(suite);
    // Given in any order: the merge orders them.
    const merged = merge(shardFiles(suite, 4).reverse());
    expect(merged.results).toEqual(whole.results);
    expect(merged.summary).toEqual(whole.summary);
    expect(merged.by_model).toEqual(whole.by_model);
    expect(merged.repeats).toEqual(whole.repeats);
    expect(toJUnitXml({ file: merged })).toBe(toJUnitXml({ file: whole }));
    expect(merged).toMatchObject({
      models: MODELS,
      repeat: 2,
      nao_version: '0.1.0',
      command: 'nao test merge',
    });
    expect(merged).not.toHaveProperty('shard');
    expect(merged.started_at).toBe('2025-02-09T13:50:00.000000');
    expect(merged.finished_at).toBe('2025-02-09T14:00:03.000000');
    expect(merged.merged).toMatchObject({
      shard_count: 4,
      missing: [],
      suite: { sha256: suite.sha256 },
      shards: [1, 2, 3, 4].map((index) => ({
        index,
        source: `shard-${index}/results.json`,
        command: `nao test --shard ${index}/4`,
      })),
    });
  });

  // 12 tests in 3 folders, so the comparisons give verdicts (10 shared tests needed) and
  // clustering on the folder gives other intervals than on the test.
  const FOLDERED = withDigest({
    ...suiteOf(),
    tests: Array.from({ length: 12 }, (_, k) => ({
      name: `q${k}`,
      file: `${['sales', 'finance', 'ops'][k % 3]}/q${k}.yml`,
      sha256: hash(String(k % 10)),
    })),
  });

  it.each([
    ['each test ran once', 1, undefined],
    ['each test ran once, cluster: folder', 1, 'folder'],
    ['--repeat 2', 2, undefined],
    ['--repeat 2, cluster: folder', 2, 'folder'],
  ] as const)('gives the intervals and comparisons of the suite run once (%s)', (_what, repeat, cluster) => {
    const suite = withDigest({ ...FOLDERED, repeat });
    const whole = wholeRun(suite, cluster);
    const merged = mergeShardFiles({ shards: shardFiles(suite, 3, cluster), allowPartial: false, now: NOW });
    expect(whole.comparisons).toHaveLength(1);
    expect(merged.stats_cluster).toBe(whole.stats_cluster);
    expect(merged.summary.pass_rate_ci95).toEqual(whole.summary.pass_rate_ci95);
    expect(merged.summary.pass_rate_ci_method).toBe(whole.summary.pass_rate_ci_method);
    expect(merged.by_model).toEqual(whole.by_model);
    expect(merged.comparisons).toEqual(whole.comparisons);
    expect(merged.summary).toEqual(whole.summary);
    // What the shards record is what makes them equal: by the test, a folder run's differ.
    if (cluster === 'folder') {
      const unrecorded = shardFiles(suite, 3, cluster).map(
        ({ file: { stats_cluster, ...file }, ...shard }) => ({
          ...shard,
          file,
        }),
      );
      const byTest = mergeShardFiles({ shards: unrecorded, allowPartial: false, now: NOW });
      expect(byTest.summary.pass_rate_ci95).not.toEqual(whole.summary.pass_rate_ci95);
      expect(byTest.comparisons).not.toEqual(whole.comparisons);
    }
  });

  it('refuses shards that cluster their intervals differently', () => {
    const shards = shardFiles(FOLDERED, 3);
    const folder = shardFiles(FOLDERED, 3, 'folder');
    expect(() =>
      mergeShardFiles({ shards: [shards[0]!, folder[1]!, shards[2]!], allowPartial: false, now: NOW }),
    ).toThrow(/cluster their intervals differently \(test\.stats\.cluster\)/);
  });

  it('merges an empty shard (more shards than tests)', () => {
    const suite = suiteOf({ tests: suiteOf().tests.slice(0, 2) });
    const shards = shardFiles(suite, 3);
    expect(shards[2]!.file.results).toEqual([]);
    expect(merge(shards).results).toEqual(wholeRun(suite).results);
  });

  it('refuses a missing shard; --allow-partial records its runs as skipped', () => {
    const suite = suiteOf();
    const shards = shardFiles(suite, 4);
    const partial = [shards[0]!, shards[1]!, shards[3]!];
    expect(() => merge(partial)).toThrow(expect.objectContaining({ code: 'SHARD_MISSING' }));
    expect(() => merge(partial)).toThrow(/Shard 3\/4 is missing.*--allow-partial/);
    const merged = merge(partial, true);
    expect(merged.merged?.missing).toEqual([3]);
    const third = shards[2]!.file.results;
    const skipped = merged.results.filter((result) => result.message === 'skipped: shard 3/4 was not merged');
    expect(skipped.map((result) => [result.name, result.model, result.attempt])).toEqual(
      third.map((result) => [result.name, result.model, result.attempt]),
    );
    expect(skipped.every((result) => result.status === 'skipped' && result.file !== '')).toBe(true);
    expect(merged.results).toHaveLength(wholeRun(suite).results.length);
    // Counted like every skipped run: the summary shows the gap.
    expect(merged.summary).toEqual(summarize(merged.results));
    expect(merged.summary.skipped).toBeGreaterThanOrEqual(skipped.length);
  });

  it('refuses two files of one shard', () => {
    const shards = shardFiles(suiteOf(), 2);
    expect(() => merge([shards[0]!, shards[1]!, { ...shards[0]!, source: 'copy.json' }])).toThrow(
      'shard-1/results.json and copy.json are both shard 1/2: the shards overlap',
    );
  });

  it('refuses a shard holding a test of another shard', () => {
    const shards = shardFiles(suiteOf(), 2);
    const stray = shards[1]!.file.results[0]!;
    shards[0]!.file.results.push(stray);
    expect(() => merge(shards)).toThrow(expect.objectContaining({ code: 'SHARD_OVERLAP' }));
    expect(() => merge(shards)).toThrow(`holds runs of ${stray.name}, a test of shard 2/2`);
  });

  it('refuses a shard that lacks runs of its own tests', () => {
    const shards = shardFiles(suiteOf(), 2);
    const lost = shards[0]!.file.results.pop()!;
    expect(() => merge(shards)).toThrow(expect.objectContaining({ code: 'SHARD_CONTENTS_MISMATCH' }));
    expect(() => merge(shards)).toThrow(`1 run(s) are missing, the first ${lost.name} on ${lost.model}`);
  });

  it.each([
    ['nao_config.yaml', { config_sha256: hash('d') }, 'nao_config.yaml differs'],
    [
      'the models',
      { models: [MODELS[0]!] },
      'models openai:gpt-4.1, anthropic:claude-sonnet-4-5 vs openai:gpt-4.1',
    ],
    ['--repeat', { repeat: 3 }, '--repeat 2 vs 3'],
    [
      'a test file',
      { tests: suiteOf().tests.map((test, k) => (k === 1 ? { ...test, sha256: hash('e') } : test)) },
      'test files changed: aov',
    ],
    ['the tests', { tests: suiteOf().tests.slice(1) }, 'tests only in the first: total_revenue'],
  ])('refuses shards of suites whose %s differ', (_what, change, difference) => {
    const [first] = shardFiles(suiteOf(), 2);
    const [, second] = shardFiles(suiteOf(change), 2);
    expect(() => merge([first!, second!])).toThrow(expect.objectContaining({ code: 'SHARD_SUITE_MISMATCH' }));
    expect(() => merge([first!, second!])).toThrow(
      `shard-2/results.json is a shard of another suite than shard-1/results.json: ${difference}`,
    );
  });

  it('refuses different shard counts and nao versions', () => {
    const [ofTwo] = shardFiles(suiteOf(), 2);
    const [, ofThree] = shardFiles(suiteOf(), 3);
    expect(() => merge([ofTwo!, ofThree!])).toThrow(
      expect.objectContaining({ code: 'SHARD_COUNT_MISMATCH' }),
    );
    const [a, b] = shardFiles(suiteOf(), 2);
    b!.file.nao_version = '0.2.0';
    expect(() => merge([a!, b!])).toThrow('written by nao 0.1.0 and shard-2/results.json by nao 0.2.0');
  });

  it('refuses a whole run, a merged file and an edited shard record', () => {
    const suite = suiteOf();
    const shards = shardFiles(suite, 2);
    expect(() => merge([{ source: 'whole.json', file: wholeRun(suite) }])).toThrow(
      'whole.json is a whole run, not a shard',
    );
    expect(() => merge([{ source: 'merged.json', file: merge(shards) }])).toThrow(
      'merged.json is already a merge of shards, not a shard',
    );
    const edited = shardFiles(suite, 2);
    edited[0]!.file.shard!.suite.repeat = 1;
    expect(() => merge(edited)).toThrow(expect.objectContaining({ code: 'SHARD_RECORD_INVALID' }));
    const broken = shardFiles(suite, 2);
    (broken[0]!.file.shard as { index: unknown }).index = 'one';
    expect(() => merge(broken)).toThrow(/shard-1\/results.json has a broken shard record \(shard.index/);
  });
});

describe('mergeShardFiles on a forged shard record (its digest recomputed)', () => {
  /** Shard 1 of the two of `suiteOf()`, its record changed and its digest made to match again. */
  function forged(
    change: (shard: { index: number; count: number; suite: SuiteFingerprint }) => void,
  ): ShardFile {
    const [first] = shardFiles(suiteOf(), 2);
    const shard = first!.file.shard!;
    change(shard);
    shard.suite = withDigest(shard.suite);
    return first!;
  }

  it.each([
    [
      'a shard.count of 2e9',
      (shard: { count: number }) => (shard.count = 2e9),
      'shard.count: 2000000000 is above the 10,000 nao accepts',
    ],
    [
      'a shard.index of 1e7',
      (shard: { index: number }) => (shard.index = 1e7),
      'shard.index: 10000000 is above the 10,000 nao accepts',
    ],
    [
      'a shard.suite.repeat of 1e8',
      (shard: { suite: SuiteFingerprint }) => (shard.suite.repeat = 1e8),
      'shard.suite.repeat: 100000000 is above the 10,000 nao accepts',
    ],
    [
      'more runs than any results file holds',
      (shard: { suite: SuiteFingerprint }) => {
        shard.suite.repeat = 10_000;
        shard.suite.tests = Array.from({ length: 11 }, (_, k) => ({
          name: `t${k}`,
          file: `t${k}.yml`,
          sha256: hash('a'),
        }));
      },
      'shard.suite lists 220,000 runs (tests × models × repeat), above the 200,000 nao merges',
    ],
    [
      'a test listed twice',
      (shard: { suite: SuiteFingerprint }) => shard.suite.tests.push(shard.suite.tests[0]!),
      'shard.suite.tests: a test name is listed twice',
    ],
  ])('refuses %s, naming the file and the field', (_what, change, message) => {
    const shard = forged(
      change as (shard: { index: number; count: number; suite: SuiteFingerprint }) => void,
    );
    expect(() => merge([shard], true)).toThrow(expect.objectContaining({ code: 'SHARD_RECORD_INVALID' }));
    expect(() => merge([shard], true)).toThrow(`shard-1/results.json has a broken shard record (${message})`);
  });

  it('refuses a repeat count the file does not hold, without planning its runs', () => {
    const shard = forged((record) => {
      record.suite.repeat = 9_000;
    });
    const held = shard.file.results.length;
    const started = performance.now();
    expect(() => merge([shard], true)).toThrow(expect.objectContaining({ code: 'SHARD_CONTENTS_MISMATCH' }));
    // 3 tests of this shard × 2 models × 9,000 attempts, of which the file holds the first 2 attempts.
    expect(() => merge([shard], true)).toThrow(
      `${27_000 * 2 - held} run(s) are missing, the first aov on openai:gpt-4.1, attempt 3 (its record lists 3 test(s) × 2 model(s) × repeat 9000 = 54000 run(s); the file holds ${held})`,
    );
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
