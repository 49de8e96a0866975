import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { SuiteFingerprint, SuiteTestRecord } from '../results/index.js';

/** SHA-256 of a text file with CRLF read as LF, so a Windows checkout hashes like a Linux one. */
async function fileSha256(filePath: string): Promise<string> {
  const text = await readFile(filePath, 'utf8');
  return createHash('sha256').update(text.replaceAll('\r\n', '\n')).digest('hex');
}

/**
 * The fingerprint every shard of a run writes, so `nao test merge` can tell shards of one
 * suite from shards of another: the tests with the hash of each file, the hash of
 * nao_config.yaml, the models and the repeat count, and one digest of them all.
 */
export async function suiteFingerprint(options: {
  /** Every test of the suite (before sharding), in run order. */
  tests: readonly { name: string; relativePath: string; filePath: string }[];
  configPath: string;
  models: readonly string[];
  repeat: number;
}): Promise<SuiteFingerprint> {
  const [configHash, ...testHashes] = await Promise.all([
    fileSha256(options.configPath),
    ...options.tests.map((test) => fileSha256(test.filePath)),
  ]);
  const tests: SuiteTestRecord[] = options.tests.map((test, index) => ({
    name: test.name,
    file: test.relativePath,
    sha256: testHashes[index]!,
  }));
  return withDigest({
    config_sha256: configHash!,
    models: [...options.models],
    repeat: options.repeat,
    tests,
  });
}

/** The fingerprint with `sha256` computed from the rest (merge recomputes it to catch an edited file). */
export function withDigest(content: Omit<SuiteFingerprint, 'sha256'>): SuiteFingerprint {
  const canonical = {
    config_sha256: content.config_sha256,
    models: content.models,
    repeat: content.repeat,
    tests: content.tests.map((test) => ({ name: test.name, file: test.file, sha256: test.sha256 })),
  };
  return { sha256: createHash('sha256').update(JSON.stringify(canonical)).digest('hex'), ...canonical };
}
