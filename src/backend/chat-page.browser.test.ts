/**
 * The chat page in real Chromium against the in-process backend and the wire-protocol test
 * model: log in, ask, stop, clarify, reload, save as test, and a second user locked out.
 * Screenshots go to test-artifacts/chat/.
 */
import { execFile } from 'node:child_process';
import { mkdir, readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { promisify } from 'node:util';
import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, missingChromium } from '../../test-support/chromium.js';
import { copyExampleProject, type ExampleCopy, REPO_ROOT } from '../../test-support/cli/example-project.js';
import {
  type ScriptRequest,
  startTestLlmServer,
  type TestLlmServer,
  type Turn,
} from '../../test-support/llm-server/index.js';
import { skipWhenMissing } from '../../test-support/local-servers.js';
import { main } from '../cli/main.js';
import { loadConfig } from '../config/index.js';
import { type RunningBackend, startBackend } from './backend.js';

const skip = skipWhenMissing({ tests: 'the chat page browser tests', missing: missingChromium() });

const SCREENSHOTS = path.join(REPO_ROOT, 'test-artifacts', 'chat');
const ASSETS_DIR = path.join(REPO_ROOT, 'dist', 'web', 'chat');
const PASSWORD = 'pw-chat-page-5e1d';
const COUNT_SQL = 'SELECT status, COUNT(*) AS orders FROM orders GROUP BY status ORDER BY status';

/** While set, the stand-in model takes 30 s over every answer (a test run to cancel). */
let slowAnswers = false;

/** The stand-in model answers by the latest user message, so earlier turns do not confuse it. */
function script(request: ScriptRequest): Turn {
  if (slowAnswers) return { delayMs: 30_000, text: 'too late' };
  // The extraction of a test run (Save and run): the answer is the agent's last result table.
  if (request.wantsJson) {
    const ids = request.messages.flatMap((message) => message.content.match(/query_[0-9a-f]{8}/g) ?? []);
    return { json: { sql: `SELECT * FROM "${ids.at(-1)}"` } };
  }
  const lastUser = [...request.messages].reverse().find((message) => message.role === 'user')?.content ?? '';
  const afterUser = request.messages.slice(
    request.messages.findLastIndex((message) => message.role === 'user'),
  );
  const toolDone = afterUser.some((message) => message.role === 'tool');
  if (lastUser.includes('orders by status')) {
    if (!toolDone) return { toolCalls: [{ name: 'execute_sql', args: { sql_query: COUNT_SQL } }] };
    return { text: 'Most orders are delivered; the table shows every status.' };
  }
  if (lastUser.includes('slow question')) return { delayMs: 30_000, text: 'too late' };
  if (lastUser.includes('revenue')) {
    return {
      toolCalls: [
        { name: 'clarification', args: { question: 'Gross or net revenue?', options: ['Gross', 'Net'] } },
      ],
    };
  }
  if (lastUser === 'Net') return { text: 'Net revenue is revenue minus refunds.' };
  // 400: the provider wrapper does not retry it, so the error shows at once.
  return { status: 400, errorBody: { error: { message: 'no scripted answer for this question' } } };
}

async function ensureChatAssets(): Promise<void> {
  const built = await stat(path.join(ASSETS_DIR, 'index.html')).catch(() => null);
  const newest = async (target: string): Promise<number> => {
    const info = await stat(target);
    if (!info.isDirectory()) return info.mtimeMs;
    const times = await Promise.all((await readdir(target)).map((entry) => newest(path.join(target, entry))));
    return Math.max(0, ...times);
  };
  // The page's own folder and what it shares with the viewer.
  const sources = ['web/chat', 'web/shared', 'web/vite-page-config.ts'];
  const times = await Promise.all(sources.map((source) => newest(path.join(REPO_ROOT, source))));
  if (built !== null && built.mtimeMs >= Math.max(...times)) return;
  await promisify(execFile)(
    process.execPath,
    [
      path.join(REPO_ROOT, 'node_modules', 'vite', 'bin', 'vite.js'),
      'build',
      '--config',
      'web/chat/vite.config.ts',
    ],
    { cwd: REPO_ROOT, timeout: 180_000 },
  );
}

let llm: TestLlmServer;
let project: ExampleCopy;
let backend: RunningBackend;
let browser: Browser;
let page: Page;
const problems: string[] = [];
const log: string[] = [];

async function startServer(): Promise<void> {
  const config = await loadConfig({ projectDir: project.dir, env: {} });
  // A second account signs up later (open sign-up, no invite).
  backend = await startBackend({
    config,
    env: { NAO_ALLOW_SIGNUP: '1' },
    port: 0,
    version: 'test',
    log: (line) => log.push(line),
  });
}

beforeAll(async () => {
  if (skip) return;
  await ensureChatAssets();
  await mkdir(SCREENSHOTS, { recursive: true });
  llm = await startTestLlmServer({ script });
  project = await copyExampleProject({ baseUrl: llm.url });
  await startServer();
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
  page = await context.newPage();
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    const text = message.text();
    // The refused second save is an expected 409; the form-action warning is the account pages' CSP.
    if (message.type() === 'error' && !text.includes('409 (Conflict)') && !text.includes("'form-action'")) {
      problems.push(`console: ${text}`);
    }
  });
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await backend?.close();
  await llm?.close();
  await project?.cleanup();
});

async function screenshot(name: string): Promise<void> {
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

async function ask(question: string): Promise<void> {
  await page.getByLabel('Message').fill(question);
  await page.getByRole('button', { name: 'Send' }).click();
}

const lastAnswer = () => page.getByTestId('assistant-message').last();

describe.skipIf(skip)('the chat page', () => {
  it('signs up from the address nao chat prints and lands on the chat with the configured models', async () => {
    const visited: string[] = [];
    const onFrame = (frame: { url(): string; parentFrame(): unknown }) => {
      if (frame.parentFrame() === null) visited.push(new URL(frame.url()).pathname);
    };
    page.on('framenavigated', onFrame);
    // `nao chat` prints <url>/signup.
    await page.goto(`${backend.url}/signup`);
    await page.getByLabel('Email').fill('ada@example.com');
    await page.getByLabel(/^Password/).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.waitForURL(`${backend.url}/chat/`);
    page.off('framenavigated', onFrame);
    // Straight from the form to the chat: no page in between.
    expect(visited).toEqual(['/signup', '/chat/']);
    await expect.poll(() => page.getByTestId('signed-in-as').textContent()).toBe('ada@example.com');
    const options = await page.getByLabel('Model').locator('option').allTextContents();
    expect(options).toEqual(expect.arrayContaining(['openai:gpt-4.1', 'openai:gpt-4.1-mini']));
  });

  it('logs in to the chat too, and never follows a next that leaves the site', async () => {
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL(/\/login$/);
    // The root address asks for a log-in, then opens the chat.
    await page.goto(`${backend.url}/`);
    await page.waitForURL(/\/login\?next=%2F$/);
    await page.getByLabel('Email').fill('ada@example.com');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(`${backend.url}/chat/`);
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL(/\/login$/);
    // A tab inside "//" is dropped by browsers: this next would be //evil.example.
    await page.goto(`${backend.url}/login?next=${encodeURIComponent('/\t/evil.example/')}`);
    await page.getByLabel('Email').fill('ada@example.com');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(`${backend.url}/chat/`);
    await expect.poll(() => page.getByTestId('signed-in-as').textContent()).toBe('ada@example.com');
  });

  it('answers with the formatted SQL, its result table and row count', async () => {
    await ask('How many orders by status?');
    await expect
      .poll(() => lastAnswer().getByTestId('answer-text').textContent())
      .toContain('Most orders are delivered');
    const answer = lastAnswer();
    // COUNT_SQL was written on one line; the page lays it out one clause per line.
    expect(await answer.getByTestId('sql').textContent()).toBe(
      [
        'SELECT',
        '  status,',
        '  COUNT(*) AS orders',
        'FROM',
        '  orders',
        'GROUP BY',
        '  status',
        'ORDER BY',
        '  status',
      ].join('\n'),
    );
    const rows = await answer.getByTestId('result-table').locator('tbody tr').count();
    expect(rows).toBeGreaterThan(0);
    expect(await answer.getByTestId('row-count').textContent()).toContain(`${rows} row`);
    expect(await page.getByTestId('conversations').textContent()).toContain('How many orders by status?');
    await screenshot('answer');
  });

  it('saves the answer as a test that `nao test validate` accepts, and never overwrites it', async () => {
    await lastAnswer().getByRole('button', { name: 'Save as test' }).click();
    const form = page.getByTestId('save-test');
    await form.getByLabel('Test name').fill('orders_by_status_chat');
    await form.getByRole('button', { name: 'Save', exact: true }).click();
    await expect
      .poll(() => form.getByTestId('save-status').textContent())
      .toBe('Saved tests/orders_by_status_chat.yml.');
    const text = await readFile(path.join(project.dir, 'tests', 'orders_by_status_chat.yml'), 'utf8');
    expect(text).toContain('prompt: How many orders by status?');
    // The agent's one-line query, laid out as a block like a hand-written test.
    expect(text).toContain(
      [
        'sql: |',
        '  SELECT',
        '    status,',
        '    COUNT(*) AS orders',
        '  FROM',
        '    orders',
        '  GROUP BY',
        '    status',
        '  ORDER BY',
        '    status',
        '',
      ].join('\n'),
    );
    await screenshot('save-as-test');

    await form.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => form.getByTestId('save-status').textContent()).toContain('already exists');

    const stdout = new PassThrough();
    const stderr = new PassThrough();
    let out = '';
    stdout.on('data', (chunk) => {
      out += chunk;
    });
    stderr.on('data', (chunk) => {
      out += chunk;
    });
    const code = await main(['node', 'nao', 'test', 'validate'], {
      stdout: Object.assign(stdout, { columns: 160 }),
      stderr,
      env: { PATH: process.env.PATH },
      cwd: project.dir,
    });
    expect(code, out).toBe(0);
  });

  it('saves and runs a test at once: the saved test, its verdict and the results file', async () => {
    const form = page.getByTestId('save-test');
    await form.getByLabel('Test name').fill('orders_by_status_run');
    await form.getByRole('button', { name: 'Save and run' }).click();
    const run = form.getByTestId('test-run');
    await expect
      .poll(() => run.getByTestId('test-run-verdict').allTextContents(), { timeout: 30_000 })
      .toEqual([expect.stringMatching(/^passed on openai:gpt-4\.1: match/)]);
    expect(await run.textContent()).toContain('tests/orders_by_status_run.yml');
    expect(await run.locator('pre.sql').textContent()).toContain('GROUP BY');
    const shown = /tests\/outputs\/results_[\d_]+\.json/.exec((await run.textContent()) ?? '')?.[0];
    expect(shown).toBeDefined();
    const saved = JSON.parse(await readFile(path.join(project.dir, shown!), 'utf8')) as {
      started_from: string;
      results: { name: string; status: string; details: { reference_sql: string } }[];
    };
    expect(saved.started_from).toBe('chat');
    expect(saved.results.map((result) => [result.name, result.status])).toEqual([
      ['orders_by_status_run', 'passed'],
    ]);
    // The saved test's query, laid out over lines, ran and passed: the same query as the answer's.
    const reference = saved.results[0]!.details.reference_sql;
    expect(reference.split('\n').length).toBeGreaterThan(1);
    expect(reference.replace(/\s+/g, ' ').trim()).toBe(COUNT_SQL);
    await run.scrollIntoViewIfNeeded();
    await screenshot('save-and-run');
  });

  it('cancels a running test run with its Cancel button, and shows the saved, cancelled run', async () => {
    const form = page.getByTestId('save-test');
    await form.getByLabel('Test name').fill('orders_by_status_cancel');
    slowAnswers = true;
    try {
      const before = llm.requests.length;
      await form.getByRole('button', { name: 'Save and run' }).click();
      const run = form.getByTestId('test-run');
      const cancel = run.getByRole('button', { name: 'Cancel run' });
      await cancel.waitFor();
      // The run is under way at the model before it is cancelled.
      await expect.poll(() => llm.requests.length, { timeout: 10_000 }).toBeGreaterThan(before);
      await cancel.click();
      await expect
        .poll(() => run.getByTestId('test-run-status').textContent(), { timeout: 15_000 })
        .toContain('Cancelled');
      expect(await run.getByTestId('test-run-verdict').allTextContents()).toEqual([
        expect.not.stringMatching(/^passed/),
      ]);
      expect(log.some((line) => /cancelled test run/.test(line))).toBe(true);
      await screenshot('test-run-cancelled');
    } finally {
      slowAnswers = false;
    }
  });

  it('stops a run with the stop button and keeps the conversation usable', async () => {
    await ask('A slow question');
    const stop = page.getByRole('button', { name: 'Stop' });
    await stop.waitFor();
    await stop.click();
    await lastAnswer().getByTestId('stopped').waitFor();
    await page.getByRole('button', { name: 'Send' }).waitFor({ state: 'attached' });
    await expect.poll(() => log.some((line) => line.includes('stopped after'))).toBe(true);
    await screenshot('stopped');
  });

  it('asks a clarifying question with option buttons, and answers the chosen one', async () => {
    // The page holds the conversation it creates and must not load it: a load answered before
    // the question was stored, landing after the streamed answer, took both off the page.
    const conversationLoad = /\/api\/chat\/conversations\/[^/]+$/;
    const loads: string[] = [];
    const onRequest = (request: Request) => {
      if (request.method() === 'GET' && conversationLoad.test(new URL(request.url()).pathname))
        loads.push(request.url());
    };
    page.on('request', onRequest);
    await page.getByRole('button', { name: '+ New conversation' }).click();
    await ask('What was our revenue?');
    const clarification = lastAnswer().getByTestId('clarification');
    await expect.poll(() => clarification.textContent()).toContain('Gross or net revenue?');
    page.off('request', onRequest);
    expect(loads).toEqual([]);
    expect(await page.getByTestId('user-message').allTextContents()).toEqual(['What was our revenue?']);
    await screenshot('clarification');
    await clarification.getByRole('button', { name: 'Net' }).click();
    await expect
      .poll(() => lastAnswer().getByTestId('answer-text').textContent())
      .toBe('Net revenue is revenue minus refunds.');
    // Left for a new one and opened again from the list, the conversation loads whole.
    await page.getByRole('button', { name: '+ New conversation' }).click();
    await expect.poll(() => page.getByTestId('user-message').count()).toBe(0);
    await page.getByTestId('conversations').getByText('What was our revenue?').click();
    await expect
      .poll(() => page.getByTestId('user-message').allTextContents())
      .toEqual(['What was our revenue?', 'Net']);
  });

  it('finds both conversations after a reload and after a server restart', async () => {
    // Leave the page first: requests it still had in flight would be refused by the closed server.
    await page.goto('about:blank');
    await backend.close();
    await startServer();
    // Cookies ignore ports: without clearing, the old session (kept in the store) would carry over.
    await page.context().clearCookies();
    await page.goto(`${backend.url}/chat/`);
    await page.waitForURL(/\/login/);
    await page.getByLabel('Email').fill('ada@example.com');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(`${backend.url}/chat/`);
    const list = page.getByTestId('conversations');
    await expect
      .poll(() => list.locator('li').allTextContents())
      .toEqual(['What was our revenue?', 'How many orders by status?']);
    await list.getByText('How many orders by status?').click();
    await expect
      .poll(() => page.getByTestId('user-message').allTextContents())
      .toEqual(['How many orders by status?', 'A slow question']);
    expect(await page.getByTestId('result-table').count()).toBe(1);
    expect(await page.getByTestId('stopped').count()).toBe(1);
    await screenshot('reloaded');
  });

  it('keeps a conversation from any other user (404, and not in their list)', async () => {
    const conversations = (await page.evaluate(() =>
      fetch('/api/chat/conversations').then((r) => r.json()),
    )) as {
      conversations: { id: string }[];
    };
    const id = conversations.conversations[0]!.id;
    const signup = await fetch(`${backend.url}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'bob@example.com', password: 'pw-bob-chat-1234' }),
    });
    const { token } = (await signup.json()) as { token: string };
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const read = await fetch(`${backend.url}/api/chat/conversations/${id}`, { headers });
    expect(read.status).toBe(404);
    const post = await fetch(`${backend.url}/api/chat/conversations/${id}/messages`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ prompt: 'How many orders by status?', model: 'openai:gpt-4.1' }),
    });
    expect(post.status).toBe(404);
    const list = await fetch(`${backend.url}/api/chat/conversations`, { headers });
    expect(await list.json()).toEqual({ conversations: [] });
  });

  it('shows a model error in place of the answer', async () => {
    await ask('Something nobody scripted');
    await expect
      .poll(() => lastAnswer().getByTestId('answer-error').textContent())
      .toContain('no scripted answer for this question');
    await screenshot('model-error');
  });

  it('refuses bad requests with messages, and serves nothing outside the bundle', async () => {
    // From Node with the page's session cookie: the browser would log the refusals as console errors.
    const cookie = (await page.context().cookies()).map((entry) => `${entry.name}=${entry.value}`).join('; ');
    const call = async (method: string, url: string, body?: unknown) => {
      const response = await fetch(`${backend.url}${url}`, {
        method,
        redirect: 'manual',
        headers: { cookie, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: response.status, text: await response.text() };
    };
    const { conversation } = JSON.parse((await call('POST', '/api/chat/conversations', {})).text) as {
      conversation: { id: string; title: string };
    };
    expect(conversation.title).toBe('New conversation');
    const messages = `/api/chat/conversations/${conversation.id}/messages`;
    expect(await call('POST', messages, { prompt: 'hi', model: 'openai:gpt-9' })).toMatchObject({
      status: 400,
      text: expect.stringContaining('openai:gpt-9 is not configured'),
    });
    expect(await call('POST', messages, { prompt: '  ', model: 'openai:gpt-4.1' })).toMatchObject({
      status: 400,
      text: expect.stringContaining('prompt is required'),
    });
    expect(await call('POST', '/api/tests', { name: '../x', prompt: 'q', sql: 'SELECT 1' })).toMatchObject({
      status: 400,
      text: expect.stringContaining('Invalid test name'),
    });
    for (const url of ['/chat/..%2f..%2fpackage.json', '/chat/%E0%A4%A', '/chat/assets/missing.js']) {
      expect((await call('GET', url)).status, url).toBe(404);
    }
    expect((await call('GET', '/chat/')).text).toContain('<div id="app">');
    expect((await fetch(`${backend.url}/api/chat/conversations`)).status).toBe(401);
  });

  it('left no errors in the page', () => {
    expect(problems).toEqual([]);
  });
});
