import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../test-support/cli/example-project.js';

const BIN = path.join(REPO_ROOT, 'bin', 'nao.js');
const LOG_MODULES = path.join(REPO_ROOT, 'test-support', 'cli', 'log-modules.mjs');
const HEAVY = [
  '@duckdb',
  '/node_modules/ai/',
  '@ai-sdk',
  'better-auth',
  'hono',
  'zod',
  '/node_modules/yaml/',
];

/** The packages a `nao …` process loaded (from the built binary). */
function packagesLoaded(args: string[], cwd = REPO_ROOT): { loaded: string[]; status: number | null } {
  const result = spawnSync(process.execPath, ['--import', LOG_MODULES, BIN, ...args], {
    cwd,
    encoding: 'utf8',
    env: { PATH: process.env.PATH },
  });
  const loaded = result.stderr
    .split('\n')
    .filter((line) => line.startsWith('loaded '))
    .map((line) => line.slice('loaded '.length));
  return { loaded, status: result.status };
}

describe('commands load their code only when they run', () => {
  it.each([['--help'], ['test', '--help'], ['test', 'run', '--help'], ['--version']])(
    '`nao %s` imports no engine, SDK or server package',
    (...args) => {
      const { loaded, status } = packagesLoaded(args);
      expect(status).toBe(0);
      expect(loaded.length).toBeGreaterThan(3);
      expect(loaded.filter((url) => HEAVY.some((name) => url.includes(name)))).toEqual([]);
    },
  );

  it('`nao test list` does load what it needs (the hook sees every package)', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'nao-lazy-'));
    try {
      await writeFile(path.join(dir, 'nao_config.yaml'), 'project_name: lazy\n');
      await mkdir(path.join(dir, 'tests'));
      await writeFile(path.join(dir, 'tests', 'one.yml'), 'prompt: How many?\nsql: SELECT 1 AS n\n');
      const { loaded, status } = packagesLoaded(['test', 'list'], dir);
      expect(status).toBe(0);
      expect(loaded.some((url) => url.includes('/node_modules/yaml/'))).toBe(true);
      expect(loaded.some((url) => url.includes('@duckdb'))).toBe(false);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
