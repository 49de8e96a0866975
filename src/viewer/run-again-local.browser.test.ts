/**
 * Run again without a backend, in real Chromium: the built CLI's `nao test server` (its own
 * process, no --backend, no BACKEND_URL) runs the tests itself — replayed from the example's
 * recordings, or live with mock:reference — and the filtered list, the failed ones and Cancel
 * are driven from the page. The provider points at a stand-in that holds every request, so a
 * live model call waits there until the run is cancelled.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, missingChromium } from '../../test-support/chromium.js';
import { copyExampleProject, type ExampleCopy, REPO_ROOT } from '../../test-support/cli/example-project.js';
import { runNao } from '../../test-support/cli/run-cli.js';
import { startTestLlmServer, type TestLlmServer } from '../../test-support/llm-server/index.js';
import { skipWhenMissing } from '../../test-support/local-servers.js';
import { ensureViewerAssets } from '../../test-support/viewer/viewer-assets.js';
import { listResultsFiles, type ResultsFile, readResultsFile } from '../results/index.js';

const skip = skipWhenMissing({ tests: 'the local Run again browser tests', missing: missingChromium() });

let llm: TestLlmServer;
const held: Array<(error: Error) => void> = [];
let project: ExampleCopy;
let server: { child: ChildProcess; url: string; output: () => string };
let browser: Browser;
let page: Page;
let replayFile: string;
let replayResults: ResultsFile;
let mockFile: string;
const problems: string[] = [];

const outputs = () => path.join(project.dir, 'tests', 'outputs');
const uniqueNames = (names: string[]) => [...new Set(names)];

/** The built CLI's `nao test server`, as a user starts it; resolves once it prints its URL. */
async function startServer(): Promise<typeof server> {
  const child = spawn(
    process.execPath,
    [path.join(REPO_ROOT, 'bin', 'nao.js'), 'test', 'server', '--port', '0', '--no-open'],
    { cwd: project.dir, env: { PATH: process.env.PATH ?? '' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout!.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr!.on('data', (chunk) => {
    output += chunk;
  });
  for (let waited = 0; !/nao test server: http/.test(output); waited += 50) {
    if (waited > 30_000 || child.exitCode !== null)
      throw new Error(`nao test server did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { child, url: /nao test server: (http:\/\/\S+)/.exec(output)![1]!, output: () => output };
}

async function newResultsFile(before: number): Promise<{ name: string; saved: ResultsFile }> {
  const files = await listResultsFiles(outputs());
  expect(files).toHaveLength(before + 1);
  return { name: path.basename(files.at(-1)!), saved: await readResultsFile(files.at(-1)!) };
}

beforeAll(async () => {
  if (skip) return;
  llm = await startTestLlmServer({
    script: () => new Promise((_, reject) => held.push(reject)),
  });
  project = await copyExampleProject({ baseUrl: llm.url });
  await ensureViewerAssets();

  // The results the user looks at: a replay of the example's recordings (revenue_q4_2025 fails
  // in them on purpose), and a mock:reference run.
  expect((await runNao({ args: ['test', '--replay', '-q'], cwd: project.dir })).code).toBe(1);
  replayFile = path.basename((await listResultsFiles(outputs())).at(-1)!);
  replayResults = await readResultsFile(path.join(outputs(), replayFile));
  const mock = await runNao({ args: ['test', '--local', '-m', 'mock:reference', '-q'], cwd: project.dir });
  expect(mock.code, mock.stderr).toBe(0);
  mockFile = path.basename((await listResultsFiles(outputs())).at(-1)!);
  // total_revenue's recording is gone since: running it on gpt-4.1 calls the (held) model.
  await rm(path.join(project.dir, 'tests', 'recordings', 'openai__gpt-4.1', 'total_revenue'), {
    recursive: true,
  });

  server = await startServer();
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1300, height: 900 } });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
}, 240_000);

afterAll(async () => {
  await browser?.close();
  if (server?.child.exitCode === null) {
    const exited = new Promise((resolve) => server.child.once('exit', resolve));
    server.child.kill('SIGINT');
    await exited;
  }
  for (const reject of held) reject(new Error('test over'));
  await llm?.close();
  await project?.cleanup();
});

const panel = () => page.getByTestId('run-again-panel');

describe.skipIf(skip)('Run again in a viewer without a backend', () => {
  it('says at start that Run again runs in the server process', () => {
    expect(server.output()).toContain('Run again (in the page) runs the tests in this process');
  });

  it('counts the tests the list shows and the failed ones in the labels', async () => {
    await page.goto(`${server.url}#/files/${encodeURIComponent(replayFile)}`);
    const shown = page.getByTestId('run-again-shown');
    const failed = page.getByTestId('run-again-failed');
    const all = uniqueNames(replayResults.results.map((result) => result.name));
    const failedNames = uniqueNames(
      replayResults.results
        .filter((result) => ['failed', 'error'].includes(result.status))
        .map((r) => r.name),
    );
    expect(all.length).toBeGreaterThan(5);
    expect(failedNames).toEqual(['revenue_q4_2025']);
    await expect.poll(() => shown.textContent()).toBe(`Run these ${all.length} tests again`);
    expect(await failed.textContent()).toBe('Run the failed ones again (1 test)');

    await page.getByTestId('run-search').fill('revenue');
    const matching = all.filter((name) => name.includes('revenue'));
    expect(matching.length).toBeGreaterThan(1);
    await expect.poll(() => shown.textContent()).toBe(`Run these ${matching.length} tests again`);
    await page.getByTestId('run-search').fill('');
    await expect.poll(() => shown.textContent()).toBe(`Run these ${all.length} tests again`);
  });

  it('replays the failed ones from the recordings and saves the new results file', async () => {
    const before = (await listResultsFiles(outputs())).length;
    await page.getByTestId('run-again-failed').click();
    const models = panel().getByTestId('run-again-models');
    await models.waitFor();
    expect(await panel().textContent()).toContain('in this nao test server process');
    expect(await models.getByLabel('openai:gpt-4.1', { exact: true }).isChecked()).toBe(true);
    expect(await panel().getByTestId('run-again-start').textContent()).toBe('Run 1 run');
    await panel().getByTestId('run-again-start').click();
    const done = panel().getByTestId('run-again-done');
    await done.waitFor({ timeout: 60_000 });
    expect(await done.getByTestId('run-again-result').allTextContents()).toEqual([
      expect.stringMatching(/failed.*revenue_q4_2025 · openai:gpt-4\.1/),
    ]);
    const { name, saved } = await newResultsFile(before);
    expect(saved).toMatchObject({
      started_from: 'viewer',
      command: 'nao test --replay -s revenue_q4_2025 -m openai:gpt-4.1',
      summary: { total: 1, failed: 1 },
    });
    expect(llm.requests).toHaveLength(0);
    await done.getByTestId('run-again-open').click();
    await expect.poll(() => page.url()).toContain(encodeURIComponent(name));
  });

  it('runs what the filtered list shows live on mock:reference', async () => {
    await page.goto(`${server.url}#/files/${encodeURIComponent(mockFile)}`);
    await page.getByTestId('run-search').fill('revenue');
    const mockResults = await readResultsFile(path.join(outputs(), mockFile));
    const matching = uniqueNames(mockResults.results.map((result) => result.name)).filter((name) =>
      name.includes('revenue'),
    );
    const shown = page.getByTestId('run-again-shown');
    await expect.poll(() => shown.textContent()).toBe(`Run these ${matching.length} tests again`);
    // Every mock run passed: there is nothing failed to offer.
    expect(await page.getByTestId('run-again-failed').count()).toBe(0);
    const before = (await listResultsFiles(outputs())).length;
    await shown.click();
    const models = panel().getByTestId('run-again-models');
    await models.waitFor();
    expect(await models.getByLabel('mock:reference').isChecked()).toBe(true);
    expect(await models.getByLabel('openai:gpt-4.1', { exact: true }).isChecked()).toBe(false);
    await panel().getByTestId('run-again-start').click();
    const done = panel().getByTestId('run-again-done');
    await done.waitFor({ timeout: 60_000 });
    const { name, saved } = await newResultsFile(before);
    expect(saved).toMatchObject({
      started_from: 'viewer',
      command: `nao test --local -s ${matching.join(',')} -m mock:reference`,
      summary: { total: matching.length, passed: matching.length },
    });
    expect(await done.textContent()).toContain(`tests/outputs/${name}`);
  });

  it('cancels a live run from the page and keeps what finished', async () => {
    await page.goto(`${server.url}#/files/${encodeURIComponent(mockFile)}`);
    await page.getByTestId('run-search').fill('total_revenue');
    const shown = page.getByTestId('run-again-shown');
    await expect.poll(() => shown.textContent()).toBe('Run this test again');
    const before = (await listResultsFiles(outputs())).length;
    await shown.click();
    const models = panel().getByTestId('run-again-models');
    await models.waitFor();
    await models.getByLabel('mock:reference').uncheck();
    await models.getByLabel('openai:gpt-4.1', { exact: true }).check();
    await panel().getByTestId('run-again-start').click();
    await panel().getByTestId('run-again-progress').waitFor();
    // The run is under way: its model call waits in the stand-in.
    await expect.poll(() => llm.requests.length, { timeout: 30_000 }).toBeGreaterThan(0);
    await panel().getByTestId('run-again-cancel').click();
    await panel().getByTestId('run-again-cancelled').waitFor({ timeout: 30_000 });
    const { saved } = await newResultsFile(before);
    expect(saved.command).toBe('nao test --local -s total_revenue -m openai:gpt-4.1');
    expect(saved.results.map((result) => result.status)).not.toContain('passed');
    expect(await panel().textContent()).toContain('Cancelled: the runs that finished are saved');
  });

  it('left no errors in the page', () => {
    expect(problems).toEqual([]);
  });
});
