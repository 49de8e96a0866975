import { z } from 'zod';
import { UsageError } from '../errors/index.js';
import type { ResultsFile, ShardRecord, SuiteFingerprint } from '../results/index.js';

/**
 * Bounds on the numbers a shard record holds. The suite digest is a plain SHA-256 anyone can
 * recompute, so the record is input like any other: the merge allocates a run per test, model
 * and attempt, and a forged `repeat: 1e8` or `count: 2e9` must be refused before it does.
 */
export const MAX_SHARD_COUNT = 10_000;
export const MAX_SHARD_REPEAT = 10_000;
/**
 * Tests × models × repeat of one suite. A results file of more runs would not fit in one
 * JavaScript string (~512 MB) at the ~2 kB of JSON a run takes, so no run can have written it.
 */
export const MAX_SUITE_RUNS = 200_000;

const sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'expected a SHA-256 in hex');
const bounded = (max: number) =>
  z
    .number()
    .int()
    .positive()
    .max(max, {
      error: (issue) => `${String(issue.input)} is above the ${max.toLocaleString('en-US')} nao accepts`,
    });

// Runs are told apart by test name, model and attempt: a name listed twice would count twice.
const unique = (values: readonly string[]) => new Set(values).size === values.length;

const shardRecordSchema = z.object({
  index: bounded(MAX_SHARD_COUNT),
  count: bounded(MAX_SHARD_COUNT),
  suite: z.object({
    sha256,
    config_sha256: sha256,
    models: z.array(z.string()).min(1).refine(unique, 'a model is listed twice'),
    repeat: bounded(MAX_SHARD_REPEAT),
    tests: z
      .array(z.object({ name: z.string(), file: z.string(), sha256 }))
      .refine((tests) => unique(tests.map((test) => test.name)), 'a test name is listed twice'),
  }),
});

/** How many runs a whole run of the suite makes. */
export function suiteRuns(suite: Pick<SuiteFingerprint, 'tests' | 'models' | 'repeat'>): number {
  return suite.tests.length * suite.models.length * suite.repeat;
}

/**
 * The `shard` record of a results file, checked; a file without one (a plain run, or a merged
 * file) or with a broken one is a usage error naming the file.
 */
export function readShardRecord(file: ResultsFile, source: string): ShardRecord {
  if (file.shard === undefined) {
    const what = file.merged === undefined ? 'a whole run' : 'already a merge of shards';
    throw new UsageError({
      code: 'NOT_A_SHARD',
      message: `${source} is ${what}, not a shard: merge the files written by \`nao test --shard i/n\`.`,
    });
  }
  const parsed = shardRecordSchema.safeParse(file.shard);
  if (
    !parsed.success ||
    parsed.data.index > parsed.data.count ||
    suiteRuns(parsed.data.suite) > MAX_SUITE_RUNS
  ) {
    const problem = !parsed.success
      ? parsed.error.issues
          .slice(0, 3)
          .map((issue) => `shard.${issue.path.join('.')}: ${issue.message}`)
          .join('; ')
      : parsed.data.index > parsed.data.count
        ? `shard ${parsed.data.index}/${parsed.data.count} is past the count`
        : `shard.suite lists ${suiteRuns(parsed.data.suite).toLocaleString('en-US')} runs (tests × models × repeat), above the ${MAX_SUITE_RUNS.toLocaleString('en-US')} nao merges`;
    throw new UsageError({
      code: 'SHARD_RECORD_INVALID',
      message: `${source} has a broken shard record (${problem}). Run the shard again with \`nao test --shard i/n\`.`,
    });
  }
  return parsed.data;
}
