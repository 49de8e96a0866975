import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/index.js';
import { scaffoldProject } from './index.js';

describe('scaffoldProject', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'nao-init-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('creates a config that loads, RULES.md and one sample test in a new folder', async () => {
    const folder = path.join(dir, 'new-project');
    const report = await scaffoldProject({ folder });
    expect(report.created.sort()).toEqual([
      '.gitignore',
      'RULES.md',
      'nao_config.yaml',
      'tests/row_count.yml',
    ]);
    expect(report.kept).toEqual([]);
    const config = await loadConfig({ projectDir: folder, env: {} });
    // An empty in-memory DuckDB until the user sets `path`, so the sample test runs as scaffolded.
    expect(config.databases).toEqual([{ name: 'warehouse', type: 'duckdb', path: ':memory:' }]);
    expect(config.warnings).toEqual([]);
    expect(await readFile(path.join(folder, '.gitignore'), 'utf8')).toContain('.nao/');
  });

  it('never overwrites an existing file', async () => {
    await writeFile(path.join(dir, 'RULES.md'), 'my rules');
    const before = await stat(path.join(dir, 'RULES.md'));
    const report = await scaffoldProject({ folder: dir });
    expect(report.kept).toEqual(['RULES.md']);
    expect(await readFile(path.join(dir, 'RULES.md'), 'utf8')).toBe('my rules');
    expect((await stat(path.join(dir, 'RULES.md'))).mtimeMs).toBe(before.mtimeMs);
    const again = await scaffoldProject({ folder: dir });
    expect(again.created).toEqual([]);
  });
});
