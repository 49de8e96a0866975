export { mergeShardFiles } from './merge-shards.js';
export { shardTests } from './shard-spec.js';
export { fileSha256, suiteFingerprint } from './suite-fingerprint.js';
