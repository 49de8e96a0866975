import { z } from 'zod';
import { UsageError } from '../errors/index.js';
import type { ResultsFile, ShardRecord } from '../report/index.js';

const sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'expected a SHA-256 in hex');

const shardRecordSchema = z.object({
  index: z.number().int().positive(),
  count: z.number().int().positive(),
  suite: z.object({
    sha256,
    config_sha256: sha256,
    models: z.array(z.string()).min(1),
    repeat: z.number().int().positive(),
    tests: z.array(z.object({ name: z.string(), file: z.string(), sha256 })),
  }),
});

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
  if (!parsed.success || parsed.data.index > parsed.data.count) {
    const problem = parsed.success
      ? `shard ${parsed.data.index}/${parsed.data.count} is past the count`
      : parsed.error.issues
          .slice(0, 3)
          .map((issue) => `shard.${issue.path.join('.')}: ${issue.message}`)
          .join('; ');
    throw new UsageError({
      code: 'SHARD_RECORD_INVALID',
      message: `${source} has a broken shard record (${problem}). Run the shard again with \`nao test --shard i/n\`.`,
    });
  }
  return parsed.data;
}
