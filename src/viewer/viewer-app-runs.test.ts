import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppRunJob, AppRunRequest } from '../app-runs/app-run-types.js';
import type { AppRunner } from '../app-runs/index.js';
import { createResultsStore } from './results-store.js';
import { createViewerApp } from './viewer-app.js';

const JOB: AppRunJob = {
  id: 'job-1',
  state: 'running',
  tests: ['total_revenue'],
  models: ['openai:gpt-4.1'],
  total: 1,
  finished: 0,
  file: null,
  path: null,
  runs: [],
  error: null,
};

let root: string;
const started: AppRunRequest[] = [];
const cancelled: string[] = [];
const runner: AppRunner = {
  status: async () => ({
    state: 'ready',
    mode: 'backend',
    backendUrl: 'http://localhost:5005',
    user: 'ada@example.com',
    models: ['openai:gpt-4.1'],
  }),
  start: async (request) => {
    started.push(request);
    return request.tests.includes('busy')
      ? {
          success: false,
          status: 409,
          error: 'A run started from here is still going; wait for it to finish.',
        }
      : { success: true, job: JOB };
  },
  job: (id) => (id === JOB.id ? JOB : null),
  cancel: (id) => {
    cancelled.push(id);
    return id === JOB.id
      ? { success: true, job: { ...JOB, cancelled: true } }
      : { success: false, status: 404, error: `No test run ${id}.` };
  },
  close: async () => {},
};

function app(withRunner: boolean) {
  return createViewerApp({
    store: createResultsStore({ outputsDir: path.join(root, 'outputs') }),
    assetsDir: root,
    allowedHosts: null,
    ...(withRunner ? { runner } : {}),
  });
}

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'nao-viewer-runs-'));
  await writeFile(path.join(root, 'index.html'), '<!doctype html>');
});
afterAll(() => rm(root, { recursive: true, force: true }));

const post = (body: unknown, headers: Record<string, string> = {}) =>
  app(true).request('http://127.0.0.1:8765/api/app-runs', {
    method: 'POST',
    headers: { host: '127.0.0.1:8765', 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

describe('the viewer API for Run again', () => {
  it('passes the runner status on, or says runs are not available', async () => {
    expect(await (await app(true).request('/api/app-runs/status')).json()).toMatchObject({ state: 'ready' });
    expect(await (await app(false).request('/api/app-runs/status')).json()).toMatchObject({
      state: 'unavailable',
      reason: 'disabled',
    });
  });

  it('starts a run from the page (202) and reads its job; an unknown job is a 404', async () => {
    const request = { tests: ['total_revenue'], models: ['openai:gpt-4.1'] };
    const response = await post(request, {
      origin: 'http://127.0.0.1:8765',
      'sec-fetch-site': 'same-origin',
    });
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({ job: JOB });
    expect(started.at(-1)).toEqual(request);
    expect(await (await app(true).request('/api/app-runs/job-1')).json()).toEqual({ job: JOB });
    expect((await app(true).request('/api/app-runs/nope')).status).toBe(404);
  });

  it('refuses a run from another site, a non-JSON body and a bad request, before the runner sees it', async () => {
    const count = started.length;
    const request = { tests: ['total_revenue'], models: ['openai:gpt-4.1'] };
    expect((await post(request, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await post(request, { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await post(JSON.stringify(request), { 'content-type': 'text/plain' })).status).toBe(415);
    const bad = await post({ tests: [], models: ['openai:gpt-4.1'] });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toContain('Invalid run request');
    expect((await post({ tests: ['total_revenue'], models: [] })).status).toBe(400);
    expect((await post('{not json')).status).toBe(400);
    expect(started.length).toBe(count);
  });

  it("answers with the runner's refusal", async () => {
    const response = await post({ tests: ['busy'], models: ['openai:gpt-4.1'] });
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual({ error: expect.stringContaining('still going') });
  });
});

describe('the viewer API for Cancel', () => {
  const cancel = (id: string, headers: Record<string, string> = {}) =>
    app(true).request(`http://127.0.0.1:8765/api/app-runs/${id}`, {
      method: 'DELETE',
      headers: { host: '127.0.0.1:8765', ...headers },
    });

  it("cancels the page's run and answers with the job; an unknown job is the runner's 404", async () => {
    const response = await cancel('job-1', {
      origin: 'http://127.0.0.1:8765',
      'sec-fetch-site': 'same-origin',
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ job: { ...JOB, cancelled: true } });
    const unknown = await cancel('nope');
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: 'No test run nope.' });
  });

  it('refuses a cancel from another site before the runner sees it', async () => {
    const count = cancelled.length;
    expect((await cancel('job-1', { origin: 'https://evil.example' })).status).toBe(403);
    expect((await cancel('job-1', { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect(cancelled.length).toBe(count);
  });
});
