/**
 * The viewer's layout in real Chromium, measured: badges that fit their cells, history axis
 * labels that never overlap however many files there are, and the Duration card's headline.
 * Each check reads element bounding boxes at the widths people use (1280 and 1600 px).
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, missingChromium } from '../../test-support/chromium.js';
import { REPO_ROOT } from '../../test-support/cli/example-project.js';
import { skipWhenMissing } from '../../test-support/local-servers.js';
import { ensureViewerAssets } from '../../test-support/viewer/viewer-assets.js';
import { CLAUDE, fixtureRun, GPT } from '../../test-support/viewer/viewer-fixtures.js';
import { buildResultsFile, type RunResult, type RunStatus, resultsFileName } from '../results/index.js';
import { secondsText } from './display-format.js';
import { startViewerServer, type ViewerServer } from './viewer-server.js';

const skip = skipWhenMissing({ tests: 'the viewer layout browser tests', missing: missingChromium() });

const SCREENSHOTS = path.join(REPO_ROOT, 'test-artifacts', 'viewer');
const WIDTHS = [1280, 1600] as const;

let root: string;
let assetsDir: string;
let browser: Browser;
const servers: ViewerServer[] = [];

beforeAll(async () => {
  if (skip) return;
  assetsDir = await ensureViewerAssets();
  root = await mkdtemp(path.join(tmpdir(), 'nao-viewer-layout-'));
  await mkdir(SCREENSHOTS, { recursive: true });
  browser = await launchChromium();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all(servers.map((server) => server.close()));
  if (root) await rm(root, { recursive: true, force: true });
});

/** A viewer over its own tests/outputs/ holding `files` (name → content). */
async function serve(folder: string, files: Record<string, unknown>): Promise<ViewerServer> {
  const outputsDir = path.join(root, folder, 'tests', 'outputs');
  await mkdir(outputsDir, { recursive: true });
  for (const [name, content] of Object.entries(files)) {
    await writeFile(path.join(outputsDir, name), JSON.stringify(content));
  }
  const server = await startViewerServer({ outputsDir, port: 0, assetsDir });
  servers.push(server);
  return server;
}

/** A page at `width` px that records script errors, closed by the caller. */
async function openPage(width: number): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  return { page, errors };
}

const fileHash = (name: string) => `#/files/${encodeURIComponent(name)}`;

/** A run the judge model graded (no data compared), as `nao test` writes it. */
function judgedRun(options: { test: string; status: 'passed' | 'failed' }): RunResult {
  const run = fixtureRun({ test: options.test, model: GPT, status: 'unverified' });
  const passed = options.status === 'passed';
  return {
    ...run,
    status: options.status,
    passed,
    message: passed ? 'the answer greets the user' : 'the answer does not greet the user',
    details: {
      ...run.details,
      response_text: 'Hello!',
      expected_answer: 'A friendly greeting',
      judged: true,
    },
  };
}

describe.skipIf(skip)('viewer layout in Chromium', () => {
  it.each(WIDTHS)(
    'shows every status badge whole in the runs table at %i px, judged ones too',
    async (width) => {
      const name = resultsFileName(new Date(2025, 0, 4, 10, 0, 0));
      const statuses: RunStatus[] = ['passed', 'failed', 'error', 'unverified', 'skipped'];
      const server = await serve(`badges-${width}`, {
        [name]: buildResultsFile({
          results: [
            judgedRun({ test: 'say_hello', status: 'passed' }),
            judgedRun({ test: 'say_goodbye', status: 'failed' }),
            ...statuses.map((status) => fixtureRun({ test: 'total_revenue', model: CLAUDE, status })),
          ],
          now: new Date(2025, 0, 4, 10, 0, 0),
          models: [GPT, CLAUDE],
        }),
      });
      const { page, errors } = await openPage(width);
      try {
        await page.goto(`${server.url}${fileHash(name)}`);
        await page.locator('.runs-table [data-judged="true"]').first().waitFor();
        const cells = await page.locator('.run-row .col-status').evaluateAll((elements) =>
          elements.map((cell) => {
            const badge = cell.querySelector('.status');
            const outer = cell.getBoundingClientRect();
            const inner = badge?.getBoundingClientRect();
            const tag = badge?.querySelector('.judged-tag')?.getBoundingClientRect();
            const mark = badge?.querySelector('.status-mark');
            const label = badge?.querySelector('.status-label')?.getBoundingClientRect();
            return {
              text: cell.textContent,
              // A clipped badge shows as content wider than its cell, or a badge edge past the cell's.
              overflows: cell.scrollWidth > cell.clientWidth,
              badgeInside:
                inner !== undefined && inner.left >= outer.left - 0.5 && inner.right <= outer.right + 0.5,
              tagInside: tag === undefined || tag.right <= outer.right + 0.5,
              // The two-character mark of a judged run ("✓*") must not run into its label.
              markClear:
                mark !== null &&
                mark !== undefined &&
                label !== undefined &&
                mark.scrollWidth <= mark.clientWidth + 0.5 &&
                mark.getBoundingClientRect().right <= label.left + 0.5,
            };
          }),
        );
        expect(cells.map((cell) => cell.text)).toEqual([
          '✓*passedjudged',
          '✗*failedjudged',
          '✓passed',
          '✗failed',
          '!error',
          '?unverified',
          '–skipped',
        ]);
        for (const cell of cells) {
          expect(cell, `${cell.text} at ${width} px`).toMatchObject({
            overflows: false,
            badgeInside: true,
            tagInside: true,
            markClear: true,
          });
        }
        await page.screenshot({ path: path.join(SCREENSHOTS, `layout-badges-${width}.png`) });
        expect(errors).toEqual([]);
      } finally {
        await page.close();
      }
    },
  );
});

/** `count` results files a day apart, each with a run of two models. */
function historyFiles(count: number): Record<string, unknown> {
  const files: Record<string, unknown> = {};
  for (let index = 0; index < count; index++) {
    const now = new Date(2025, 0, 1 + index, 9 + (index % 9), 30, 0);
    files[resultsFileName(now)] = buildResultsFile({
      results: [
        fixtureRun({ test: 'total_revenue', model: GPT, status: index % 3 === 0 ? 'failed' : 'passed' }),
        fixtureRun({ test: 'total_revenue', model: CLAUDE, status: 'passed' }),
      ],
      now,
      models: [GPT, CLAUDE],
    });
  }
  return files;
}

const historyServers = new Map<number, Promise<ViewerServer>>();

describe.skipIf(skip)('history chart axis in Chromium', () => {
  it.each([5, 12, 50, 200].flatMap((count) => WIDTHS.map((width) => [count, width] as const)))(
    '%i results files at %i px: the x labels never overlap, first and last shown',
    async (count, width) => {
      let server = historyServers.get(count);
      if (server === undefined) {
        server = serve(`history-${count}`, historyFiles(count));
        historyServers.set(count, server);
      }
      const { page, errors } = await openPage(width);
      try {
        await page.goto(`${(await server).url}#/history`);
        for (const chart of ['pass-rate', 'cost']) {
          await page.locator(`[data-chart="${chart}"] .x-label`).first().waitFor();
          const labels = await page.locator(`[data-chart="${chart}"] .x-label`).evaluateAll((elements) =>
            elements.map((element) => {
              const box = element.getBoundingClientRect();
              return { text: element.textContent ?? '', left: box.left, right: box.right };
            }),
          );
          expect(labels.length, `${chart}: labels drawn`).toBeGreaterThanOrEqual(Math.min(count, 2));
          expect(labels[0]?.text).toBe('01-01 09:30');
          const last = new Date(2025, 0, count, 9 + ((count - 1) % 9), 30, 0);
          const pad = (value: number) => String(value).padStart(2, '0');
          expect(labels.at(-1)?.text).toBe(
            `${pad(last.getMonth() + 1)}-${pad(last.getDate())} ${pad(last.getHours())}:30`,
          );
          for (let index = 1; index < labels.length; index++) {
            const [before, after] = [labels[index - 1]!, labels[index]!];
            // At least a few pixels apart on screen, whatever the chart's scale.
            expect(
              after.left - before.right,
              `${chart}: "${before.text}" then "${after.text}"`,
            ).toBeGreaterThan(2);
          }
        }
        if (width === 1280) {
          await page.screenshot({
            path: path.join(SCREENSHOTS, `layout-history-${count}.png`),
            fullPage: true,
          });
        }
        expect(errors).toEqual([]);
      } finally {
        await page.close();
      }
    },
  );
});

describe.skipIf(skip)('the Duration card in Chromium', () => {
  /** The Duration card's label, value and detail, and whether its label keeps to one line like its neighbour's. */
  async function durationCard(page: Page) {
    await page.locator('[data-card="duration"] .card-value').waitFor();
    return page.locator('.cards').evaluate((cards) => {
      const card = cards.querySelector('[data-card="duration"]');
      const neighbour = cards.querySelector('[data-card="tokens"] .card-label');
      const label = card?.querySelector('.card-label');
      return {
        label: label?.textContent ?? '',
        value: card?.querySelector('.card-value')?.textContent ?? '',
        detail: card?.querySelector('.card-detail')?.textContent ?? '',
        oneLine: label?.getBoundingClientRect().height === neighbour?.getBoundingClientRect().height,
      };
    });
  }

  it.each(WIDTHS)(
    'headlines the wall clock from start to finish at %i px, the summed time below it',
    async (width) => {
      const now = new Date(2025, 0, 5, 10, 0, 0);
      const name = resultsFileName(now);
      // Ten runs of 1.5 s (15 s added up) that ran side by side in 6.2 s.
      const statuses: RunStatus[] = ['passed', 'failed', 'passed', 'error', 'passed'];
      const server = await serve(`duration-${width}`, {
        [name]: buildResultsFile({
          results: [GPT, CLAUDE].flatMap((model) =>
            statuses.map((status, index) => fixtureRun({ test: `test_${index}`, model, status })),
          ),
          now,
          startedAt: new Date(2025, 0, 5, 9, 59, 53, 800),
          models: [GPT, CLAUDE],
        }),
      });
      const { page, errors } = await openPage(width);
      try {
        await page.goto(`${server.url}${fileHash(name)}`);
        expect(await durationCard(page)).toEqual({
          label: 'Wall clock',
          value: secondsText(6200),
          detail: `${secondsText(15_000)} summed run time · avg ${secondsText(1500)} per run`,
          oneLine: true,
        });
        await page.screenshot({ path: path.join(SCREENSHOTS, `layout-duration-${width}.png`) });
        // One model's runs interleave with the other's: no wall clock of their own, so the sum, named so.
        await page.locator(`.model-row[data-model="${GPT}"]`).click();
        await page.locator('[data-testid="model-banner"]').waitFor();
        expect(await durationCard(page)).toEqual({
          label: 'Run time (sum)',
          value: secondsText(7500),
          detail: `runs added up; the whole file took ${secondsText(6200)} · avg ${secondsText(1500)} per run`,
          oneLine: true,
        });
        expect(errors).toEqual([]);
      } finally {
        await page.close();
      }
    },
  );

  it("shows a file without start and finish times (the original nao's) by its summed run time, said so", async () => {
    const name = 'results_20260212_100411.json';
    const original = JSON.parse(
      await readFile(path.join(REPO_ROOT, 'test-support', 'original-nao', 'results', name), 'utf8'),
    ) as { started_at?: string; summary: { total_duration_ms: number; avg_duration_ms: number } };
    expect(original.started_at).toBeUndefined();
    const server = await serve('duration-original', { [name]: original });
    const { page, errors } = await openPage(1280);
    try {
      await page.goto(`${server.url}${fileHash(name)}`);
      expect(await durationCard(page)).toEqual({
        label: 'Run time (sum)',
        value: secondsText(original.summary.total_duration_ms),
        detail: `runs added up; the file records no start and finish times · avg ${secondsText(original.summary.avg_duration_ms)} per run`,
        oneLine: true,
      });
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });
});

describe.skipIf(skip)('the by-model pass-rate bars', () => {
  it.each(WIDTHS)(
    'carry the 95%% interval as an error bar where the file puts it, at %i px',
    async (width) => {
      const now = new Date(2025, 0, 6, 10, 0, 0);
      const name = resultsFileName(now);
      const tests = ['a', 'b', 'c', 'd', 'e'];
      // 3 of 5 for one model (a wide interval), 5 of 5 for the other (still not a point at 100%).
      const file = buildResultsFile({
        results: [
          ...tests.map((test, i) => fixtureRun({ test, model: GPT, status: i < 3 ? 'passed' : 'failed' })),
          ...tests.map((test) => fixtureRun({ test, model: CLAUDE, status: 'passed' })),
        ],
        now,
        models: [GPT, CLAUDE],
      });
      const server = await serve(`error-bars-${width}`, { [name]: file });
      const { page, errors } = await openPage(width);
      try {
        await page.goto(`${server.url}${fileHash(name)}`);
        await page.locator('.model-row .rate-ci-bar').first().waitFor();
        for (const model of file.by_model) {
          const row = page.locator(`.model-row[data-model="${model.model}"]`);
          const [low, high] = model.pass_rate_ci95;
          expect(high - low).toBeGreaterThan(10);
          const boxes = await row.evaluate((element) => {
            const bar = element.querySelector('.rate-bar')!.getBoundingClientRect();
            const ci = element.querySelector('.rate-ci-bar')!.getBoundingClientRect();
            return { bar: { left: bar.left, width: bar.width }, ci: { left: ci.left, width: ci.width } };
          });
          expect(Math.abs(boxes.ci.left - (boxes.bar.left + (low / 100) * boxes.bar.width))).toBeLessThan(1);
          expect(Math.abs(boxes.ci.width - ((high - low) / 100) * boxes.bar.width)).toBeLessThan(1);
          expect(await row.locator('.rate-cell').getAttribute('title')).toBe(
            `95% interval: ${low.toFixed(1)}–${high.toFixed(1)}%`,
          );
        }
        await page.screenshot({ path: path.join(SCREENSHOTS, `error-bars-${width}.png`) });
        expect(errors).toEqual([]);
      } finally {
        await page.close();
      }
    },
  );
});
