import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLAUDE, FILES, GPT, writeViewerFixtures } from '../../test-support/viewer/viewer-fixtures.js';
import type { ResultsFile } from '../results/index.js';
import type {
  CompareResponse,
  FileListResponse,
  FileOverview,
  HistoryResponse,
  RunDetailResponse,
} from './api-types.js';
import { createResultsStore } from './results-store.js';
import { createViewerApp } from './viewer-app.js';

let root: string;
let app: ReturnType<typeof createViewerApp>;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'nao-viewer-app-'));
  const outputsDir = path.join(root, 'tests', 'outputs');
  await writeViewerFixtures(outputsDir);
  const assetsDir = path.join(root, 'assets');
  await mkdir(path.join(assetsDir, 'assets'), { recursive: true });
  await writeFile(path.join(assetsDir, 'index.html'), '<!doctype html><title>viewer</title>');
  await writeFile(path.join(assetsDir, 'assets', 'index-abc123.js'), 'console.log(1)');
  app = createViewerApp({ store: createResultsStore({ outputsDir }), assetsDir, allowedHosts: null });
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function getJson<T>(url: string): Promise<T> {
  const response = await app.request(url);
  expect(response.status, `${url}: ${await response.clone().text()}`).toBe(200);
  return (await response.json()) as T;
}

const file = (name: string) => `/api/files/${encodeURIComponent(name)}`;

describe('viewer API', () => {
  it('lists the results files newest first', async () => {
    const list = await getJson<FileListResponse>('/api/files');
    expect(list.outputsDir).toBe(path.join(root, 'tests', 'outputs'));
    expect(list.files.map((entry) => entry.name)).toEqual([
      FILES.repeat,
      FILES.multi,
      FILES.old,
      FILES.broken,
    ]);
    expect(list.files[0]).toMatchObject({ size: expect.any(Number), modified: expect.any(String) });
  });

  it('serves a whole file, with by_model computed for an old one', async () => {
    const old = await getJson<ResultsFile>(file(FILES.old));
    expect(old.results).toHaveLength(5);
    expect(old.by_model.map((entry) => [entry.model, entry.pass_rate])).toEqual([
      [CLAUDE, 100],
      [GPT, 66.7],
    ]);
  });

  it('gives the overview the dashboard draws', async () => {
    const overview = await getJson<FileOverview>(`${file(FILES.multi)}/overview`);
    expect(overview).toMatchObject({
      name: FILES.multi,
      timestamp: '2025-01-02T10:00:00.000000',
      pass_rate: 50,
      repeat: 1,
      repeats: null,
      models: [GPT, CLAUDE],
      tests: ['total_revenue', 'top_customers', 'orders_by_status', 'say_hello', 'monthly_revenue'],
    });
    expect(overview.summary).toMatchObject({
      total: 10,
      passed: 5,
      failed: 5,
      errors: 1,
      unverified: 2,
      total_tokens: 10_000,
      total_cost: 0.05,
      runs_without_cost: 5,
      total_duration_ms: 15_000,
      total_tool_calls: 14,
    });
    expect(overview.by_model.map((entry) => entry.model)).toEqual([CLAUDE, GPT]);
    expect(overview.runs[5]).toEqual({
      index: 5,
      name: 'total_revenue',
      model: CLAUDE,
      status: 'failed',
      message: 'values differ',
      tokens: 800,
      cost: null,
      duration_ms: 1500,
      tool_call_count: 2,
      attempt: 1,
      file: 'total_revenue.yml',
      judged: false,
    });
    expect(JSON.stringify(overview)).not.toContain('response_text');
  });

  it('carries the repeat statistics', async () => {
    const overview = await getJson<FileOverview>(`${file(FILES.repeat)}/overview`);
    expect(overview.repeat).toBe(3);
    const flaky = overview.repeats?.find((entry) => entry.flaky);
    expect(flaky).toMatchObject({ name: 'total_revenue', model: CLAUDE, runs: 3, passes: 2 });
    expect(flaky?.pass_hat_k).toBeCloseTo(8 / 27, 10);
  });

  it('computes the repeat statistics of a repeated file that lacks them', async () => {
    const outputsDir = path.join(root, 'tests', 'outputs');
    const withRepeats = await getJson<ResultsFile>(file(FILES.repeat));
    const { repeats: _repeats, ...withoutRepeats } = withRepeats;
    await writeFile(path.join(outputsDir, 'results_20250104_100000.json'), JSON.stringify(withoutRepeats));
    try {
      const overview = await getJson<FileOverview>(`${file('results_20250104_100000.json')}/overview`);
      expect(overview.repeats).toEqual(withRepeats.repeats);
    } finally {
      await rm(path.join(outputsDir, 'results_20250104_100000.json'));
    }
  });

  it('serves one run with its details', async () => {
    const detail = await getJson<RunDetailResponse>(`${file(FILES.multi)}/runs/5`);
    expect(detail).toMatchObject({ file: FILES.multi, index: 5, total: 10 });
    expect(detail.run.details.diff).toMatchObject({ kind: 'values' });
    expect(detail.run.details.tool_calls[0]?.tool_name).toBe('execute_sql');
  });

  it('compares two files with links to the runs on both sides', async () => {
    const comparison = await getJson<CompareResponse>(
      `/api/compare?before=${FILES.old}&after=${encodeURIComponent(FILES.multi)}`,
    );
    expect(
      comparison.regressions.map((pair) => [pair.name, pair.model, pair.beforeRun, pair.afterRun]),
    ).toEqual([['total_revenue', CLAUDE, 1, 5]]);
    expect(comparison.fixes.map((pair) => [pair.name, pair.model, pair.beforeRun, pair.afterRun])).toEqual([
      ['total_revenue', GPT, 0, 0],
    ]);
    expect(comparison.unchanged).toHaveLength(2);
    expect(comparison.added).toHaveLength(6);
    expect(comparison.added.every((pair) => pair.beforeRun === null && pair.afterRun !== null)).toBe(true);
    expect(comparison.removed.map((pair) => [pair.name, pair.beforeRun, pair.afterRun])).toEqual([
      ['removed_test', 4, null],
    ]);
  });

  it('links a repeated pair to the attempt that explains its outcome', async () => {
    const comparison = await getJson<CompareResponse>(
      `/api/compare?before=${FILES.multi}&after=${FILES.repeat}`,
    );
    // total_revenue/Claude went P F P: "failed" overall, so the link opens the failed attempt.
    const pair = comparison.unchanged.find(
      (entry) => entry.name === 'total_revenue' && entry.model === CLAUDE,
    );
    expect(pair?.afterRun).toBe(7);
  });

  it('gives the history of every readable file', async () => {
    const history = await getJson<HistoryResponse>('/api/history');
    expect(history.files.map((point) => point.name)).toEqual([FILES.old, FILES.multi, FILES.repeat]);
    expect(history.unreadable.map((entry) => entry.name)).toEqual([FILES.broken]);
  });

  it.each([
    ['/api/files/..%2F..%2Fresults_secret.json', 400],
    ['/api/files/%2e%2e%2Fresults_secret.json', 400],
    ['/api/files/%252e%252e%252fresults_secret.json', 400],
    ['/api/files/..%5Cresults_secret.json', 400],
    ['/api/files/results_x.json%00', 400],
    ['/api/files/nao_config.yaml', 400],
    ['/api/files/notes.json', 400],
    ['/api/files/sub/results_x.json', 400],
    ['/api/files/..%2Fresults_secret.json/overview', 400],
    ['/api/compare?before=..%2Fresults_secret.json&after=results_20250102_100000.json', 400],
    ['/api/compare?before=results_20250102_100000.json', 400],
    ['/api/files/results_20990101_000000.json', 404],
    ['/api/files/results_20250102_100000.json/runs/10', 404],
    ['/api/files/results_20250102_100000.json/runs/-1', 400],
    ['/api/files/results_20250102_100000.json/runs/1e3', 400],
    ['/api/files/results_20241231_000000.json/overview', 422],
    ['/api/nothing', 404],
  ])('%s → %d with a JSON error', async (url, status) => {
    const response = await app.request(url);
    expect(response.status).toBe(status);
    const body = (await response.json()) as { error?: unknown };
    expect(typeof body.error).toBe('string');
    expect(JSON.stringify(body)).not.toContain('"secret"');
  });

  it('serves the web UI with a policy that only allows its own origin', async () => {
    const page = await app.request('/');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    const script = await app.request('/assets/index-abc123.js');
    expect(script.headers.get('content-type')).toContain('text/javascript');
    expect(script.headers.get('cache-control')).toContain('immutable');
    expect((await app.request('/assets/missing.js')).status).toBe(404);
    expect((await app.request('/assets/..%2Findex.html')).status).toBe(400);
    expect((await app.request('/package.json')).status).toBe(404);
  });

  it('refuses a foreign Host header when told to (DNS rebinding)', async () => {
    const guarded = createViewerApp({
      store: createResultsStore({ outputsDir: path.join(root, 'tests', 'outputs') }),
      assetsDir: path.join(root, 'assets'),
      allowedHosts: ['127.0.0.1', 'localhost'],
    });
    const evil = await guarded.request('http://evil.example:8765/api/files', {
      headers: { host: 'evil.example:8765' },
    });
    expect(evil.status).toBe(403);
    const local = await guarded.request('http://127.0.0.1:8765/api/files', {
      headers: { host: '127.0.0.1:8765' },
    });
    expect(local.status).toBe(200);
  });
});
