/**
 * The viewer's statistics in real Chromium (#33, #34 item 4): the history chart's error bars
 * span each point's 95% interval on screen, a run's models are compared with a verdict, the
 * compare view gives `nao test diff`'s verdicts, and every number nao recounted from an
 * original nao file is marked with what the file says.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, missingChromium } from '../../test-support/chromium.js';
import { REPO_ROOT } from '../../test-support/cli/example-project.js';
import { skipWhenMissing } from '../../test-support/local-servers.js';
import {
  ORIGINAL_ONE_MODEL,
  ORIGINAL_SECOND_MODEL,
  originalTwoModels,
  readOriginal,
} from '../../test-support/viewer/original-fixtures.js';
import { ensureViewerAssets } from '../../test-support/viewer/viewer-assets.js';
import { CLAUDE, fixtureRun, GPT } from '../../test-support/viewer/viewer-fixtures.js';
import { formatPointsWithInterval } from '../number-format/format-values.js';
import { buildResultsFile, compareModels, type RunStatus } from '../results/index.js';
import { startViewerServer, type ViewerServer } from './viewer-server.js';

const skip = skipWhenMissing({ tests: 'the viewer statistics browser tests', missing: missingChromium() });

const SCREENSHOTS = path.join(REPO_ROOT, 'test-artifacts', 'viewer');
const ORIGINAL_TWO = 'results_20260214_090000.json';
const FORTY_BEFORE = 'results_20260301_100000.json';
const FORTY_AFTER = 'results_20260302_100000.json';

/** Each model passes its first `passes[model]` of `tests` tests. */
function file(options: { passes: Record<string, number>; tests: number; now: Date }) {
  return buildResultsFile({
    results: Object.entries(options.passes).flatMap(([model, passes]) =>
      Array.from({ length: options.tests }, (_, index) => {
        const status: RunStatus = index < passes ? 'passed' : 'failed';
        return fixtureRun({ test: `test_${index}`, model, status });
      }),
    ),
    now: options.now,
    models: Object.keys(options.passes),
  });
}

const fortyAfter = file({ passes: { [GPT]: 38, [CLAUDE]: 26 }, tests: 40, now: new Date(2026, 2, 2, 10) });

let root: string;
let server: ViewerServer;
let browser: Browser;

beforeAll(async () => {
  if (skip) return;
  const assetsDir = await ensureViewerAssets();
  root = await mkdtemp(path.join(tmpdir(), 'nao-viewer-statistics-'));
  const outputsDir = path.join(root, 'tests', 'outputs');
  await mkdir(outputsDir, { recursive: true });
  await mkdir(SCREENSHOTS, { recursive: true });
  const { comparisons: _written, ...withoutComparisons } = fortyAfter;
  const files: Record<string, unknown> = {
    // GPT 3 of 5, Claude 5 of 5; then GPT 0 of 5, Claude 5 of 5.
    'results_20260101_100000.json': file({
      passes: { [GPT]: 3, [CLAUDE]: 5 },
      tests: 5,
      now: new Date(2026, 0, 1, 10),
    }),
    'results_20260102_100000.json': file({
      passes: { [GPT]: 0, [CLAUDE]: 5 },
      tests: 5,
      now: new Date(2026, 0, 2, 10),
    }),
    [ORIGINAL_ONE_MODEL]: await readOriginal(ORIGINAL_ONE_MODEL),
    [ORIGINAL_TWO]: await originalTwoModels('2026-02-14T09:00:00'),
    // 24 of 40 on both; then GPT 38 of 40, Claude 26, saved without comparisons (computed on read).
    [FORTY_BEFORE]: file({ passes: { [GPT]: 24, [CLAUDE]: 24 }, tests: 40, now: new Date(2026, 2, 1, 10) }),
    [FORTY_AFTER]: withoutComparisons,
  };
  for (const [name, content] of Object.entries(files)) {
    await writeFile(path.join(outputsDir, name), JSON.stringify(content));
  }
  server = await startViewerServer({ outputsDir, port: 0, assetsDir });
  browser = await launchChromium();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (root) await rm(root, { recursive: true, force: true });
});

async function openPage(hash: string, width = 1400): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width, height: 1000 } });
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  await page.goto(`${server.url}${hash}`);
  return { page, errors };
}

const fileHash = (name: string) => `#/files/${encodeURIComponent(name)}`;

describe.skipIf(skip)('statistics in the viewer, in Chromium', () => {
  it.each([1280, 1600])(
    "draws each pass-rate point's interval as an error bar over the right pixels at %i px",
    async (width) => {
      const { page, errors } = await openPage('#/history', width);
      try {
        const chart = page.locator('[data-chart="pass-rate"]');
        await chart.locator('.error-bar').first().waitFor();
        const measured = await chart.evaluate((figure, model) => {
          const tickY = (label: string) => {
            const tick = [...figure.querySelectorAll('.tick')].find(
              (element) => element.querySelector('text')?.textContent === label,
            );
            return tick!.querySelector('line')!.getBoundingClientRect().top;
          };
          const series = figure.querySelector(`[data-series="${model}"]`)!;
          const points = [...series.querySelectorAll('circle, .apart-point')].map((point) => {
            const box = point.getBoundingClientRect();
            return box.left + box.width / 2;
          });
          return {
            zero: tickY('0%'),
            hundred: tickY('100%'),
            points,
            bars: [...series.querySelectorAll('.error-bar')].map((bar) => {
              const span = bar.querySelector('.error-bar-span')!.getBoundingClientRect();
              return {
                low: Number(bar.getAttribute('data-low')),
                high: Number(bar.getAttribute('data-high')),
                top: span.top,
                bottom: span.bottom,
                x: span.left + span.width / 2,
                title: bar.querySelector('title')?.textContent ?? '',
              };
            }),
          };
        }, GPT);
        // The SVG scales with the page: read the axis from the screen, never assume it.
        const screenY = (percent: number) =>
          measured.zero - (percent / 100) * (measured.zero - measured.hundred);
        // Every pass-rate point of the model has its bar: two 5-test runs, the two original files and
        // the two 40-test runs.
        expect(measured.bars).toHaveLength(6);
        for (const bar of measured.bars) {
          expect(Math.abs(bar.top - screenY(bar.high)), `top of ${bar.title}`).toBeLessThan(1);
          expect(Math.abs(bar.bottom - screenY(bar.low)), `bottom of ${bar.title}`).toBeLessThan(1);
          // Each bar stands on a point.
          expect(measured.points.some((x) => Math.abs(x - bar.x) < 1)).toBe(true);
        }
        // Known intervals (Wilson, published values): 3/5, 0/5, then 24/40 and 38/40.
        const known: [string, number, number][] = [
          ['01-01', 23.1, 88.2],
          ['01-02', 0, 43.4],
          ['03-01', 44.6, 73.7],
          ['03-02', 83.5, 98.6],
        ];
        for (const [label, low, high] of known) {
          const bar = measured.bars.find((entry) => entry.low === low && entry.high === high);
          expect(bar, `${label}: ${low}–${high}`).toBeDefined();
          expect(bar!.title).toContain(`95% interval ${low.toFixed(1)}–${high.toFixed(1)}%`);
          expect(Math.abs(bar!.top - screenY(high))).toBeLessThan(1);
          expect(Math.abs(bar!.bottom - screenY(low))).toBeLessThan(1);
        }
        if (width === 1280) {
          await page.screenshot({ path: path.join(SCREENSHOTS, 'history-error-bars.png'), fullPage: true });
        }
        expect(errors).toEqual([]);
      } finally {
        await page.close();
      }
    },
  );

  it('marks the history points and numbers nao recounted from original files, with what each file says', async () => {
    const { page, errors } = await openPage('#/history');
    try {
      const series = page.locator(`[data-chart="pass-rate"] [data-series="${GPT}"]`);
      await series.locator('.recount-mark').first().waitFor();
      // Only the two original files' points are marked; ours (unverified runs or not) never are.
      expect(
        await series
          .locator('circle[data-recounted="true"]')
          .evaluateAll((circles) =>
            circles.map((circle) => circle.querySelector('title')?.textContent ?? ''),
          ),
      ).toEqual([
        expect.stringContaining('50% (95% interval: 18.8–81.2%) — * file says 66.7%, nao counts 50.0%'),
        expect.stringContaining('50% (95% interval: 18.8–81.2%) — * file says 66.7%, nao counts 50.0%'),
      ]);
      expect(await series.locator('.recount-mark title').allTextContents()).toEqual([
        'file says 66.7%, nao counts 50.0%',
        'file says 66.7%, nao counts 50.0%',
      ]);
      const claude = page.locator(`[data-chart="pass-rate"] [data-series="${ORIGINAL_SECOND_MODEL}"]`);
      expect(await claude.locator('.recount-mark title').allTextContents()).toEqual([
        'file says 83.3%, nao counts 66.7%',
      ]);
      const cell = page.locator(`[data-file="${ORIGINAL_TWO}"] td[data-model="${GPT}"] .recounted-rate`);
      expect(await cell.textContent()).toBe('50.0%*');
      expect(await cell.getAttribute('title')).toBe('file says 66.7%, nao counts 50.0%');
      const overall = page.locator(`[data-file="${ORIGINAL_TWO}"] .recounted-rate`).first();
      expect(await overall.getAttribute('title')).toBe('file says 75.0%, nao counts 58.3%');
      expect(await page.locator(`[data-file="${FORTY_AFTER}"] .recounted-rate`).count()).toBe(0);
      expect(await page.locator('[data-testid="recount-note"]').textContent()).toContain('original nao');
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it("compares a run's models with a verdict, computed on read for a file saved without comparisons", async () => {
    const { page, errors } = await openPage(fileHash(FORTY_AFTER));
    try {
      const row = page.locator(`[data-comparison="${GPT} vs ${CLAUDE}"]`);
      await row.waitFor();
      const [expected] = compareModels({ results: fortyAfter.results, byModel: fortyAfter.by_model });
      expect(expected).toMatchObject({ difference: 30, verdict: 'significant', tests: 40 });
      expect(await row.locator('[data-difference]').textContent()).toBe(
        formatPointsWithInterval(expected!.difference, expected!.difference_ci95),
      );
      expect(await row.locator('[data-verdict]').textContent()).toBe('significant');
      await page.screenshot({ path: path.join(SCREENSHOTS, 'model-comparisons.png'), fullPage: true });
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it("marks an original file's per-model rates with what the file says, and too few tests for a verdict", async () => {
    const { page, errors } = await openPage(fileHash(ORIGINAL_TWO));
    try {
      await page.locator('.model-row').first().waitFor();
      for (const [model, rate, says] of [
        [GPT, '50.0%', '66.7%'],
        [ORIGINAL_SECOND_MODEL, '66.7%', '83.3%'],
      ] as const) {
        const row = page.locator(`.model-row[data-model="${model}"]`);
        expect(await row.locator('.rate-text').textContent()).toBe(`${rate}*`);
        expect(await row.locator('.rate-cell').getAttribute('title')).toContain(
          `* file says ${says}, nao counts ${rate}`,
        );
      }
      expect(await page.locator('[data-testid="model-recount-note"]').textContent()).toContain(
        `${GPT}: file says 66.7%, nao counts 50.0%`,
      );
      const comparison = page.locator(`[data-comparison="${ORIGINAL_SECOND_MODEL} vs ${GPT}"]`);
      expect(await comparison.locator('[data-verdict]').textContent()).toBe('fewer than 10 shared tests (6)');
      await page.screenshot({ path: path.join(SCREENSHOTS, 'original-model-rows.png'), fullPage: true });
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('shows per model the change, interval and verdict of nao test diff in the compare view', async () => {
    const query = new URLSearchParams({ before: FORTY_BEFORE, after: FORTY_AFTER });
    const { page, errors } = await openPage(`#/compare?${query}`);
    try {
      const rates = page.locator('[data-testid="model-rates"]');
      await rates.locator('[data-verdict]').first().waitFor();
      const row = (model: string) => rates.locator(`tr[data-model="${model}"]`);
      expect(await row(GPT).locator('[data-verdict]').textContent()).toBe('significant');
      expect(await row(GPT).locator('[data-difference]').textContent()).toMatch(
        /^\+35\.0 points \(95% CI \+\d+\.\d to \+\d+\.\d\) on 40 shared tests$/,
      );
      expect(await row(CLAUDE).locator('[data-verdict]').textContent()).toBe('within noise');
      await page.screenshot({ path: path.join(SCREENSHOTS, 'compare-verdicts.png'), fullPage: true });

      const original = new URLSearchParams({ before: ORIGINAL_TWO, after: ORIGINAL_ONE_MODEL });
      await page.goto(`${server.url}#/compare?${original}`);
      await rates.locator('.recounted-rate').first().waitFor();
      expect(await row(GPT).locator('[data-side="before"]').textContent()).toBe('50.0%*');
      expect(await row(GPT).locator('[data-side="after"] .recounted-rate').getAttribute('title')).toBe(
        'file says 66.7%, nao counts 50.0%',
      );
      expect(await row(GPT).locator('[data-verdict]').textContent()).toBe('fewer than 10 shared tests (6)');
      expect(await page.locator('[data-testid="compare-recount-note"]').textContent()).toContain(
        `${ORIGINAL_SECOND_MODEL} (before): file says 83.3%, nao counts 66.7%`,
      );
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
