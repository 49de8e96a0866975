/**
 * The viewer in real Chromium against the real server, over a generated tests/outputs/ with
 * known numbers (see test-support/viewer-fixtures.ts). Screenshots of the main views go to
 * test-artifacts/viewer/.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchChromium, missingChromium } from '../../test-support/chromium.js';
import { REPO_ROOT } from '../../test-support/cli/example-project.js';
import { skipWhenMissing } from '../../test-support/local-servers.js';
import { ensureViewerAssets } from '../../test-support/viewer/viewer-assets.js';
import {
  CLAUDE,
  FILES,
  fixtureRun,
  GPT,
  HOSTILE_TEXT,
  writeViewerFixtures,
} from '../../test-support/viewer/viewer-fixtures.js';
import { buildResultsFile, type RunResult } from '../results/index.js';
import { startViewerServer, type ViewerServer } from './viewer-server.js';

const skip = skipWhenMissing({ tests: 'the viewer browser tests', missing: missingChromium() });

const SCREENSHOTS = path.join(REPO_ROOT, 'test-artifacts', 'viewer');

let root: string;
let server: ViewerServer;
let browser: Browser;
let page: Page;
let problems: string[];

beforeAll(async () => {
  if (skip) return;
  const assetsDir = await ensureViewerAssets();
  root = await mkdtemp(path.join(tmpdir(), 'nao-viewer-browser-'));
  await writeViewerFixtures(path.join(root, 'tests', 'outputs'));
  await mkdir(SCREENSHOTS, { recursive: true });
  server = await startViewerServer({ outputsDir: path.join(root, 'tests', 'outputs'), port: 0, assetsDir });
  browser = await launchChromium();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (root) await rm(root, { recursive: true, force: true });
});

beforeEach(async () => {
  if (!browser) return;
  problems = [];
  page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  // Offline: the page may load nothing but the viewer's own files.
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(server.url) && !url.startsWith('data:')) problems.push(`external request: ${url}`);
  });
});

afterEach(async () => {
  await page?.close();
});

async function open(hash: string): Promise<void> {
  await page.goto(`${server.url}${hash}`);
}

async function text(selector: string): Promise<string> {
  return ((await page.locator(selector).first().textContent()) ?? '').trim();
}

async function texts(selector: string): Promise<string[]> {
  return (await page.locator(selector).allTextContents()).map((entry) => entry.trim());
}

/** The trimmed texts of `cells` inside each element matching `rows`. */
async function rowTexts(rows: string, cells: string): Promise<string[][]> {
  const out: string[][] = [];
  for (const row of await page.locator(rows).all()) {
    out.push((await row.locator(cells).allTextContents()).map((entry) => entry.trim()));
  }
  return out;
}

async function cards(): Promise<Record<string, string>> {
  await page.locator('[data-card="pass-rate"]').waitFor();
  const entries = await page
    .locator('[data-card]')
    .evaluateAll((elements) =>
      elements.map((element) => [
        element.getAttribute('data-card') ?? '',
        element.querySelector('.card-value')?.textContent?.trim() ?? '',
      ]),
    );
  return Object.fromEntries(entries);
}

async function screenshot(name: string): Promise<void> {
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

const ZERO_USAGE = {
  input_total_tokens: 0,
  input_no_cache_tokens: 0,
  input_cache_read_tokens: 0,
  input_cache_write_tokens: 0,
  output_total_tokens: 0,
  output_text_tokens: 0,
  output_reasoning_tokens: 0,
  total_tokens: 0,
};

const fileHash = (name: string) => `#/files/${encodeURIComponent(name)}`;

describe.skipIf(skip)('results viewer in Chromium', () => {
  it('shows the summary cards, the model table, the grid and the runs of a two-model file', async () => {
    await open(fileHash(FILES.multi));
    expect(await cards()).toEqual({
      'pass-rate': '50.0%',
      passed: '5',
      failed: '2',
      errors: '1',
      unverified: '2',
      total: '10',
      models: '2',
      tokens: '10,000',
      cost: '≥$0.05',
      duration: '15.0 s',
      'tool-calls': '14',
      'run-at': '2025-01-02 10:00:00',
    });
    expect(await rowTexts('.model-row', ':scope > span')).toEqual([
      [CLAUDE, '60.0%', '3/5', '4,000', '—', '1.5 s', '1.6'],
      [GPT, '40.0%', '2/5', '6,000', '$0.05', '1.5 s', '1.2'],
    ]);
    const grid: (string | null)[][] = [];
    for (const row of await page.locator('.pass-fail .grid-row').all()) {
      const statuses = await row
        .locator('.grid-cell')
        .evaluateAll((cells) => cells.map((cell) => cell.getAttribute('data-status')));
      grid.push([await row.getAttribute('data-test'), ...statuses]);
    }
    expect(grid).toEqual([
      ['total_revenue', 'passed', 'failed'],
      ['top_customers', 'passed', 'passed'],
      ['orders_by_status', 'error', 'passed'],
      ['say_hello', 'unverified', 'unverified'],
      ['monthly_revenue', 'failed', 'passed'],
    ]);
    expect(await text('[data-testid="runs-count"]')).toBe('10 runs');
    expect(await page.locator('.run-row').count()).toBe(10);
    // Claude has no price: its cost is unknown, never $0.
    expect(await texts(`.run-row:has-text("${CLAUDE}") .col-cost`)).toEqual(['—', '—', '—', '—', '—']);
    await screenshot('dashboard');
    expect(problems).toEqual([]);
  });

  it('filters everything to the model whose row is clicked', async () => {
    await open(fileHash(FILES.multi));
    await page.locator(`.model-row[data-model="${GPT}"]`).click();
    await page.locator('[data-testid="model-banner"]').waitFor();
    await expect.poll(() => text('[data-testid="runs-count"]')).toBe('5 of 10 runs');
    expect(await cards()).toMatchObject({ 'pass-rate': '40.0%', total: '5', tokens: '6,000', cost: '$0.05' });
    expect(await texts('.pass-fail .grid-head > span')).toEqual(['Test', 'openaigpt-4.1']);
    expect(await text('[data-testid="runs-count"]')).toBe('5 of 10 runs');
    expect(new Set(await texts('.run-row .col-model'))).toEqual(new Set([GPT]));
    await screenshot('model-filter');
    await page.locator(`.model-row[data-model="${GPT}"]`).click();
    await page.locator('[data-testid="model-banner"]').waitFor({ state: 'detached' });
    await expect.poll(() => text('[data-testid="runs-count"]')).toBe('10 runs');
    expect(problems).toEqual([]);
  });

  it('searches, filters by status and sorts the runs table', async () => {
    await open(fileHash(FILES.multi));
    await page.locator('.run-row').first().waitFor();
    const count = () => text('[data-testid="runs-count"]');
    await page.locator('[data-testid="run-search"]').fill('REVENUE');
    await expect.poll(count).toBe('4 of 10 runs');
    expect(new Set(await texts('.run-row .col-name'))).toEqual(new Set(['total_revenue', 'monthly_revenue']));
    await page.locator('[data-testid="status-filter"]').selectOption('failed');
    await expect.poll(count).toBe('2 of 10 runs');
    expect(await texts('.run-row .col-name')).toEqual(['monthly_revenue', 'total_revenue']);
    // The filters live in the URL: a reload keeps them.
    await page.reload();
    await expect.poll(count).toBe('2 of 10 runs');
    expect(await page.locator('[data-testid="run-search"]').inputValue()).toBe('REVENUE');

    await page.locator('[data-testid="run-search"]').fill('');
    await page.locator('[data-testid="status-filter"]').selectOption('');
    await expect.poll(count).toBe('10 runs');
    const tokens = () => texts('.run-row .col-tokens');
    // File order is GPT (1,200) then Claude (800); numbers sort largest first, then flip.
    await page.locator('[data-sort="tokens"]').click();
    await expect.poll(async () => (await tokens())[0]).toBe('1,200');
    await page.locator('[data-sort="tokens"]').click();
    await expect.poll(tokens).toEqual([...Array(5).fill('800'), ...Array(5).fill('1,200')]);
    await page.locator('[data-sort="status"]').click();
    await expect
      .poll(async () => (await texts('.run-row .col-status')).slice(0, 4))
      .toEqual(['✗failed', '✗failed', '!error', '?unverified']);
    await page.locator('[data-sort="status"]').click();
    await expect.poll(async () => (await texts('.run-row .col-status'))[0]).toBe('✓passed');
    expect(problems).toEqual([]);
  });

  it('opens a run from the grid: response as text, formatted SQL, data side by side, diff', async () => {
    await open(fileHash(FILES.multi));
    await page.locator('.pass-fail .grid-row[data-test="total_revenue"] a.grid-cell[data-run="5"]').click();
    await page.locator('[data-testid="run-name"]').waitFor();
    expect(new URL(page.url()).hash).toBe(`${fileHash(FILES.multi)}/runs/5`);
    expect(await text('[data-testid="run-name"]')).toBe('total_revenue');
    expect(await text('[data-testid="run-model"]')).toBe(CLAUDE);
    expect(await text('[data-testid="run-message"]')).toBe('values differ');
    // Model output is text: the markup shows, nothing runs.
    expect(await text('[data-testid="response-text"]')).toBe(HOSTILE_TEXT);
    expect(
      await page.locator('[data-testid="response-text"] img, [data-testid="response-text"] script').count(),
    ).toBe(0);
    expect(await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned)).toBeUndefined();

    const reference =
      "SELECT SUM(p.amount) AS total_revenue FROM payments p JOIN orders o ON o.order_id = p.order_id WHERE o.status <> 'returned'";
    expect(await text('[data-testid="reference-sql"]')).toBe(reference);
    const toolSql = await page.locator('[data-testid="tool-sql"]').first().textContent();
    expect(toolSql).toBe(
      [
        'SELECT',
        '  SUM(p.amount) AS total_revenue',
        'FROM',
        '  payments p',
        '  JOIN orders o ON o.order_id = p.order_id',
        'WHERE',
        "  o.status <> 'returned'",
      ].join('\n'),
    );
    expect(await texts('.tool-call[data-tool="execute_sql"] .arg dt')).toEqual(['database_id']);
    expect(await texts('.tool-call[data-tool="execute_sql"] .arg dd')).toEqual(['shop']);
    expect(await texts('.tool-call[data-tool="list"] .arg dt')).toEqual(['path']);
    expect(await text('[data-testid="extraction-sql"]')).toBe('SELECT\n  *\nFROM\n  "query_0123abcd"');

    expect(await texts('[data-side="actual"] tr.row-unmatched td:not(.row-number)')).toEqual(['218098.37']);
    expect(await texts('[data-side="expected"] tr.row-unmatched td:not(.row-number)')).toEqual(['202201.54']);
    expect(await texts('[data-diff="only-expected"] td:not(.row-number)')).toEqual(['202201.54']);
    expect(await text('[data-metric="cost"] .card-value')).toBe('—');
    expect(await text('[data-metric="tokens"] .card-value')).toBe('800');
    expect(await text('[data-metric="duration"] .card-value')).toBe('1.5 s');
    await screenshot('run-detail');
    expect(problems).toEqual([]);
  });

  it('highlights the mismatching cells of a changed row', async () => {
    await open(`${fileHash(FILES.repeat)}/runs/3`);
    await page.locator('[data-testid="run-name"]').waitFor();
    expect(await texts('[data-side="actual"] td.cell-diff')).toEqual(['1300.00']);
    expect(await texts('[data-side="expected"] td.cell-diff')).toEqual(['1288.55']);
    expect(await texts('[data-diff="changed"] tbody td')).toEqual([
      '1',
      '1',
      'revenue',
      '1288.55',
      '1300.00',
    ]);
    await screenshot('run-diff');
    expect(problems).toEqual([]);
  });

  it('shows c/K, pass@k, pass^k and flaky marks of a --repeat file', async () => {
    await open(fileHash(FILES.repeat));
    await page.locator('.repeat-row').first().waitFor();
    const flaky = page.locator(`.repeat-row[data-test="total_revenue"][data-model="${CLAUDE}"]`);
    expect(await flaky.locator('[data-col="ck"]').textContent()).toBe('2/3');
    expect(await flaky.locator('[data-col="pass-at-k"]').textContent()).toBe('1.00');
    expect(await flaky.locator('[data-col="pass-hat-k"]').textContent()).toBe('0.30');
    expect(await flaky.locator('.flaky-mark').count()).toBe(1);
    expect(await page.locator('.repeat-row .flaky-mark').count()).toBe(1);
    const cell = page.locator('.pass-fail .grid-row[data-test="total_revenue"] .grid-cell').nth(1);
    expect(await cell.locator('.cell-count').textContent()).toBe('2/3flaky');
    expect(await cell.locator('a.attempt').count()).toBe(3);
    expect(await texts('.run-row .col-attempt')).toContain('#3');
    await screenshot('repeats');
    expect(problems).toEqual([]);
  });

  it('gives a file written before by_model existed its model table', async () => {
    await open(fileHash(FILES.multi));
    await page.locator('.model-row').first().waitFor();
    await page.locator('[data-testid="file-picker"]').selectOption(FILES.old);
    await expect.poll(() => new URL(page.url()).hash).toBe(fileHash(FILES.old));
    await expect.poll(() => text('[data-card="run-at"] .card-value')).toBe('2025-01-01 10:00:00');
    const rows = (await rowTexts('.model-row', ':scope > span')).map((cells) => cells.slice(0, 3));
    expect(rows).toEqual([
      [CLAUDE, '100.0%', '2/2'],
      [GPT, '66.7%', '2/3'],
    ]);
    expect(problems).toEqual([]);
  });

  it('compares the two newest files by default', async () => {
    await open('#/compare');
    await page.locator('[data-card="regressions"]').waitFor();
    expect(await page.locator('[data-testid="compare-before"]').inputValue()).toBe(FILES.multi);
    expect(await page.locator('[data-testid="compare-after"]').inputValue()).toBe(FILES.repeat);
    expect(await texts('[data-category="regressions"] .pair-row .test-name')).toEqual(['top_customers']);
    await page.locator('[data-testid="compare-before"]').selectOption(FILES.old);
    await expect
      .poll(() => new URL(page.url()).hash)
      .toBe(`#/compare?before=${FILES.old}&after=${FILES.repeat}`);
    await expect
      .poll(() => texts('[data-category="removed"] .pair-row .test-name'))
      .toEqual(['removed_test']);
    expect(problems).toEqual([]);
  });

  it('compares two runs, with links to both details', async () => {
    await open(`#/compare?before=${FILES.old}&after=${FILES.multi}`);
    await page.locator('[data-card="regressions"]').waitFor();
    const counts = await page
      .locator('[data-card]')
      .evaluateAll((elements) =>
        elements.map((element) => [
          element.getAttribute('data-card'),
          element.querySelector('.card-value')?.textContent,
        ]),
      );
    expect(Object.fromEntries(counts)).toEqual({
      regressions: '1',
      fixes: '1',
      unchanged: '2',
      added: '6',
      removed: '1',
      'not-run': '0',
    });
    const regression = page.locator('[data-category="regressions"] .pair-row');
    expect(await regression.getAttribute('data-test')).toBe('total_revenue');
    expect(await regression.getAttribute('data-model')).toBe(CLAUDE);
    expect(await regression.locator('[data-side="before"] a').getAttribute('href')).toBe(
      `${fileHash(FILES.old)}/runs/1`,
    );
    expect(await regression.locator('[data-side="after"] a').getAttribute('href')).toBe(
      `${fileHash(FILES.multi)}/runs/5`,
    );
    expect(await texts('[data-category="removed"] .pair-row .test-name')).toEqual(['removed_test']);
    await screenshot('compare');
    await regression.locator('[data-side="after"] a').click();
    await page.locator('[data-testid="run-name"]').waitFor();
    expect(await text('[data-testid="run-message"]')).toBe('values differ');
    expect(problems).toEqual([]);
  });

  it('draws the pass rate and cost of each model across files', async () => {
    await open('#/history');
    await page.locator('[data-chart="pass-rate"]').waitFor();
    const values = (chart: string, model: string) =>
      page
        .locator(`[data-chart="${chart}"] [data-series="${model}"] circle`)
        .evaluateAll((circles) => circles.map((circle) => Number(circle.getAttribute('data-value'))));
    expect(await values('pass-rate', GPT)).toEqual([66.7, 40, 50]);
    expect(await values('pass-rate', CLAUDE)).toEqual([100, 60, 83.3]);
    expect(await values('cost', GPT)).toEqual([0.03, 0.05, 0.06]);
    expect(await values('cost', CLAUDE)).toEqual([]);
    expect(await text('[data-chart="cost"] .chart-note')).toContain(CLAUDE);
    expect(await page.locator(`[data-chart="pass-rate"] [data-series="${GPT}"] path`).count()).toBe(1);
    expect(await page.locator('body').textContent()).toContain(`${FILES.broken}: `);
    await screenshot('history');
    expect(problems).toEqual([]);
  });

  it('says so when a file does not exist, and refuses paths outside tests/outputs/', async () => {
    await open(fileHash('results_20990101_000000.json'));
    await page.locator('.notice-error').waitFor();
    expect(await text('.notice-error')).toContain('No results file named results_20990101_000000.json');
    for (const attempt of [
      '..%2Fresults_secret.json',
      '%2e%2e%2fresults_secret.json',
      '%252e%252e%252fresults_secret.json',
    ]) {
      const response = await fetch(`${server.url}api/files/${attempt}`);
      expect(response.status).toBe(400);
    }
  });
});

describe.skipIf(skip)('judged runs in the viewer', () => {
  let judgedRoot: string;
  let judgedServer: ViewerServer;
  const JUDGED_FILE = 'results_20250104_100000.json';

  beforeAll(async () => {
    judgedRoot = await mkdtemp(path.join(tmpdir(), 'nao-viewer-judged-'));
    const outputsDir = path.join(judgedRoot, 'tests', 'outputs');
    await mkdir(outputsDir, { recursive: true });
    const judge = (verdict: 'pass' | 'fail', reason: string) => ({
      model: GPT,
      verdict,
      reason,
      error: null,
      attempts: 1,
      usage: { ...ZERO_USAGE, total_tokens: 120 },
      cost: 0.0004,
    });
    const judgedRun = (status: 'passed' | 'failed', reason: string): RunResult => {
      const run = fixtureRun({ test: 'say_hello', model: GPT, status: 'unverified' });
      return {
        ...run,
        status,
        passed: status === 'passed',
        message: reason,
        details: {
          ...run.details,
          response_text: 'Hello!',
          expected_answer: 'A friendly greeting',
          judged: true,
          judge: judge(status === 'passed' ? 'pass' : 'fail', reason),
        },
      };
    };
    const file = buildResultsFile({
      results: [
        judgedRun('passed', 'the answer greets the user'),
        fixtureRun({ test: 'total_revenue', model: GPT, status: 'passed' }),
      ],
      now: new Date(2025, 0, 4, 10, 0, 0),
      models: [GPT],
    });
    await writeFile(path.join(outputsDir, JUDGED_FILE), JSON.stringify(file));
    judgedServer = await startViewerServer({ outputsDir, port: 0, assetsDir: await ensureViewerAssets() });
  });

  afterAll(async () => {
    await judgedServer?.close();
    if (judgedRoot) await rm(judgedRoot, { recursive: true, force: true });
  });

  it('marks a judged pass apart from a data-verified one, and shows what the judge said', async () => {
    await page.goto(`${judgedServer.url}${fileHash(JUDGED_FILE)}`);
    await page.locator('.runs-table [data-judged="true"]').first().waitFor();
    expect(await page.locator('.runs-table [data-judged="true"]').count()).toBe(1);
    expect(await text('.runs-table [data-judged="true"]')).toContain('judged');
    expect(await text('[data-card="pass-rate"] .card-detail')).toContain('1 of the passes judged by a model');

    await page.goto(`${judgedServer.url}${fileHash(JUDGED_FILE)}/runs/0`);
    await page.locator('[data-testid="judge"]').waitFor();
    expect(await page.locator('.run-head [data-judged="true"]').count()).toBe(1);
    expect(await text('[data-testid="judge-verdict"]')).toBe('pass');
    expect(await text('[data-testid="judge-reason"]')).toBe('the answer greets the user');
    expect(await text('[data-section="judge"] .count')).toBe(`graded by ${GPT}, not by data`);

    await page.goto(`${judgedServer.url}${fileHash(JUDGED_FILE)}/runs/1`);
    await page.locator('[data-testid="run-name"]').waitFor();
    expect(await page.locator('[data-judged="true"]').count()).toBe(0);
    expect(await page.locator('[data-testid="judge"]').count()).toBe(0);
    // This page is served by the second server, which the shared offline check counts as external.
    expect(problems.filter((problem) => !problem.includes(judgedServer.url))).toEqual([]);
  });
});
