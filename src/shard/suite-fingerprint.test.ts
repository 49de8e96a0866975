import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { suiteFingerprint } from './suite-fingerprint.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'nao-fingerprint-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function fingerprint(files: { config: string; test: string }, models = ['openai:gpt-4.1'], repeat = 1) {
  await writeFile(path.join(dir, 'nao_config.yaml'), files.config);
  await writeFile(path.join(dir, 'total.yml'), files.test);
  return suiteFingerprint({
    tests: [{ name: 'total', relativePath: 'total.yml', filePath: path.join(dir, 'total.yml') }],
    configPath: path.join(dir, 'nao_config.yaml'),
    models,
    repeat,
  });
}

describe('suiteFingerprint', () => {
  const base = { config: 'project_name: shop\n', test: 'prompt: Total?\nsql: SELECT 1\n' };

  it('records the tests with their file hashes, the config hash, models and repeat', async () => {
    const suite = await fingerprint(base, ['openai:gpt-4.1', 'openai:gpt-4.1-mini'], 3);
    expect(suite).toMatchObject({
      models: ['openai:gpt-4.1', 'openai:gpt-4.1-mini'],
      repeat: 3,
      tests: [{ name: 'total', file: 'total.yml', sha256: expect.stringMatching(/^[0-9a-f]{64}$/) }],
      config_sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
  });

  it('is the same for a CRLF checkout and changes with any input', async () => {
    const suite = await fingerprint(base);
    const crlf = await fingerprint({
      config: base.config.replaceAll('\n', '\r\n'),
      test: base.test.replaceAll('\n', '\r\n'),
    });
    expect(crlf).toEqual(suite);
    const others = [
      await fingerprint({ ...base, test: 'prompt: Total?\nsql: SELECT 2\n' }),
      await fingerprint({ ...base, config: 'project_name: shop2\n' }),
      await fingerprint(base, ['openai:gpt-4.1-mini']),
      await fingerprint(base, ['openai:gpt-4.1'], 2),
    ];
    for (const other of others) expect(other.sha256).not.toBe(suite.sha256);
    expect(others[0]!.tests[0]!.sha256).not.toBe(suite.tests[0]!.sha256);
    expect(others[1]!.config_sha256).not.toBe(suite.config_sha256);
  });
});
