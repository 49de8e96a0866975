/**
 * The original nao's CLI log-in (its model: test-support/original-nao/cli-login-client.ts) with a
 * person in real Chromium on nao chat's pages: the link it opens asks for a log-in first, comes
 * back to the approval page, and Approve sends the browser to the CLI's loopback callback.
 * Screenshots go to test-artifacts/cli-login/.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, missingChromium } from '../../test-support/chromium.js';
import { copyExampleProject, type ExampleCopy, REPO_ROOT } from '../../test-support/cli/example-project.js';
import { startTestLlmServer, type TestLlmServer } from '../../test-support/llm-server/index.js';
import { skipWhenMissing } from '../../test-support/local-servers.js';
import {
  originalAuthHeaders,
  originalBrowserLogin,
} from '../../test-support/original-nao/cli-login-client.js';
import { loadConfig } from '../config/index.js';
import { type RunningBackend, startBackend } from './backend.js';

const skip = skipWhenMissing({ tests: 'the original CLI log-in browser test', missing: missingChromium() });

const SCREENSHOTS = path.join(REPO_ROOT, 'test-artifacts', 'cli-login');
const EMAIL = 'ada@example.com';
const PASSWORD = 'pw-cli-login-page-4b8f';

let llm: TestLlmServer;
let project: ExampleCopy;
let backend: RunningBackend;
let browser: Browser;
let page: Page;
const problems: string[] = [];

beforeAll(async () => {
  if (skip) return;
  await mkdir(SCREENSHOTS, { recursive: true });
  // No model is asked anything here; the project needs a provider to start.
  llm = await startTestLlmServer({ script: () => ({ text: 'unused' }) });
  project = await copyExampleProject({ baseUrl: llm.url });
  backend = await startBackend({
    config: await loadConfig({ projectDir: project.dir, env: {} }),
    env: {},
    port: 0,
    version: 'test',
  });
  const signUp = await fetch(`${backend.url}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: EMAIL, password: PASSWORD, name: 'Ada' }),
  });
  expect(signUp.status).toBe(200);
  browser = await launchChromium();
  page = await (await browser.newContext({ viewport: { width: 1000, height: 700 } })).newPage();
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  // A failed load shows as a response below, with its URL; the console line has none.
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
      problems.push(`console: ${message.text()}`);
  });
  // Chromium asks every origin for /favicon.ico; neither nao chat nor the CLI's callback has one.
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (response.status() >= 400 && url.pathname !== '/favicon.ico')
      problems.push(`HTTP ${response.status()} for ${url.pathname}`);
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await backend?.close();
  await llm?.close();
  await project?.cleanup();
});

describe.skipIf(skip)("the original nao CLI's log-in page in Chromium", () => {
  it('logs in, approves, and the CLI gets a session that it sends as a bearer token', async () => {
    const visited: string[] = [];
    page.on('framenavigated', (frame) => {
      if (frame.parentFrame() === null) visited.push(frame.url());
    });
    let opened = '';
    const run = originalBrowserLogin({
      backendUrl: backend.url,
      timeoutMs: 60_000,
      openBrowser: async (url) => {
        opened = url;
        await page.goto(url);
        // Not logged in yet: the log-in page first, which comes back to the link.
        await page.getByLabel('Email').fill(EMAIL);
        await page.getByLabel('Password').fill(PASSWORD);
        await page.getByRole('button', { name: 'Log in' }).click();
        await page.waitForURL(url);
        await expect.poll(() => page.locator('main').textContent()).toContain(EMAIL);
        await page.screenshot({ path: path.join(SCREENSHOTS, 'approve.png'), fullPage: true });
        await page.getByRole('button', { name: 'Approve' }).click();
        await page.waitForURL(/^http:\/\/127\.0\.0\.1:\d+\/callback\?/);
        await page.screenshot({ path: path.join(SCREENSHOTS, 'callback.png'), fullPage: true });
      },
    });
    const outcome = await run.outcome;
    expect(outcome).toMatchObject({ success: true });
    if (!outcome.success) return;

    const link = new URL(opened);
    const landed = new URL(visited.at(-1)!);
    expect(`${landed.origin}${landed.pathname}`).toBe(
      `http://127.0.0.1:${link.searchParams.get('port')}/callback`,
    );
    expect(landed.searchParams.get('state')).toBe(link.searchParams.get('state'));
    expect(visited.map((url) => new URL(url).pathname)).toEqual(['/login', '/cli-login', '/callback']);
    const callbacks = run.callbacks.filter((callback) => callback.path !== '/favicon.ico');
    expect(callbacks).toEqual([{ path: expect.stringMatching(/^\/callback\?code=/), status: 200 }]);

    const session = await fetch(`${backend.url}/api/auth/session`, {
      headers: originalAuthHeaders(outcome.token),
    });
    expect(session.status).toBe(200);
    expect(((await session.json()) as { user: { email: string } }).user.email).toBe(EMAIL);
    expect(problems).toEqual([]);
  });

  it('Deny sends access_denied to the CLI, which gets no session', async () => {
    const run = originalBrowserLogin({
      backendUrl: backend.url,
      timeoutMs: 60_000,
      openBrowser: async (url) => {
        // Logged in by the test before: straight to the approval page.
        await page.goto(url);
        await page.getByRole('button', { name: 'Deny' }).click();
        await page.waitForURL(/\/callback\?error=access_denied&state=/);
      },
    });
    expect(await run.outcome).toMatchObject({ success: false, error: 'denied' });
    expect(problems).toEqual([]);
  });
});
