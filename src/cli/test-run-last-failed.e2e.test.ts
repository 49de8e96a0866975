import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyExampleProject, type ExampleCopy } from '../../test-support/cli/example-project.js';
import { latestResults, runNao } from '../../test-support/cli/run-cli.js';
import {
  type ScriptRequest,
  startTestLlmServer,
  type TestLlmServer,
} from '../../test-support/llm-server/index.js';
import { type ScriptedAnswer, scriptedAnalyst } from '../../test-support/llm-server/scripted-analyst.js';

let server: TestLlmServer;
let project: ExampleCopy;
/** When true, gpt-4.1-mini gets total_revenue wrong and gpt-4.1 errors on orders_by_status. */
let broken = true;

const REVENUE = 'What is the total revenue from all orders?';

function answersFor(request: ScriptRequest): Record<string, ScriptedAnswer> {
  const answers: Record<string, ScriptedAnswer> = Object.fromEntries(
    project.tests.map((test) => [test.prompt, { sql: test.sql }]),
  );
  if (broken && request.model === 'gpt-4.1-mini') {
    answers[REVENUE] = { sql: 'SELECT SUM(amount) AS total_revenue FROM payments' };
  }
  const status = project.tests.find((test) => test.name === 'orders_by_status')!;
  if (broken && request.model === 'gpt-4.1') answers[status.prompt] = { failWithStatus: 400 };
  return answers;
}

beforeAll(async () => {
  server = await startTestLlmServer({
    script: (request) => scriptedAnalyst({ answers: answersFor(request) })(request),
  });
  project = await copyExampleProject({ baseUrl: server.url });
});
afterAll(async () => {
  await project.cleanup();
  await server.close();
});

function nao(args: string[]) {
  return runNao({ args, cwd: project.dir });
}

const outputsDir = () => path.join(project.dir, 'tests', 'outputs');
const outputFiles = async () => (await readdir(outputsDir())).filter((name) => name.endsWith('.json')).sort();
const pairsOf = (file: { results: { name: string; model: string }[] }) =>
  file.results.map((result) => `${result.name} ${result.model}`).sort();

describe('nao test --last-failed', () => {
  it('says there is nothing to take the failures from before any complete run (exit 2)', async () => {
    await rm(outputsDir(), { recursive: true, force: true });
    const { code, stderr } = await nao(['test', '--local', '--last-failed']);
    expect(code).toBe(2);
    expect(stderr).toContain('--last-failed: no complete results file in');
    expect(stderr).toContain('--last-failed <file>');
  });

  it('reruns only the failed and errored (test, model) pairs of the latest complete run, and marks the file', async () => {
    broken = true;
    const full = await nao([
      'test',
      '--local',
      '-m',
      'openai:gpt-4.1',
      '-m',
      'openai:gpt-4.1-mini',
      '-t',
      '4',
    ]);
    expect(full.code).toBe(1);
    const [fullName] = await outputFiles();
    const fullFile = await latestResults(project.dir);
    expect(fullFile.selection).toBeUndefined();
    expect(
      fullFile.results.filter((result) => result.status === 'failed' || result.status === 'error'),
    ).toHaveLength(
      // revenue_q4_2025's reference is what the analyst runs, so only the two broken pairs fail.
      2,
    );

    broken = false;
    const requestsBefore = server.requests.length;
    const rerun = await nao(['test', '--local', '--last-failed']);
    expect(rerun.code).toBe(0);
    expect(rerun.stdout).toContain(`Rerunning the 2 failed (test, model) pair(s) of ${fullName}.`);
    const rerunFile = await latestResults(project.dir);
    expect(pairsOf(rerunFile)).toEqual([
      'orders_by_status openai:gpt-4.1',
      'total_revenue openai:gpt-4.1-mini',
    ]);
    expect(rerunFile.results.every((result) => result.status === 'passed')).toBe(true);
    expect(rerunFile.selection).toEqual({ select: [], last_failed: fullName });
    // Two runs, each an agent call, its answer after the tool, and one extraction.
    expect(server.requests.length - requestsBefore).toBe(6);

    // A rerun is not a complete run: the next --last-failed still reads the full run, narrowed by -m.
    const narrowed = await nao(['test', '--local', '--last-failed', '-m', 'openai:gpt-4.1']);
    expect(narrowed.code).toBe(0);
    expect(pairsOf(await latestResults(project.dir))).toEqual(['orders_by_status openai:gpt-4.1']);
  });

  it('runs nothing and exits 0 when nothing failed; reads a file given by name', async () => {
    broken = false;
    const clean = await nao(['test', '--local', '-m', 'openai:gpt-4.1', '-s', 'total_revenue']);
    expect(clean.code).toBe(0);
    const cleanName = (await outputFiles()).at(-1)!;
    const before = await outputFiles();
    const { code, stdout } = await nao(['test', '--local', '--last-failed']);
    expect(code).toBe(0);
    expect(stdout).toBe(`Nothing failed in ${cleanName}: no run to repeat.\n`);
    expect(await outputFiles()).toEqual(before);

    const oldest = path.join('tests', 'outputs', before[0]!);
    const given = await nao(['test', '--local', '--last-failed', oldest, '-s', 'total_revenue']);
    expect(given.code).toBe(0);
    const file = await latestResults(project.dir);
    expect(pairsOf(file)).toEqual(['total_revenue openai:gpt-4.1-mini']);
    expect(file.selection).toEqual({ select: ['total_revenue'], last_failed: before[0] });

    const missing = await nao(['test', '--local', '--last-failed', 'nowhere.json']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('nowhere.json does not exist');
  });
});
