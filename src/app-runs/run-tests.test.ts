import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type NaoConfig } from '../config/index.js';
import { equivalentCommand } from './equivalent-command.js';
import { readRunTests } from './run-tests.js';

let dir: string;
let config: NaoConfig;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'nao-app-runs-'));
  await writeFile(path.join(dir, 'nao_config.yaml'), 'project_name: shop\n');
  await mkdir(path.join(dir, 'tests', 'finance'), { recursive: true });
  await writeFile(path.join(dir, 'tests', 'total.yml'), 'prompt: Total?\nsql: SELECT 1\n');
  // A folder and a test of the same name: an app run names the test, never the folder.
  await writeFile(path.join(dir, 'tests', 'finance.yml'), 'prompt: Finance?\nsql: SELECT 2\n');
  await writeFile(path.join(dir, 'tests', 'finance', 'aov.yml'), 'prompt: AOV?\nsql: SELECT 3\n');
  config = await loadConfig({ projectDir: dir, env: {} });
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('readRunTests', () => {
  it('reads the named tests as they are on disk now, by exact name, in the order asked', async () => {
    const tests = await readRunTests({ config, names: ['finance', 'total', 'finance'] });
    expect(tests.map((test) => [test.name, test.relativePath, test.sql])).toEqual([
      ['finance', 'finance.yml', 'SELECT 2'],
      ['total', 'total.yml', 'SELECT 1'],
    ]);
    await writeFile(path.join(dir, 'tests', 'total.yml'), 'prompt: Total?\nsql: SELECT 10\n');
    expect((await readRunTests({ config, names: ['total'] }))[0]!.sql).toBe('SELECT 10');
  });

  it('refuses a test that is gone, and a suite with an invalid file', async () => {
    await expect(readRunTests({ config, names: ['total', 'renamed'] })).rejects.toThrow(
      expect.objectContaining({
        code: 'TEST_NOT_FOUND',
        message: expect.stringContaining('No test named renamed'),
      }),
    );
    const broken = path.join(dir, 'tests', 'broken.yml');
    await writeFile(broken, 'prompt: [unclosed\n');
    try {
      await expect(readRunTests({ config, names: ['total'] })).rejects.toThrow(
        expect.objectContaining({
          code: 'INVALID_TEST_FILES',
          message: expect.stringContaining('broken.yml'),
        }),
      );
    } finally {
      await rm(broken);
    }
  });
});

describe('equivalentCommand', () => {
  it.each([
    [{ tests: ['a', 'b'], models: ['openai:gpt-4.1'], local: false }, 'nao test -s a,b -m openai:gpt-4.1'],
    [
      { tests: ['a'], models: ['openai:gpt-4.1', 'openaiCompatible/my proxy:m'], local: true },
      "nao test --local -s a -m openai:gpt-4.1 -m 'openaiCompatible/my proxy:m'",
    ],
    [
      { tests: ['a'], models: ['mock:reference'], local: true, replay: true },
      'nao test --replay -s a -m mock:reference',
    ],
  ])('%j → %s', (options, expected) => {
    expect(equivalentCommand(options)).toBe(expected);
  });
});
