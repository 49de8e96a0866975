/**
 * nao installed without its optional warehouse drivers, as npm leaves it when one cannot be
 * built or fetched (or with `--omit=optional`): a copy of bin/, dist/ and package.json whose
 * node_modules links every installed package but the drivers. A DuckDB project runs as usual;
 * a project on an engine whose driver is missing fails only its runs, naming the package.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyExampleProject, type ExampleCopy, REPO_ROOT } from '../../test-support/cli/example-project.js';
import { latestResults } from '../../test-support/cli/run-cli.js';
import { startTestLlmServer, type TestLlmServer } from '../../test-support/llm-server/index.js';
import { type ScriptedAnswer, scriptedAnalyst } from '../../test-support/llm-server/scripted-analyst.js';

/** The optional dependencies of package.json: the drivers of the server warehouses. */
async function optionalDrivers(): Promise<string[]> {
  const manifest = JSON.parse(await readFile(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
    optionalDependencies: Record<string, string>;
  };
  return Object.keys(manifest.optionalDependencies);
}

/** node_modules of `dir`: a link to each package installed in the repository but `left`. */
async function linkPackages(dir: string, left: readonly string[]): Promise<void> {
  const source = path.join(REPO_ROOT, 'node_modules');
  await mkdir(path.join(dir, 'node_modules'));
  for (const entry of await readdir(source)) {
    if (entry.startsWith('.')) continue;
    if (!entry.startsWith('@')) {
      if (!left.includes(entry))
        await symlink(path.join(source, entry), path.join(dir, 'node_modules', entry));
      continue;
    }
    await mkdir(path.join(dir, 'node_modules', entry));
    for (const name of await readdir(path.join(source, entry))) {
      const id = `${entry}/${name}`;
      if (!left.includes(id)) await symlink(path.join(source, id), path.join(dir, 'node_modules', id));
    }
  }
}

function runInstalledNao(options: { bin: string; cwd: string; args: string[] }) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [options.bin, ...options.args], {
      cwd: options.cwd,
      env: { PATH: process.env.PATH, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

let install: string;
let bin: string;
let drivers: string[];
let answers: Record<string, ScriptedAnswer> = {};
let server: TestLlmServer;
let example: ExampleCopy;

beforeAll(async () => {
  if (!existsSync(path.join(REPO_ROOT, 'dist', 'cli', 'main.js'))) {
    throw new Error(
      'dist/ is missing: these tests run the built `nao`; run `npm run build` (npm test does).',
    );
  }
  drivers = await optionalDrivers();
  install = await mkdtemp(path.join(tmpdir(), 'nao-no-drivers-'));
  for (const part of ['bin', 'dist', 'package.json']) {
    await cp(path.join(REPO_ROOT, part), path.join(install, part), { recursive: true });
  }
  await linkPackages(install, drivers);
  bin = path.join(install, 'bin', 'nao.js');
  server = await startTestLlmServer({ script: (request) => scriptedAnalyst({ answers })(request) });
  example = await copyExampleProject({ baseUrl: server.url });
});

afterAll(async () => {
  await example?.cleanup();
  await server?.close();
  await rm(install, { recursive: true, force: true });
});

describe('nao installed without its optional warehouse drivers', () => {
  it('has none of them to load', () => {
    expect(drivers).toEqual(expect.arrayContaining(['snowflake-sdk', '@google-cloud/bigquery', 'tedious']));
    for (const driver of drivers) expect(existsSync(path.join(install, 'node_modules', driver))).toBe(false);
  });

  it('runs the DuckDB example as usual', async () => {
    answers = Object.fromEntries(example.tests.map((test) => [test.prompt, { sql: test.sql }]));
    const { code, stderr } = await runInstalledNao({
      bin,
      cwd: example.dir,
      args: ['test', '--local', '-m', 'openai:gpt-4.1'],
    });
    expect(stderr).not.toMatch(/^Error/m);
    expect(code).toBe(0);
    const results = await latestResults(example.dir);
    expect(results.results.length).toBe(example.tests.length);
    expect(results.results.every((run) => run.status === 'passed')).toBe(true);
  });

  it('fails only the runs of a Snowflake database, naming the package to install', async () => {
    const project = await mkdtemp(path.join(tmpdir(), 'nao-no-driver-project-'));
    try {
      await writeFile(
        path.join(project, 'nao_config.yaml'),
        [
          'databases:',
          '  - name: sales',
          '    type: snowflake',
          '    account_id: xy12345',
          '    username: NAO_READER',
          '    password: hunter2-secret',
          '    database: SALES',
          'llm:',
          '  providers:',
          '    - provider: openai',
          '      api_key: sk-test-e2e-secret',
          `      base_url: ${server.url}`,
          '      models:',
          '        - id: gpt-4.1',
          '',
        ].join('\n'),
      );
      await mkdir(path.join(project, 'tests'));
      await writeFile(
        path.join(project, 'tests', 'orders.yml'),
        'name: orders\nprompt: How many orders?\nsql: SELECT COUNT(*) AS n FROM orders\n',
      );
      const { code, stdout, stderr } = await runInstalledNao({
        bin,
        cwd: project,
        args: ['test', '--local', '-m', 'openai:gpt-4.1'],
      });
      expect(code).toBe(1);
      const [run] = (await latestResults(project)).results;
      expect(run?.status).toBe('error');
      expect(run?.message).toContain('snowflake-sdk is an optional dependency of nao');
      expect(run?.message).toContain('npm install snowflake-sdk');
      expect(`${stdout}${stderr}`).not.toContain('hunter2');
    } finally {
      await rm(project, { recursive: true, force: true });
    }
  });
});
