import { UsageError } from '../errors/index.js';
import { compareCodeUnits } from '../warehouse/index.js';
import { MAX_SHARD_COUNT } from './shard-record.js';

/** `--shard i/n`: slice `index` (1-based) of `count`. */
export interface ShardSpec {
  index: number;
  count: number;
}

/** Reads `--shard 2/4`; anything but two whole numbers with 1 ≤ i ≤ n is a usage error naming the value. */
export function parseShardFlag(value: string): ShardSpec {
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(value);
  const index = match ? Number(match[1]) : Number.NaN;
  const count = match ? Number(match[2]) : Number.NaN;
  if (
    !Number.isSafeInteger(index) ||
    !Number.isSafeInteger(count) ||
    index < 1 ||
    index > count ||
    count > MAX_SHARD_COUNT
  ) {
    throw new UsageError({
      code: 'INVALID_SHARD',
      message: `--shard must be i/n with whole numbers 1 ≤ i ≤ n ≤ ${MAX_SHARD_COUNT} (for example 2/4), got "${value}".`,
    });
  }
  return { index, count };
}

/**
 * The shard (1-based) of every test. Tests are sorted by their file under tests/ (unique, and
 * the same on every machine) and dealt round-robin: shard sizes differ by at most one, and the
 * tests of one folder — often alike in cost — are spread over the shards instead of filling
 * one. The thread count, the models and the repeat count play no part, so every model and
 * attempt of a test stay in its shard.
 */
export function assignShards<Test>(options: {
  tests: readonly Test[];
  count: number;
  /** The test's file, relative to tests/. */
  fileOf: (test: Test) => string;
}): Map<Test, number> {
  const sorted = [...options.tests].sort((a, b) => compareCodeUnits(options.fileOf(a), options.fileOf(b)));
  return new Map(sorted.map((test, position) => [test, (position % options.count) + 1]));
}

/** The tests of one shard (see `assignShards`), in the order given. */
export function shardTests<Test>(options: {
  tests: readonly Test[];
  shard: ShardSpec;
  fileOf: (test: Test) => string;
}): Test[] {
  const shardOf = assignShards({ tests: options.tests, count: options.shard.count, fileOf: options.fileOf });
  return options.tests.filter((test) => shardOf.get(test) === options.shard.index);
}
