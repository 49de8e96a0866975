export { mergeShardFiles, type ShardFile } from './merge-shards.js';
export { readShardRecord } from './shard-record.js';
export { assignShards, parseShardFlag, type ShardSpec, shardTests } from './shard-spec.js';
export { suiteFingerprint, withDigest } from './suite-fingerprint.js';
