import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runNao } from '../../test-support/cli/run-cli.js';

const made: string[] = [];
afterEach(async () => {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function project(config: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'nao-main-'));
  made.push(dir);
  await writeFile(path.join(dir, 'nao_config.yaml'), config);
  return dir;
}

describe('main: exit codes of a config that cannot be used', () => {
  it('exits 2, like every config error, when a value the run needs comes from an environment variable that is not set', async () => {
    const dir = await project(
      [
        'llm:',
        '  providers:',
        '    - provider: openai',
        '      api_key: "{{ env(\'NAO_TEST_UNSET_API_KEY\') }}"',
        '',
      ].join('\n'),
    );
    await mkdir(path.join(dir, 'tests'));
    await writeFile(path.join(dir, 'tests', 'q.yml'), 'prompt: How many orders?\n');
    const { code, stderr } = await runNao({
      args: ['test', '--local', '-m', 'openai:gpt-4.1'],
      cwd: dir,
      env: {},
    });
    expect(stderr).toContain('NAO_TEST_UNSET_API_KEY');
    expect(code).toBe(2);
  });
});

describe('main: hostile test files', () => {
  it('validates a 6 MB one-line file and a link to a file outside tests/ in a few lines, printing neither', async () => {
    const dir = await project('databases: []\n');
    await mkdir(path.join(dir, 'tests'));
    await writeFile(path.join(dir, 'tests', 'huge.yml'), `${'B'.repeat(6_000_000)}\n`);
    await writeFile(path.join(dir, 'passwd'), 'root:x:0:0:root:/root:/bin/bash\n');
    await symlink(path.join(dir, 'passwd'), path.join(dir, 'tests', 'x.yml'));
    const { code, stdout, stderr } = await runNao({ args: ['test', 'validate'], cwd: dir, env: {} });
    expect(code).toBe(2);
    expect(stdout + stderr).toContain('x.yml: is a symbolic link out of tests/');
    expect(stdout + stderr).toContain('huge.yml');
    expect(stdout + stderr).not.toContain('root:x');
    expect((stdout + stderr).length).toBeLessThan(2000);
  });
});
