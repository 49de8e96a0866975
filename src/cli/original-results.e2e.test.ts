import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runNao } from '../../test-support/cli/run-cli.js';
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
