import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { latestResults, runNao } from '../../test-support/cli/run-cli.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'nao-init-e2e-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A local port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('nao init, then its next steps as printed', () => {
  it('prints steps that run the sample test with no key and no backend, then a real model', async () => {
    const init = await runNao({ args: ['init', 'shop'], cwd: dir });
    expect(init.code).toBe(0);
    // The commands of the next steps, without their comments, in order.
    const commands = init.stdout
      .split('\n')
      .map((line) => line.replace(/#.*$/, '').trim())
      .filter((line) => line.startsWith('cd ') || line.startsWith('nao '));
    expect(commands).toEqual([
      'cd shop',
      'nao test --local -m mock:reference',
      'nao test --local -m openai:gpt-4.1',
      'nao test server',
    ]);

    const projectDir = path.join(dir, commands[0]!.slice('cd '.length));
    const args = commands[1]!.split(' ').slice(1);
    const run = await runNao({ args, cwd: projectDir });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('All 1 test(s) passed');
    const file = await latestResults(projectDir);
    expect(file.results[0]).toMatchObject({ name: 'row_count', status: 'passed', details: { mock: true } });
  });

  it('says in one line to start nao chat or use --local when `nao test` finds no backend', async () => {
    const projectDir = path.join(dir, 'shop');
    const backend = `http://127.0.0.1:${await closedPort()}`;
    const run = await runNao({
      args: ['test', '-m', 'mock:reference'],
      cwd: projectDir,
      env: { BACKEND_URL: backend },
    });
    expect(run.code).not.toBe(0);
    expect(run.stdout).toBe('');
    const lines = run.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(backend);
    expect(lines[0]).toContain('`nao chat`');
    expect(lines[0]).toContain('--local');
  });
});
