export { mergeShardFiles } from './merge-shards.js';
export { shardTests } from './shard-spec.js';
export { suiteFingerprint } from './suite-fingerprint.js';
