/**
 * A kill at the worst moment of a write (issue #31): the built `nao` is loaded with
 * test-support/cli/kill-at-write.mjs, which SIGKILLs it as the file's name is about to exist
 * before its content does. nao must leave no empty results file or test behind.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBackendProcess } from '../../test-support/backend/backend-process.js';
import { spawnBuiltNao } from '../../test-support/cli/built-nao.js';
import { copyExampleProject, type ExampleCopy, REPO_ROOT } from '../../test-support/cli/example-project.js';
import { runNao } from '../../test-support/cli/run-cli.js';
import { startTestLlmServer, type TestLlmServer } from '../../test-support/llm-server/index.js';
import { scriptedAnalyst } from '../../test-support/llm-server/scripted-analyst.js';

const KILL_AT_WRITE = path.join(REPO_ROOT, 'test-support', 'cli', 'kill-at-write.mjs');
const EMAIL = 'kim@example.com';
const PASSWORD = 'pw-atomic-e2e-5150';
let llm: TestLlmServer;
let project: ExampleCopy;

beforeAll(async () => {
  if (!existsSync(path.join(REPO_ROOT, 'dist', 'cli', 'main.js'))) {
    throw new Error('dist/ is missing: these tests run the built `nao` binary; run `npm run build`.');
  }
  project = await copyExampleProject({ baseUrl: 'http://127.0.0.1:1' });
  const answers = Object.fromEntries(project.tests.map((test) => [test.prompt, { sql: test.sql }]));
  llm = await startTestLlmServer({ script: (request) => scriptedAnalyst({ answers })(request) });
  await project.cleanup();
  project = await copyExampleProject({ baseUrl: llm.url });
});
afterAll(async () => {
  await project?.cleanup();
  await llm?.close();
});

/** The environment that makes the built nao kill itself as a file matching `pattern` gets its name. */
function killAt(pattern: string): Record<string, string> {
  return { NODE_OPTIONS: `--import=${KILL_AT_WRITE}`, NAO_KILL_AT_FILE: pattern };
}

async function spawnNao(
  args: string[],
  env: Record<string, string>,
): Promise<{ signal: string | null; output: string }> {
  const { signal, stdout, stderr } = await spawnBuiltNao({ args, cwd: project.dir, env }).ended;
  return { signal, output: `${stdout}${stderr}` };
}

const outputsDir = () => path.join(project.dir, 'tests', 'outputs');

describe('a kill while nao writes a file', () => {
  it('leaves no results_*.json of the killed run; summary and diff read the earlier runs', async () => {
    for (const run of [1, 2]) {
      const done = await runNao({ args: ['test', '--local', '-s', 'total_revenue', '-q'], cwd: project.dir });
      expect(done.code, `run ${run}: ${done.stderr}`).toBe(0);
    }
    const before = (await readdir(outputsDir())).filter((name) => name.startsWith('results_')).sort();
    expect(before).toHaveLength(2);

    const killed = await spawnNao(['test', '--local', '-s', 'total_revenue'], killAt('^results_\\d'));
    expect(killed.signal, killed.output).toBe('SIGKILL');
    const after = await readdir(outputsDir());
    expect(after.filter((name) => name.startsWith('results_')).sort()).toEqual(before);
    // What the kill left is a hidden temporary file, complete, that no reader lists.
    const leftovers = after.filter((name) => /^\.results-\d+-[0-9a-f-]+\.tmp$/.test(name));
    expect(leftovers).toHaveLength(1);
    expect(JSON.parse(await readFile(path.join(outputsDir(), leftovers[0]!), 'utf8')).summary.total).toBe(1);

    const summary = await runNao({ args: ['test', 'summary'], cwd: project.dir });
    expect(summary.code, summary.stderr).toBe(0);
    expect(summary.stdout).toContain(before[1]!);
    const diff = await runNao({ args: ['test', 'diff'], cwd: project.dir });
    expect(diff.code, diff.stderr).toBe(0);
    expect(diff.stdout).toContain('0 regressions');
  }, 120_000);

  it('an empty results file an older nao left is named and skipped, not fatal', async () => {
    const empty = 'results_29991231_235959.json';
    await writeFile(path.join(outputsDir(), empty), '');
    const summary = await runNao({ args: ['test', 'summary'], cwd: project.dir });
    expect(summary.code, summary.stderr).toBe(0);
    expect(summary.stderr).toContain(
      `Note: skipping tests/outputs/${empty}: it is empty (a run was interrupted while writing it); delete it.`,
    );
    const diff = await runNao({ args: ['test', 'diff'], cwd: project.dir });
    expect(diff.code, diff.stderr).toBe(0);
    expect(diff.stderr).toContain(`skipping tests/outputs/${empty}`);
  });

  it('leaves no empty test when nao chat is killed saving one; the name can be saved again', async () => {
    const save = async (url: string, token: string) =>
      fetch(`${url}/api/tests`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({
          name: 'kill_me',
          prompt: 'How many orders are there?',
          sql: 'SELECT COUNT(*) AS n FROM orders',
        }),
      });
    const dying = await startBackendProcess({ cwd: project.dir, env: killAt('^kill_me\\.yml$') });
    const signup = await fetch(`${dying.url}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
    });
    const { token } = (await signup.json()) as { token: string };
    await expect(save(dying.url, token)).rejects.toThrow();
    await dying.stop();
    expect(existsSync(path.join(project.dir, 'tests', 'kill_me.yml'))).toBe(false);

    // The suite still runs, and the name is free.
    const suite = await runNao({ args: ['test', '--local', '-s', 'total_revenue', '-q'], cwd: project.dir });
    expect(suite.code, suite.stderr).toBe(0);
    const server = await startBackendProcess({ cwd: project.dir });
    try {
      const login = await fetch(`${server.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
      });
      const again = await save(server.url, ((await login.json()) as { token: string }).token);
      expect(again.status).toBe(201);
    } finally {
      await server.stop();
    }
    expect(await readFile(path.join(project.dir, 'tests', 'kill_me.yml'), 'utf8')).toContain('name: kill_me');
    const saved = await runNao({ args: ['test', '--local', '-s', 'kill_me', '-q'], cwd: project.dir });
    expect(saved.code, saved.stderr).not.toBe(2);
  }, 120_000);
});

describe('the sandbox folders of a killed nao', () => {
  it('are removed by the next nao when their owner is gone; a live one and an unrelated folder are kept', async () => {
    // A private TMPDIR: the folders of other nao processes on this machine are none of this test's business.
    const temp = await mkdtemp(path.join(tmpdir(), 'nao-tmpdir-'));
    try {
      const exited = spawn(process.execPath, ['-e', '']);
      const deadPid = exited.pid!;
      await new Promise((resolve) => exited.on('exit', resolve));
      const folders = {
        dead: `nao-sandboxes-${deadPid}-aB3dE6`,
        deadExchange: `nao-exchange-${deadPid}-Zz9Yy8`,
        deadTemp: `nao-temp-${deadPid}-Xx7Vv6`,
        live: `nao-temp-${process.pid}-kL3mN4`,
        // No owner in its name: not nao's to judge.
        unowned: 'nao-sandboxes-Qq1Ww2',
        unrelated: `nao-sandboxes-notes-${deadPid}`,
      };
      for (const folder of Object.values(folders)) {
        await mkdir(path.join(temp, folder));
        await writeFile(path.join(temp, folder, 'load_1.duckdb'), 'x');
      }

      const run = await spawnNao(['test', '--local', '-s', 'total_revenue'], { TMPDIR: temp });
      expect(run.signal, run.output).toBeNull();
      expect(run.output).toContain('All 1 test(s) passed');
      expect((await readdir(temp)).sort()).toEqual([folders.live, folders.unowned, folders.unrelated].sort());
    } finally {
      await rm(temp, { recursive: true, force: true });
    }
  }, 120_000);
});
