import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnBuiltNao } from '../../test-support/cli/built-nao.js';
import { copyExampleProject, type ExampleCopy, REPO_ROOT } from '../../test-support/cli/example-project.js';
import { latestResults as latestProjectResults } from '../../test-support/cli/run-cli.js';
import { startTestLlmServer, type TestLlmServer } from '../../test-support/llm-server/index.js';
import { type ScriptedAnswer, scriptedAnalyst } from '../../test-support/llm-server/scripted-analyst.js';
import type { ResultsFile } from '../results/index.js';

let answers: Record<string, ScriptedAnswer> = {};
let server: TestLlmServer;
let project: ExampleCopy;

beforeAll(async () => {
  if (!existsSync(path.join(REPO_ROOT, 'dist', 'cli', 'main.js'))) {
    throw new Error(
      'dist/ is missing: these tests run the built `nao` binary; run `npm run build` (npm test does).',
    );
  }
  server = await startTestLlmServer({ script: (request) => scriptedAnalyst({ answers })(request) });
  project = await copyExampleProject({ baseUrl: server.url });
});
afterAll(async () => {
  await project?.cleanup();
  await server?.close();
});

interface Spawned {
  code: Promise<number | null>;
  output(): { stdout: string; stderr: string };
  kill(signal: NodeJS.Signals): void;
}

function spawnNao(args: string[]): Spawned {
  const nao = spawnBuiltNao({ args, cwd: project.dir });
  return {
    code: nao.ended.then((ended) => ended.code),
    output: nao.output,
    kill: (signal) => nao.child.kill(signal),
  };
}

function latestResults(): Promise<ResultsFile> {
  return latestProjectResults(project.dir);
}

describe('the nao binary', () => {
  it('runs the example suite with --local and prints one plain line per run when piped', async () => {
    answers = Object.fromEntries(project.tests.map((test) => [test.prompt, { sql: test.sql }]));
    const run = spawnNao(['test', '--local', '-t', '4']);
    expect(await run.code).toBe(0);
    const { stdout } = run.output();
    expect(stdout.match(/^\[\s*\d+\/10\] ✓ passed/gm)).toHaveLength(10);
    expect(stdout).not.toContain('\r');
    expect(stdout).toContain('All 10 test(s) passed');
  });

  it('Ctrl-C cancels the runs in flight, saves what finished and exits 130', async () => {
    answers = Object.fromEntries(
      project.tests.map((test) => [
        test.prompt,
        { sql: test.sql, delayMs: test.name === 'customers_ordering_2025' ? 0 : 30_000 },
      ]),
    );
    const run = spawnNao(['test', '--local', '-t', '2']);
    // Wait for the first (fast) run to finish, then interrupt while the slow one hangs.
    for (let i = 0; i < 600 && !run.output().stdout.includes('[ 1/10]'); i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    run.kill('SIGINT');
    expect(await run.code).toBe(130);
    expect(run.output().stderr).toContain('Interrupted');
    const file = await latestResults();
    expect(file.interrupted).toBe(true);
    expect(file.results).toHaveLength(10);
    expect(file.results[0]).toMatchObject({ name: 'customers_ordering_2025', status: 'passed' });
    // The runs in flight are errors (with what they spent), the ones never started skipped.
    const rest = file.results.slice(1).map((result) => `${result.status}: ${result.message}`);
    expect(rest.filter((line) => line === 'error: interrupted').length).toBeGreaterThan(0);
    expect(
      rest.every((line) => line === 'error: interrupted' || line === 'skipped: skipped: interrupted'),
    ).toBe(true);
  });
});
