/**
 * The viewer in real Chromium on results files the original nao wrote
 * (test-support/original-nao/results): they render, and where nao counts fewer passes than the
 * file does, the page says why and shows both pass rates.
 */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, missingChromium } from '../../test-support/chromium.js';
import { REPO_ROOT } from '../../test-support/cli/example-project.js';
import { skipWhenMissing } from '../../test-support/local-servers.js';
import { ensureViewerAssets } from '../../test-support/viewer/viewer-assets.js';
import { startViewerServer, type ViewerServer } from './viewer-server.js';

const ORIGINAL = path.join(REPO_ROOT, 'test-support', 'original-nao', 'results');
const skip = skipWhenMissing({
  tests: 'the viewer browser tests of original results files',
  missing: missingChromium(),
});

let root: string;
let server: ViewerServer;
let browser: Browser;

beforeAll(async () => {
  if (skip) return;
  const assetsDir = await ensureViewerAssets();
  root = await mkdtemp(path.join(tmpdir(), 'nao-viewer-original-'));
  await cp(ORIGINAL, path.join(root, 'tests', 'outputs'), { recursive: true });
  server = await startViewerServer({ outputsDir: path.join(root, 'tests', 'outputs'), port: 0, assetsDir });
  browser = await launchChromium();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (root) await rm(root, { recursive: true, force: true });
});

describe.skipIf(skip)('results files of the original nao in the viewer', () => {
  it.each([
    ['results_20260212_100411.json', '50.0%', 'This file counts 4 of 6 runs as passed; nao counts 3'],
    ['results_20260217_001248.json', '0.0%', null],
  ])('%s: pass rate %s, and the notice where the numbers differ', async (name, passRate, notice) => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    try {
      await page.goto(`${server.url}#/files/${encodeURIComponent(name)}`);
      await page.locator('[data-card="pass-rate"] .card-value').waitFor();
      expect(await page.locator('[data-card="pass-rate"] .card-value').textContent()).toBe(passRate);
      const banner = page.locator('[data-testid="recount-notice"]');
      if (notice === null) expect(await banner.count()).toBe(0);
      else expect(await banner.textContent()).toContain(notice);
      await page.screenshot({
        path: path.join(REPO_ROOT, 'test-artifacts', 'viewer', `original-${name}.png`),
      });
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
