import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runNao } from '../../test-support/cli/run-cli.js';
import { originalTwoModelFile } from '../../test-support/original-nao/two-model-results.js';
import type { FileOverview } from '../viewer/api-types.js';
import { createResultsStore } from '../viewer/results-store.js';
import { createViewerApp } from '../viewer/viewer-app.js';

/** A project whose tests/outputs/ holds files the original nao wrote (test-support/original-nao/results). */
const ORIGINAL = path.resolve(import.meta.dirname, '../../test-support/original-nao/results');
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'nao-original-results-'));
  await writeFile(path.join(dir, 'nao_config.yaml'), 'project_name: example\nllm: null\n');
  await mkdir(path.join(dir, 'tests'), { recursive: true });
  await cp(ORIGINAL, path.join(dir, 'tests', 'outputs'), { recursive: true });
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("nao test summary / diff / server on the original nao's results files", () => {
  it('summary prints a file with a numeric test name, and says why its pass rate differs', async () => {
    const { code, stdout, stderr } = await runNao({
      args: ['test', 'summary', 'tests/outputs/results_20260212_100411.json'],
      cwd: dir,
    });
    expect(code).toBe(0);
    expect(stdout).toContain('2024');
    expect(stderr).toContain('Note: This file counts 4 of 6 runs as passed; nao counts 3');
  });

  it('summary marks the per-model numbers it recounts in a file of two models, and gives comparisons in --json', async () => {
    await writeFile(path.join(dir, 'two_models.json'), JSON.stringify(originalTwoModelFile()));
    const plain = await runNao({ args: ['test', 'summary', 'two_models.json'], cwd: dir });
    expect(plain.code).toBe(0);
    const rows = plain.stdout.split('\n').filter((row) => row.startsWith('│') && row.includes('%'));
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row).toMatch(/50\.0%\*.* 3\/6\* /);
    expect(plain.stdout.split('\n').filter((row) => row.startsWith('* recounted by nao'))).toEqual([
      expect.stringContaining(
        'the file says 5/6 passed (83.3%) for anthropic:claude-sonnet-4-5, nao 3/6; 4/6 passed (66.7%) for openai:gpt-4.1, nao 3/6',
      ),
    ]);
    expect(plain.stdout).toContain(
      'anthropic:claude-sonnet-4-5 vs openai:gpt-4.1: 6 shared tests, too few to tell',
    );
    const json = await runNao({ args: ['test', 'summary', 'two_models.json', '--json'], cwd: dir });
    const parsed = JSON.parse(json.stdout);
    expect(parsed.comparisons).toMatchObject([
      { model_b: 'openai:gpt-4.1', tests: 6, verdict: 'too few tests' },
    ]);
    expect(parsed.by_model.map((model: { pass_rate_ci95: number[] }) => model.pass_rate_ci95)).toEqual([
      [18.8, 81.2],
      [18.8, 81.2],
    ]);
    expect(json.stderr).toContain('Note: This file counts 9 of 12 runs as passed; nao counts 6');
  });

  it('diff compares two of them', async () => {
    const { code, stdout } = await runNao({
      args: [
        'test',
        'diff',
        'tests/outputs/results_20260212_100411.json',
        'tests/outputs/results_20260217_001248.json',
        '--no-fail',
      ],
      cwd: dir,
    });
    expect(code).toBe(0);
    expect(stdout).toContain('total_revenue');
  });

  it('the viewer serves them, with the notice where the numbers differ', async () => {
    const app = createViewerApp({
      store: createResultsStore({ outputsDir: path.join(dir, 'tests', 'outputs') }),
      assetsDir: dir,
      allowedHosts: null,
    });
    const response = await app.request('/api/files/results_20260212_100411.json/overview');
    expect(response.status).toBe(200);
    const overview = (await response.json()) as FileOverview;
    expect(overview.tests).toContain('2024');
    expect(overview.recounted).toContain('counts 4 of 6 runs as passed');
    const verified = (await (
      await app.request('/api/files/results_20260217_001248.json/overview')
    ).json()) as FileOverview;
    expect(verified.recounted).toBeNull();
  });
});
