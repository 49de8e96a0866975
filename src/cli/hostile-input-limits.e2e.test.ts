/**
 * Issue #31, the smaller breaks: validate's count, a huge test file, and a burst of
 * connections to the built servers.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startBackendProcess } from '../../test-support/backend/backend-process.js';
import { copyExampleProject, REPO_ROOT } from '../../test-support/cli/example-project.js';
import { runNao } from '../../test-support/cli/run-cli.js';

const made: string[] = [];
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function project(options: { config: string; tests: Record<string, string> }): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'nao-limits-'));
  made.push(dir);
  await writeFile(path.join(dir, 'nao_config.yaml'), options.config);
  await mkdir(path.join(dir, 'tests'));
  for (const [name, text] of Object.entries(options.tests))
    await writeFile(path.join(dir, 'tests', name), text);
  return dir;
}

const BROKEN_TESTS = {
  'a.yml': 'sql: SELECT 1\n',
  'b.yml': 'prompt: [not, text]\nsql: SELECT 1\n',
  'c.yml': 'prompt: Why?\nsql: SELECT 1\nordered: maybe\n',
  'fine.yml': 'prompt: How many?\nsql: SELECT 1\n',
};

describe('nao test validate counts once, in words', () => {
  it('the problems of the test files: one count line after the list', async () => {
    const dir = await project({ config: 'project_name: p\ndatabases: []\n', tests: BROKEN_TESTS });
    const { code, stdout, stderr } = await runNao({ args: ['test', 'validate'], cwd: dir });
    expect(code).toBe(2);
    expect(stdout).toBe('');
    // fine.yml has a `sql` but no database is configured: a fourth problem, in a fourth file.
    expect(stderr.trimEnd().split('\n').at(-1)).toBe('4 problems in 4 test files.');
    expect(stderr).not.toMatch(/problem\(s\)|\d+ problems? in \d+ test files?:/);
    expect(stderr.match(/\d+ problems?\b/g)).toHaveLength(1);
  });

  it('with nao_config.yaml problems too: one line says how many of each', async () => {
    const dir = await project({
      config: 'project_name: p\ndatabases:\n  - type: nosuchengine\n    name: x\n',
      tests: { 'a.yml': BROKEN_TESTS['a.yml'] },
    });
    const { code, stderr } = await runNao({ args: ['test', 'validate'], cwd: dir });
    expect(code).toBe(2);
    expect(stderr).toContain('Test files:\n  a.yml: ');
    expect(stderr.trimEnd().split('\n').at(-1)).toBe('2 problems: 1 in nao_config.yaml, 1 in 1 test file.');
    expect(stderr.match(/\d+ problems?\b/g)).toHaveLength(1);
  });
});

describe('a test file over 1 MB', () => {
  it('is a problem naming the file and its size, found without parsing it', async () => {
    const dir = await project({ config: 'project_name: p\ndatabases: []\n', tests: {} });
    // 30 MB of one YAML string: today's parser took seconds and gigabytes on it.
    await writeFile(
      path.join(dir, 'tests', 'huge.yml'),
      `prompt: |\n${'  lots of data\n'.repeat(2_000_000)}`,
    );
    await writeFile(path.join(dir, 'tests', 'ok.yml'), 'prompt: How many?\n');
    for (const args of [
      ['test', 'list'],
      ['test', 'validate'],
    ]) {
      const started = performance.now();
      const { code, stdout, stderr } = await runNao({ args, cwd: dir });
      expect(performance.now() - started).toBeLessThan(5_000);
      expect(code, `${args.join(' ')}: ${stdout}${stderr}`).toBeGreaterThan(0);
      expect(stderr).toContain(
        'huge.yml: is 30.0 MB (30,000,010 bytes), over the 1 MB a test file may have; a test holds a prompt and a query, not data',
      );
    }
  });
});

/** Opens `count` connections at once; how many the server accepted, and how many were reset or refused. */
async function burst(port: number, count: number): Promise<{ connected: number; failed: string[] }> {
  const outcomes = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<string | null>((resolve) => {
          const socket = connect({ port, host: '127.0.0.1' });
          socket.once('connect', () => {
            // Held open until every one has connected or failed: the server sees them all at once.
            socket.setTimeout(10_000, () => socket.destroy());
            resolve(null);
          });
          socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
          cleanups.push(async () => socket.destroy());
        }),
    ),
  );
  const failed = outcomes.filter((outcome): outcome is string => outcome !== null);
  return { connected: count - failed.length, failed };
}

/** The accept backlog of the socket listening on `port`, as the kernel reports it (ss's Send-Q). */
function listenBacklog(port: number): number {
  const line = execFileSync('ss', ['-ltnH', `sport = :${port}`], { encoding: 'utf8' }).trim();
  return Number(line.split(/\s+/)[2]);
}

const somaxconn = Number(readFileSync('/proc/sys/net/core/somaxconn', 'utf8'));

describe('the servers take a burst of 1,500 connections', () => {
  it('nao test server (the viewer)', async () => {
    const copy = await copyExampleProject({ baseUrl: 'http://127.0.0.1:1' });
    cleanups.push(copy.cleanup);
    const child: ChildProcess = spawn(
      process.execPath,
      [path.join(REPO_ROOT, 'bin', 'nao.js'), 'test', 'server', '--port', '0', '--no-open'],
      { cwd: copy.dir, env: { PATH: process.env.PATH }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    cleanups.push(async () => {
      child.kill('SIGINT');
      await new Promise((resolve) => child.once('exit', resolve));
    });
    let output = '';
    const port = await new Promise<number>((resolve, reject) => {
      child.stdout!.on('data', (chunk) => {
        output += chunk;
        const match = /nao test server: http:\/\/[^:]+:(\d+)/.exec(output);
        if (match) resolve(Number(match[1]));
      });
      child.once('exit', () => reject(new Error(`nao test server exited:\n${output}`)));
    });
    expect(listenBacklog(port)).toBe(Math.min(4096, somaxconn));
    const { connected, failed } = await burst(port, 1500);
    expect(failed).toEqual([]);
    expect(connected).toBe(1500);
  }, 120_000);

  it('nao chat (the backend)', async () => {
    const copy = await copyExampleProject({ baseUrl: 'http://127.0.0.1:1' });
    cleanups.push(copy.cleanup);
    const server = await startBackendProcess({ cwd: copy.dir });
    cleanups.push(() => server.stop());
    const port = Number(new URL(server.url).port);
    expect(listenBacklog(port)).toBe(Math.min(4096, somaxconn));
    const { failed } = await burst(port, 1500);
    expect(failed).toEqual([]);
  }, 120_000);
});
