/**
 * The history chart in real Chromium: complete runs of every test make each model's line;
 * subsets, stopped runs and replayed answers are points set apart; the mock is labelled.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, missingChromium } from '../../test-support/chromium.js';
import { skipWhenMissing } from '../../test-support/local-servers.js';
import { ensureViewerAssets } from '../../test-support/viewer/viewer-assets.js';
import { fixtureRun, GPT } from '../../test-support/viewer/viewer-fixtures.js';
import { buildResultsFile, type RunResult, type RunStatus } from '../results/index.js';
import { startViewerServer, type ViewerServer } from './viewer-server.js';

const skip = skipWhenMissing({ tests: 'the history browser test', missing: missingChromium() });
const MOCK = 'mock:reference';

let root: string;
let server: ViewerServer;
let browser: Browser;
let page: Page;

function runs(model: string, statuses: RunStatus[], mark: Partial<RunResult['details']> = {}): RunResult[] {
  return statuses.map((status, index) => {
    const run = fixtureRun({ test: `test_${index}`, model, status });
    return { ...run, details: { ...run.details, ...mark } };
  });
}

beforeAll(async () => {
  if (skip) return;
  const assetsDir = await ensureViewerAssets();
  root = await mkdtemp(path.join(tmpdir(), 'nao-history-apart-'));
  const outputsDir = path.join(root, 'tests', 'outputs');
  await mkdir(outputsDir, { recursive: true });
  const files: [string, ReturnType<typeof buildResultsFile>][] = [
    [
      'results_20260101_100000.json',
      buildResultsFile({ results: runs(GPT, ['passed', 'failed']), now: new Date(2026, 0, 1, 10) }),
    ],
    [
      'results_20260101_110000.json',
      buildResultsFile({
        results: runs(GPT, ['passed']),
        now: new Date(2026, 0, 1, 11),
        selection: { select: ['test_0'] },
      }),
    ],
    [
      'results_20260101_120000.json',
      buildResultsFile({
        results: runs(GPT, ['failed', 'skipped']),
        now: new Date(2026, 0, 1, 12),
        stoppedBy: 'fail-fast',
      }),
    ],
    [
      'results_20260101_130000.json',
      buildResultsFile({
        results: runs(GPT, ['passed', 'passed'], { replayed: true }),
        now: new Date(2026, 0, 1, 13),
      }),
    ],
    [
      'results_20260101_140000.json',
      buildResultsFile({
        results: [...runs(GPT, ['passed', 'passed']), ...runs(MOCK, ['passed', 'passed'], { mock: true })],
        now: new Date(2026, 0, 1, 14),
      }),
    ],
  ];
  for (const [name, file] of files) await writeFile(path.join(outputsDir, name), JSON.stringify(file));
  server = await startViewerServer({ outputsDir, port: 0, assetsDir });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (root) await rm(root, { recursive: true, force: true });
});

describe.skipIf(skip)('history chart: complete runs on the line, the others apart', () => {
  it('joins the two complete runs and marks the subset, the stopped run and the replayed one', async () => {
    await page.goto(`${server.url}#/history`);
    const chart = page.locator('[data-chart="pass-rate"]');
    await chart.waitFor();
    const series = chart.locator(`[data-series="${GPT}"]`);
    expect(
      await series
        .locator('circle')
        .evaluateAll((circles) => circles.map((circle) => Number(circle.getAttribute('data-value')))),
    ).toEqual([50, 100]);
    // One stroke from the first complete run to the last, over the three set apart.
    const line = await series.locator('path.series-line').getAttribute('d');
    expect(line?.match(/[ML]/g)).toEqual(['M', 'L']);
    expect(
      await series
        .locator('.apart-point')
        .evaluateAll((points) =>
          points.map((point) => [Number(point.getAttribute('data-value')), point.getAttribute('data-apart')]),
        ),
    ).toEqual([
      [100, 'subset (-s test_0)'],
      [0, 'stopped by --fail-fast'],
      [100, 'replayed from recordings'],
    ]);
    expect(await series.locator('.apart-point title').first().textContent()).toContain(
      'not on the line: subset (-s test_0)',
    );
    expect(await page.locator('[data-testid="apart-note"]').textContent()).toContain(
      'complete runs of every test',
    );
    expect(await page.locator(`[data-legend="${MOCK}"]`).textContent()).toContain('mock');
    expect(
      await page.locator('[data-file="results_20260101_120000.json"] [data-partial]').textContent(),
    ).toContain('partial: stopped by --fail-fast');
  });
});
