/**
 * Run again in real Chromium: the viewer (`nao test server`, in this process) and the backend
 * (`nao chat`, its own process, as a user starts it) over a copy of the example project, the
 * models answered by the wire-protocol test server. Screenshots go to test-artifacts/viewer/.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BackendProcess,
  freePort,
  startBackendProcess,
} from '../../test-support/backend/backend-process.js';
import { launchChromium, missingChromium } from '../../test-support/chromium.js';
import { copyExampleProject, type ExampleCopy, REPO_ROOT } from '../../test-support/cli/example-project.js';
import { capturedIO, latestResults, runNao } from '../../test-support/cli/run-cli.js';
import { startTestLlmServer, type TestLlmServer } from '../../test-support/llm-server/index.js';
import { type ScriptedAnswer, scriptedAnalyst } from '../../test-support/llm-server/scripted-analyst.js';
import { skipWhenMissing } from '../../test-support/local-servers.js';
import { ensureViewerAssets } from '../../test-support/viewer/viewer-assets.js';
import { main } from '../cli/main.js';
import { listResultsFiles, readResultsFile } from '../results/index.js';

const skip = skipWhenMissing({ tests: 'the Run again browser tests', missing: missingChromium() });

const SCREENSHOTS = path.join(REPO_ROOT, 'test-artifacts', 'viewer');
const EMAIL = 'ada@example.com';
const PASSWORD = 'pw-run-again-7c2e';
const REVENUE = 'What is the total revenue from all orders?';

let answers: Record<string, ScriptedAnswer> = {};
// While set, the stand-in holds every model call (a run under way, to cancel).
let holding = false;
const held: Array<(error: Error) => void> = [];
let llm: TestLlmServer;
let project: ExampleCopy;
let home: string;
let backendPort: number;
let backendUrl: string;
let backend: BackendProcess | undefined;
let viewer: { url: string; stop: () => Promise<number> };
let browser: Browser;
let page: Page;
let failedFile: string;
const problems: string[] = [];

/** `nao test server` in this process, until `stop`; its URL is read from what it prints. */
async function startViewer(): Promise<typeof viewer> {
  const assetsDir = await ensureViewerAssets();
  const { io, output } = capturedIO({ cwd: project.dir, env: { PATH: process.env.PATH, NAO_HOME: home } });
  const controller = new AbortController();
  const exited = main(
    ['node', 'nao', 'test', 'server', '--port', '0', '--no-open', '--backend', backendUrl],
    io,
    { interrupt: controller.signal, viewerAssetsDir: assetsDir },
  );
  for (let waited = 0; !/nao test server: http/.test(output().stdout); waited += 50) {
    if (waited > 20_000) throw new Error(`nao test server did not start:\n${output().stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const url = /nao test server: (http:\/\/\S+)/.exec(output().stdout)![1]!;
  return {
    url,
    stop: () => {
      controller.abort();
      return exited;
    },
  };
}

beforeAll(async () => {
  if (skip) return;
  llm = await startTestLlmServer({
    script: (request) =>
      holding ? new Promise((_, reject) => held.push(reject)) : scriptedAnalyst({ answers })(request),
  });
  project = await copyExampleProject({ baseUrl: llm.url });
  home = await mkdtemp(path.join(tmpdir(), 'nao-run-again-home-'));
  backendPort = await freePort();
  backendUrl = `http://127.0.0.1:${backendPort}`;
  await mkdir(SCREENSHOTS, { recursive: true });

  // The results the user looks at: total_revenue failed (the agent forgot the returns).
  answers = { [REVENUE]: { sql: 'SELECT SUM(amount) AS total_revenue FROM payments' } };
  expect(
    (await runNao({ args: ['test', '--local', '-s', 'total_revenue', '-q'], cwd: project.dir })).code,
  ).toBe(1);
  failedFile = path.basename((await listResultsFiles(path.join(project.dir, 'tests', 'outputs'))).at(-1)!);
  expect((await latestResults(project.dir)).results[0]!.status).toBe('failed');
  // Since then the context was fixed: the agent now answers right.
  answers = Object.fromEntries(project.tests.map((test) => [test.prompt, { sql: test.sql }]));

  viewer = await startViewer();
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1300, height: 900 } });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await viewer?.stop();
  await backend?.stop();
  for (const reject of held) reject(new Error('test over'));
  await llm?.close();
  await project?.cleanup();
  if (home) await rm(home, { recursive: true, force: true });
});

const panel = () => page.getByTestId('run-again-panel');

describe.skipIf(skip)('Run again in the viewer, through a running backend', () => {
  it('says how to start the backend when none answers', async () => {
    await page.goto(`${viewer.url}#/files/${encodeURIComponent(failedFile)}/runs/0`);
    await expect.poll(() => page.getByTestId('run-message').textContent()).toContain('values differ');
    await page.getByTestId('run-again').click();
    const unavailable = panel().getByTestId('run-again-unavailable');
    await expect.poll(() => unavailable.textContent()).toContain(`No nao backend answers at ${backendUrl}`);
    expect(await panel().getByTestId('run-again-command').textContent()).toBe('nao chat');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'run-again-no-backend.png'), fullPage: true });
  });

  it('asks for a CLI log-in once the backend runs', async () => {
    backend = await startBackendProcess({ cwd: project.dir, port: backendPort });
    await panel().getByRole('button', { name: 'Check again' }).click();
    await expect.poll(() => panel().textContent()).toContain(`Not logged in to ${backendUrl}`);
    expect(await panel().getByTestId('run-again-command').textContent()).toBe(
      `nao login --backend ${backendUrl}`,
    );
  });

  it('runs the test again on the picked model, judged and saved like a CLI run', async () => {
    const signup = await fetch(`${backendUrl}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
    });
    expect(signup.status).toBe(200);
    const login = await runNao({
      args: ['login', '--backend', backendUrl, '-u', EMAIL, '--password', PASSWORD],
      cwd: project.dir,
      env: { NAO_HOME: home },
    });
    expect(login.code, login.stderr).toBe(0);

    await panel().getByRole('button', { name: 'Check again' }).click();
    const models = panel().getByTestId('run-again-models');
    await models.waitFor();
    expect(await panel().textContent()).toContain(`as ${EMAIL}`);
    expect(await models.getByLabel('openai:gpt-4.1', { exact: true }).isChecked()).toBe(true);
    expect(await models.getByLabel('openai:gpt-4.1-mini').isChecked()).toBe(false);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'run-again-picker.png'), fullPage: true });
    const filesBefore = (await listResultsFiles(path.join(project.dir, 'tests', 'outputs'))).length;
    await panel().getByTestId('run-again-start').click();

    const done = panel().getByTestId('run-again-done');
    await done.waitFor({ timeout: 30_000 });
    expect(await done.getByTestId('run-again-result').allTextContents()).toEqual([
      expect.stringMatching(/passed.*total_revenue · openai:gpt-4\.1 · match/),
    ]);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'run-again-done.png'), fullPage: true });

    const files = await listResultsFiles(path.join(project.dir, 'tests', 'outputs'));
    expect(files).toHaveLength(filesBefore + 1);
    const saved = await readResultsFile(files.at(-1)!);
    expect(saved).toMatchObject({
      started_from: 'viewer',
      command: 'nao test -s total_revenue -m openai:gpt-4.1',
      models: ['openai:gpt-4.1'],
      summary: { total: 1, passed: 1 },
    });
    expect(saved.results[0]!.details.actual_data).toEqual([{ total_revenue: '202201.54' }]);
    expect(await done.textContent()).toContain(`tests/outputs/${path.basename(files.at(-1)!)}`);
    // It went through the backend's POST /api/test/run, under the CLI's account.
    expect(backend!.output()).toContain(`test run for ${EMAIL}: openai:gpt-4.1`);

    await done.getByTestId('run-again-open').click();
    await expect.poll(() => page.getByTestId('run-message').textContent()).toMatch(/^match/);
    expect(page.url()).toContain(encodeURIComponent(path.basename(files.at(-1)!)));
  });

  it('runs a whole file again on several models from its dashboard', async () => {
    await page.goto(`${viewer.url}#/files/${encodeURIComponent(failedFile)}`);
    await page.getByTestId('run-again-shown').click();
    const models = panel().getByTestId('run-again-models');
    await models.waitFor();
    await models.getByLabel('openai:gpt-4.1-mini').check();
    expect(await panel().getByTestId('run-again-start').textContent()).toBe('Run 2 runs');
    await panel().getByTestId('run-again-start').click();
    const done = panel().getByTestId('run-again-done');
    await done.waitFor({ timeout: 30_000 });
    expect(await done.getByTestId('run-again-result').count()).toBe(2);
    await done.getByTestId('run-again-open').click();
    await expect.poll(() => page.locator('[data-card="pass-rate"] .card-value').textContent()).toBe('100.0%');
    const saved = await latestResults(project.dir);
    expect(saved.results.map((result) => [result.model, result.status])).toEqual([
      ['openai:gpt-4.1', 'passed'],
      ['openai:gpt-4.1-mini', 'passed'],
    ]);
  });

  it('cancels a run forwarded to the backend from the page and saves the file', async () => {
    await page.goto(`${viewer.url}#/files/${encodeURIComponent(failedFile)}/runs/0`);
    await page.getByTestId('run-again').click();
    await panel().getByTestId('run-again-models').waitFor();
    const filesBefore = (await listResultsFiles(path.join(project.dir, 'tests', 'outputs'))).length;
    const requestsBefore = llm.requests.length;
    holding = true;
    await panel().getByTestId('run-again-start').click();
    await panel().getByTestId('run-again-progress').waitFor();
    // The backend's agent is waiting for its model: the run is under way.
    await expect.poll(() => llm.requests.length, { timeout: 30_000 }).toBeGreaterThan(requestsBefore);
    await panel().getByTestId('run-again-cancel').click();
    await panel().getByTestId('run-again-cancelled').waitFor({ timeout: 30_000 });
    holding = false;
    const files = await listResultsFiles(path.join(project.dir, 'tests', 'outputs'));
    expect(files).toHaveLength(filesBefore + 1);
    const saved = await readResultsFile(files.at(-1)!);
    expect(saved.command).toBe('nao test -s total_revenue -m openai:gpt-4.1');
    expect(saved.results.map((result) => result.status)).not.toContain('passed');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'run-again-cancelled.png'), fullPage: true });
  });

  it('left no errors in the page', () => {
    expect(problems).toEqual([]);
  });
});
