import { readdirSync, statSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runNao } from '../../test-support/cli/run-cli.js';
import { loadConfig } from '../config/index.js';

/** Real projects written for the original nao (see test-support/nao-projects/README.md). */
const ROOT = path.resolve(import.meta.dirname, '../../test-support/nao-projects');
const PROJECTS = readdirSync(ROOT).filter((entry) => statSync(path.join(ROOT, entry)).isDirectory());

async function testFiles(dir: string): Promise<string[]> {
  const entries = await readdir(path.join(dir, 'tests'), { recursive: true }).catch(() => []);
  return entries.filter((entry) => /\.ya?ml$/.test(entry));
}

describe('public nao projects, with no environment variable set', () => {
  it('holds the collected set', () => {
    expect(PROJECTS.length).toBeGreaterThanOrEqual(41);
  });

  it.each(PROJECTS)('%s loads', async (project) => {
    const config = await loadConfig({ projectDir: path.join(ROOT, project), env: {} });
    const names = [...config.databases, ...config.unavailableDatabases].map((database) => database.name);
    // Every configured database is kept, runnable or not: tests may name any of them.
    expect(new Set(names).size).toBe(names.length);
    // Keys the original reads are known; `llm.model` is read by neither.
    for (const warning of config.warnings)
      expect(warning.replace(/unknown key `llm.model`/, '')).not.toMatch(/unknown key/);
  });

  it.each(PROJECTS)('%s: nao test list shows every test file', async (project) => {
    const dir = path.join(ROOT, project);
    const files = await testFiles(dir);
    const { code, stdout, stderr } = await runNao({ args: ['test', 'list'], cwd: dir, env: {} });
    expect(stderr).not.toMatch(/^Error/m);
    expect(code).toBe(0);
    expect(stdout).toContain(`${files.length} test(s)`);
    for (const file of files) expect(stdout).toContain(file);
  });

  it.each(
    PROJECTS.filter((project) => statSync(path.join(ROOT, project, 'tests'), { throwIfNoEntry: false })),
  )('%s: nao test validate finds no problem', async (project) => {
    const { code, stdout } = await runNao({
      args: ['test', 'validate'],
      cwd: path.join(ROOT, project),
      env: {},
    });
    expect(stdout).toContain('are valid');
    expect(code).toBe(0);
  });
});

describe('bad input the original also rejects', () => {
  it('a broken nao_config.yaml or test file is still exit 2, with every problem listed', async () => {
    const { cp, mkdtemp, rm, writeFile } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const dir = await mkdtemp(path.join(tmpdir(), 'nao-broken-'));
    try {
      await cp(path.join(ROOT, 'getnao--nao--example--172c70d'), dir, { recursive: true });
      await writeFile(path.join(dir, 'tests', 'broken.yml'), 'prompt: [unclosed\n');
      await writeFile(path.join(dir, 'tests', 'no_prompt.yml'), 'sql: SELECT 1\n');
      const tests = await runNao({ args: ['test', 'list'], cwd: dir, env: {} });
      expect(tests.code).toBe(2);
      expect(tests.stderr).toContain('broken.yml');
      expect(tests.stderr).toContain('no_prompt.yml');

      await writeFile(
        path.join(dir, 'nao_config.yaml'),
        'databases:\n  - name: a\n    type: duckdb\n  llm: [\n',
      );
      const config = await runNao({ args: ['test', 'list'], cwd: dir, env: {} });
      expect(config.code).toBe(2);
      expect(config.stderr).toMatch(/nao_config\.yaml is invalid:\n {2}- .*line \d+/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
