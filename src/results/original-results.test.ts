import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLAUDE, fixtureRun, GPT } from '../../test-support/viewer/viewer-fixtures.js';
import { buildOverview } from '../viewer/file-overview.js';
import { buildResultsFile } from './build-results-file.js';
import { readResultsFile } from './read-results.js';
import type { RunStatus } from './results-file.js';
import { writeResultsFile } from './write-results.js';

/** Results files written by the original nao (see test-support/original-nao/results/README.md). */
const ORIGINAL = path.resolve(import.meta.dirname, '../../test-support/original-nao/results');

// biome-ignore lint/suspicious/noExplicitAny: the original viewer's page reads the file as untyped JSON.
type Json = Record<string, any>;

/** A value React renders as text or nothing; an object as a child crashes the page. */
function renderable(value: unknown, where: string): unknown {
  if (value !== null && typeof value === 'object') throw new Error(`${where} would render an object`);
  return value;
}

/**
 * What the original nao's results viewer (the page of cli/nao_core/commands/test/server.py)
 * evaluates on a file, expression by expression: the summary cards, the runs table (or the
 * metrics table of repeated runs) and every run's detail modal. Throws where the page would.
 */
function renderInOriginalViewer(data: Json): string[] {
  const out: string[] = [];
  const { summary, results, timestamp, metrics, k } = data;
  const passRate = summary.total > 0 ? Math.round((summary.passed / summary.total) * 100) : 0;
  const hasMetrics = Array.isArray(metrics) && metrics.length > 0;
  const pct = (v: number | null | undefined) => (v == null ? '-' : `${Math.round(v * 100)}%`);
  out.push(`${passRate}%`, String(renderable(summary.passed, 'summary.passed')));
  out.push(String(renderable(summary.failed, 'summary.failed')));
  if (hasMetrics) {
    out.push(pct(metrics.reduce((acc: number, m: Json) => acc + (m.pass_at_k || 0), 0) / metrics.length));
    out.push(String(renderable(k, 'k')));
  } else out.push(String(renderable(summary.total, 'summary.total')));
  out.push(summary.total_tokens.toLocaleString(), `$${summary.total_cost.toFixed(4)}`);
  out.push(`${renderable(summary.total_duration_s, 'total_duration_s')}s`, String(summary.total_tool_calls));
  out.push(
    new Date(timestamp).toLocaleString(),
    String(summary.avg_duration_ms),
    String(summary.avg_tool_calls),
  );
  // The per-model table of a file with several models.
  if (Array.isArray(data.by_model) && data.by_model.length > 1) {
    for (const m of data.by_model) {
      out.push(String(renderable(m.model, 'by_model[].model')), `${m.pass_rate.toFixed(1)}%`);
      out.push(`${m.passed}/${m.total}`, m.total_tokens.toLocaleString(), `$${m.total_cost.toFixed(4)}`);
      out.push(
        `${m.total_duration_s.toFixed(1)}s`,
        String(renderable(m.total_tool_calls, 'total_tool_calls')),
      );
    }
  }
  if (hasMetrics) {
    for (const m of metrics) {
      renderable(m.name, 'metrics[].name');
      renderable(m.model, 'metrics[].model');
      out.push(`${m.successes}/${m.attempts}`, pct(m.pass_pow_k), (m.tokens || 0).toLocaleString());
      out.push(`$${(m.cost || 0).toFixed(4)}`, `${((m.duration_ms || 0) / 1000).toFixed(1)}s`);
      results.find((r: Json) => r.name === m.name && r.model === m.model);
    }
  }
  for (const r of results) {
    out.push(
      r.passed ? '✓ Pass' : '✗ Fail',
      String(renderable(r.name, 'name')),
      String(renderable(r.model, 'model')),
    );
    out.push(
      String(renderable(r.message, 'message')),
      (r.tokens || 0).toLocaleString(),
      `$${(r.cost || 0).toFixed(4)}`,
    );
    out.push(`${((r.duration_ms || 0) / 1000).toFixed(1)}s`, String(r.tool_call_count || 0));
    out.push(...renderModal(r));
  }
  return out;
}

function renderModal(result: Json): string[] {
  const out: string[] = [];
  const details = result.details || {};
  out.push(`${(result.tokens || 0).toLocaleString()}`, `$${(result.cost || 0).toFixed(4)}`);
  out.push(`${result.duration_ms || 0}ms`, String(result.tool_call_count || 0));
  if (result.error) out.push(String(renderable(result.error, 'error')));
  if (details.response_text) out.push(String(renderable(details.response_text, 'details.response_text')));
  if (details.tool_calls && details.tool_calls.length > 0) {
    for (const tc of details.tool_calls) {
      out.push(String(renderable(tc.toolName, 'tool_calls[].toolName')));
      const { toolName, args } = tc;
      if (toolName === 'execute_sql' && args && typeof args.sql_query === 'string') {
        const { sql_query, ...otherArgs } = args;
        out.push(sql_query);
        if (Object.keys(otherArgs).length > 0) out.push(JSON.stringify(otherArgs, null, 2));
      } else out.push(JSON.stringify(args, null, 2));
      if (tc.result !== undefined) {
        out.push(typeof tc.result === 'string' ? tc.result : JSON.stringify(tc.result, null, 2));
      }
    }
  }
  if (details.reference_sql) out.push(String(renderable(details.reference_sql, 'details.reference_sql')));
  for (const data of [details.actual_data, details.expected_data]) {
    if (!data || data.length === 0) continue;
    const columns = Object.keys(data[0]);
    for (const row of data) for (const c of columns) out.push(String(row[c] ?? ''));
  }
  if (details.comparison) out.push(String(renderable(details.comparison, 'details.comparison')));
  return out;
}

describe('our results files in the original nao viewer', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'nao-original-viewer-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function written(plan: [string, string, RunStatus][], day: number): Promise<Json> {
    const file = buildResultsFile({
      results: plan.map(([test, model, status]) => fixtureRun({ test, model, status })),
      now: new Date(2026, 0, day, 10, 0, 0),
      models: [...new Set(plan.map(([, model]) => model))],
    });
    const written = await writeResultsFile({ outputsDir: dir, file, now: new Date(2026, 0, day, 10, 0, 0) });
    return JSON.parse(await readFile(written, 'utf8'));
  }

  it('renders a file with every status and an unpriced model', async () => {
    const data = await written(
      [
        ['total_revenue', GPT, 'passed'],
        ['top_customers', GPT, 'failed'],
        ['orders_by_status', GPT, 'error'],
        ['say_hello', GPT, 'unverified'],
        ['total_revenue', CLAUDE, 'passed'],
        ['monthly_revenue', CLAUDE, 'skipped'],
      ],
      10,
    );
    const page = renderInOriginalViewer(data);
    // The GPT runs are priced, the Claude ones are not (cost null, shown as $0.0000 per run).
    expect(data.summary.total_cost).toBe(0.04);
    expect(page).toContain('$0.0400');
    // Its model table: the unpriced model's cost is a number (0), `runs_without_cost` says why.
    const claude = data.by_model.find((m: Json) => m.model === CLAUDE);
    expect(claude).toMatchObject({ total_cost: 0, runs_without_cost: 1 });
    expect(page).toEqual(expect.arrayContaining([CLAUDE, '100.0%', '$0.0000']));
    // Read back by nao, that model's cost is unknown again, the priced one's is kept.
    const reread = await readResultsFile(
      path.join(dir, (await readdir(dir)).find((n) => n.startsWith('results_20260110'))!),
    );
    expect(reread.by_model?.find((m) => m.model === CLAUDE)?.total_cost).toBeNull();
    expect(reread.by_model?.find((m) => m.model === GPT)?.total_cost).toBe(0.04);
    // The original's numbers: pass rate of the runs that ran, failed = total - passed.
    expect(data.summary).toMatchObject({ total: 5, passed: 2, failed: 3, errors: 1, unverified: 1 });
    expect(page.slice(0, 3)).toEqual(['40%', '2', '3']);
    const failed = data.results.find((r: Json) => r.details.diff !== null);
    expect(typeof failed.details.comparison).toBe('string');
    expect(failed.details.verification_sql).toBe(failed.details.extraction_sql);
    const errored = data.results.find((r: Json) => r.status === 'error');
    expect(errored.error).toBe(errored.details.error);
    expect(data.results[0].details.tool_calls[0]).toMatchObject({
      toolName: 'execute_sql',
      tool_name: 'execute_sql',
    });
  });

  it('renders a file where no model has a price, as $0.0000 in its cards', async () => {
    const data = await written(
      [
        ['total_revenue', CLAUDE, 'passed'],
        ['top_customers', CLAUDE, 'failed'],
      ],
      11,
    );
    expect(data.summary.total_cost).toBe(0);
    expect(renderInOriginalViewer(data)).toContain('$0.0000');
    // Read back by nao, the cost is unknown again, not 0.
    const files = (await import('node:fs/promises')).readdir(dir);
    const name = (await files).find((entry) => entry.startsWith('results_20260111'))!;
    expect((await readResultsFile(path.join(dir, name))).summary.total_cost).toBeNull();
  });
});

describe("the original nao's results files in nao", () => {
  it.each(['results_20260217_001248.json', 'results_20260212_100411.json', 'results_20260213_090000.json'])(
    '%s renders in its own viewer and loads in nao',
    async (name) => {
      const raw = JSON.parse(await readFile(path.join(ORIGINAL, name), 'utf8'));
      expect(() => renderInOriginalViewer(raw)).not.toThrow();
      const file = await readResultsFile(path.join(ORIGINAL, name));
      expect(file.results).toHaveLength(raw.results.length);
      expect(file.summary.total).toBe(raw.summary.total);
    },
  );

  it('shows the pass rate the original shows when every run was verified', async () => {
    const file = await readResultsFile(path.join(ORIGINAL, 'results_20260217_001248.json'));
    expect(file.summary).toMatchObject({ total: 1, passed: 0, failed: 1, total_cost: 0.871056 });
    expect(file.recounted).toBeUndefined();
    const overview = buildOverview({ name: 'results_20260217_001248.json', file });
    expect(overview.pass_rate).toBe(0);
    expect(overview.recounted).toBeNull();
    expect(file.results[0]?.details.tool_calls.map((call) => call.tool_name)).toContain('query_metrics');
  });

  it('says why its pass rate differs when the original counted a run without verification as passed', async () => {
    const name = 'results_20260212_100411.json';
    const raw = JSON.parse(await readFile(path.join(ORIGINAL, name), 'utf8'));
    const file = await readResultsFile(path.join(ORIGINAL, name));
    expect(raw.summary).toMatchObject({ total: 6, passed: 4 });
    expect(file.summary).toMatchObject({ total: 6, passed: 3, failed: 3, errors: 1, unverified: 1 });
    expect(file.results.find((r) => r.name === 'churn_last_month')?.status).toBe('unverified');
    expect(file.results.find((r) => r.name === 'top_customers')).toMatchObject({
      status: 'error',
      error: 'Test run failed: 500 - {"error":"provider error"}',
    });
    const overview = buildOverview({ name, file });
    expect(overview.recounted).toContain('This file counts 4 of 6 runs as passed; nao counts 3');
    expect(overview.recounted).toContain("The file's own pass rate is 66.7%; nao shows 50.0%.");
  });

  it('loads a run whose name is a number', async () => {
    const file = await readResultsFile(path.join(ORIGINAL, 'results_20260212_100411.json'));
    expect(file.results.map((r) => r.name)).toContain('2024');
  });

  it('keeps the text diff the original wrote', async () => {
    const file = await readResultsFile(path.join(ORIGINAL, 'results_20260212_100411.json'));
    const differ = file.results.find((r) => r.message === 'values differ');
    expect(differ?.details.diff?.text).toContain('actual expected');
    expect(differ?.details.comparison).toContain('actual expected');
  });
});
