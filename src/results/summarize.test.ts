import { describe, expect, it } from 'vitest';
import { judgedDetails, resultsFile, run } from '../../test-support/results/run-fixture.js';
import type { ModelSummary } from './results-file.js';
import { ensureByModel, failedRuns, passRate, summarize, summarizeByModel } from './summarize.js';

describe('summarize', () => {
  it('reproduces the reference summary of three passing runs', () => {
    const results = ['total_revenue', 'customer_metrics', 'orders'].map((name) =>
      run({ name, tokens: 1250, cost: 0.0125, duration_ms: 234, tool_call_count: 1 }),
    );
    expect(summarize(results)).toEqual({
      total: 3,
      passed: 3,
      failed: 0,
      errors: 0,
      unverified: 0,
      skipped: 0,
      total_tokens: 3750,
      total_cost: 0.0375,
      runs_without_cost: 0,
      total_extraction_cost: null,
      judged: 0,
      judged_passed: 0,
      total_judge_cost: null,
      total_duration_ms: 702,
      total_duration_s: 0.7,
      total_tool_calls: 3,
      avg_duration_ms: 234,
      avg_tool_calls: 1.0,
      // Wilson's interval of 3/3 (Newcombe 1998's method 3): never [100, 100].
      pass_rate_ci95: [43.9, 100],
      pass_rate_ci_method: 'wilson',
    });
  });

  it('counts every status apart and keeps skipped runs out of totals and averages', () => {
    const summary = summarize([
      run({ status: 'passed', duration_ms: 1000, tool_call_count: 2 }),
      run({ status: 'failed', duration_ms: 2000, tool_call_count: 3 }),
      run({ status: 'error', duration_ms: 3000, tool_call_count: 0 }),
      run({ status: 'unverified', duration_ms: 500, tool_call_count: 1 }),
      run({ status: 'skipped', duration_ms: 0, tool_call_count: 0 }),
    ]);
    // `failed` is total - passed, as the original counts it; one of the three was judged wrong.
    expect(summary).toMatchObject({ total: 4, passed: 1, failed: 3, errors: 1, unverified: 1, skipped: 1 });
    expect(failedRuns(summary)).toBe(1);
    expect(summary.total_duration_ms).toBe(6500);
    expect(summary.avg_duration_ms).toBe(1625);
    expect(summary.avg_tool_calls).toBe(1.5);
    expect(summary.runs_without_cost).toBe(0);
  });

  it('counts judged runs apart, inside passed and failed, with the judge cost beside the agent cost', () => {
    const summary = summarize([
      run({ status: 'passed', cost: 0.01, details: judgedDetails({ cost: 0.001 }) }),
      run({ status: 'failed', cost: 0.01, details: judgedDetails({ verdict: 'fail', cost: 0.002 }) }),
      run({
        status: 'error',
        cost: 0.01,
        details: { ...judgedDetails({ verdict: null, error: 'unreadable', cost: null }), judged: false },
      }),
      run({ status: 'passed', cost: 0.01 }),
    ]);
    expect(summary).toMatchObject({
      passed: 2,
      failed: 2,
      errors: 1,
      judged: 2,
      judged_passed: 1,
      total_cost: 0.04,
      total_judge_cost: 0.003,
    });
    expect(failedRuns(summary)).toBe(1);
  });

  it.each<[string, Array<number | null>, number | null, number]>([
    ['all known', [0.01, 0.02], 0.03, 0],
    ['one unknown', [0.01, null], 0.01, 1],
    ['none known', [null, null], null, 2],
    ['a free run is known, not unknown', [0, null], 0, 1],
  ])('total_cost: %s', (_label, costs, total, unknown) => {
    const summary = summarize(costs.map((cost) => run({ cost })));
    expect(summary.total_cost).toBe(total);
    expect(summary.runs_without_cost).toBe(unknown);
  });

  it('sums the extraction cost apart from the agent cost', () => {
    const summary = summarize([
      run({ cost: 0.1, details: { extraction_cost: 0.002 } }),
      run({ cost: 0.1, details: { extraction_cost: null } }),
    ]);
    expect(summary.total_cost).toBe(0.2);
    expect(summary.total_extraction_cost).toBe(0.002);
  });

  it('gives zero averages for an empty or all-skipped list instead of NaN', () => {
    const summary = summarize([run({ status: 'skipped' })]);
    expect(summary).toMatchObject({
      total: 0,
      skipped: 1,
      avg_duration_ms: 0,
      avg_tool_calls: 0,
      total_cost: null,
    });
  });

  it('survives missing numbers from old files', () => {
    const old = { ...run(), tokens: null, duration_ms: null, tool_call_count: null } as unknown as ReturnType<
      typeof run
    >;
    expect(summarize([old])).toMatchObject({ total_tokens: 0, total_duration_ms: 0, total_tool_calls: 0 });
  });
});

describe('passRate', () => {
  it.each([
    [1, 1, 100.0],
    [1, 2, 50.0],
    [2, 3, 66.7],
    [1, 3, 33.3],
    [0, 4, 0],
    [0, 0, 0],
  ])('%i of %i → %d', (passed, total, rate) => {
    expect(passRate(passed, total)).toBe(rate);
  });
});

function ranking(summaries: ModelSummary[]): string[] {
  return summaries.map((summary) => summary.model);
}

describe('summarizeByModel ranking', () => {
  it('ranks by pass rate first', () => {
    const results = [
      run({ model: 'a:cheap', status: 'failed', cost: 0.001 }),
      run({ model: 'a:cheap', status: 'passed', cost: 0.001 }),
      run({ model: 'b:dear', status: 'passed', cost: 1 }),
      run({ model: 'b:dear', status: 'passed', cost: 1 }),
    ];
    expect(ranking(summarizeByModel(results))).toEqual(['b:dear', 'a:cheap']);
  });

  it('breaks a pass-rate tie by cost, the cheapest first', () => {
    const results = [run({ model: 'x:dear', cost: 0.5 }), run({ model: 'y:cheap', cost: 0.1 })];
    expect(ranking(summarizeByModel(results))).toEqual(['y:cheap', 'x:dear']);
  });

  it('ranks an unknown cost after every known one', () => {
    const results = [
      run({ model: 'a:unpriced', cost: null }),
      run({ model: 'b:dear', cost: 9 }),
      run({ model: 'c:cheap', cost: 0.1 }),
    ];
    expect(ranking(summarizeByModel(results))).toEqual(['c:cheap', 'b:dear', 'a:unpriced']);
  });

  it('breaks a full tie by model name', () => {
    const results = [run({ model: 'zeta:m', cost: null }), run({ model: 'alpha:m', cost: null })];
    expect(ranking(summarizeByModel(results))).toEqual(['alpha:m', 'zeta:m']);
  });

  it('compares pass rates exactly, not on the rounded percent', () => {
    // 2/3 = 66.666…% and 667/1000 = 66.7% print the same but are not equal.
    const results = [
      ...Array.from({ length: 3 }, (_, i) =>
        run({ model: 'a:m', status: i < 2 ? 'passed' : 'failed', cost: 0 }),
      ),
      ...Array.from({ length: 1000 }, (_, i) =>
        run({ model: 'b:m', status: i < 667 ? 'passed' : 'failed', cost: 1 }),
      ),
    ];
    const byModel = summarizeByModel(results);
    expect(byModel.map((summary) => summary.pass_rate)).toEqual([66.7, 66.7]);
    expect(ranking(byModel)).toEqual(['b:m', 'a:m']);
  });

  it('compares cost per run, so a model that ran fewer tests is not cheaper for it', () => {
    const results = [
      run({ model: 'few:m', cost: 0.2 }),
      run({ model: 'many:m', cost: 0.1 }),
      run({ model: 'many:m', cost: 0.1 }),
      run({ model: 'many:m', cost: 0.1 }),
    ];
    expect(ranking(summarizeByModel(results))).toEqual(['many:m', 'few:m']);
  });

  it('puts a model none of whose runs ran last, and lists configured models without results', () => {
    const results = [
      run({ model: 'a:all-skipped', status: 'skipped' }),
      run({ model: 'b:ran', status: 'failed' }),
    ];
    const byModel = summarizeByModel(results, { modelOrder: ['c:configured', 'a:all-skipped', 'b:ran'] });
    expect(ranking(byModel)).toEqual(['b:ran', 'a:all-skipped', 'c:configured']);
    expect(byModel[1]).toMatchObject({ total: 0, skipped: 1, pass_rate: 0 });
    expect(byModel[2]).toMatchObject({ total: 0, skipped: 0 });
  });

  it('holds the reference fields per model', () => {
    const [summary] = summarizeByModel([run({ tokens: 1250, cost: 0.0125, duration_ms: 234 })]);
    expect(summary).toMatchObject({
      model: 'openai:gpt-4.1',
      total: 1,
      passed: 1,
      failed: 0,
      pass_rate: 100,
      total_tokens: 1250,
      total_cost: 0.0125,
      total_duration_ms: 234,
      avg_duration_ms: 234,
      total_tool_calls: 1,
      avg_tool_calls: 1,
    });
  });
});

describe('ensureByModel', () => {
  it('computes by_model for a file written before it existed', () => {
    const results = [run({ model: 'a:m', status: 'failed' }), run({ model: 'b:m' })];
    const { by_model: _dropped, ...old } = resultsFile(results);
    const file = ensureByModel(old);
    expect(ranking(file.by_model)).toEqual(['b:m', 'a:m']);
    expect(file.results).toBe(results);
  });

  it('fills the pass-rate intervals a file written before them lacks', () => {
    const results = [
      run({ name: 'a' }),
      run({ name: 'b', status: 'failed' }),
      run({ name: 'a', attempt: 2, status: 'failed' }),
    ];
    const { pass_rate_ci95: _ci, pass_rate_ci_method: _method, ...oldSummary } = summarize(results);
    const oldByModel = summarizeByModel(results).map(
      ({ pass_rate_ci95: _c, pass_rate_ci_method: _m, ...rest }) => rest,
    );
    const file = ensureByModel({
      ...resultsFile(results),
      summary: oldSummary as never,
      by_model: oldByModel as never,
    });
    // The two attempts of test a are one cluster, so the interval is clustered, not Wilson's.
    expect(file.summary.pass_rate_ci_method).toBe('clustered');
    expect(file.summary.pass_rate_ci95).toEqual(summarize(results).pass_rate_ci95);
    expect(file.by_model[0]?.pass_rate_ci95).toEqual(file.summary.pass_rate_ci95);
    expect(file.summary.pass_rate_ci95[0]).toBeLessThan(33.4);
  });

  it('keeps a by_model the file already has', () => {
    const stored = summarizeByModel([run()]);
    const file = ensureByModel({ ...resultsFile([run(), run({ model: 'x:y' })]), by_model: stored });
    expect(file.by_model).toBe(stored);
  });
});

describe('pass-rate interval clustered by folder (test.stats.cluster: folder)', () => {
  it('treats the tests of one folder as related: a wider interval than Wilson over the tests', () => {
    // Folder sales/ passes everything, folder hr/ nothing: 2 informative units, not 20.
    const results = Array.from({ length: 20 }, (_, i) =>
      run({
        name: `t${i}`,
        file: i < 10 ? `sales/t${i}.yml` : `hr/t${i}.yml`,
        status: i < 10 ? 'passed' : 'failed',
      }),
    );
    const byTest = summarize(results);
    const byFolder = summarize(results, { cluster: 'folder' });
    expect(byTest.pass_rate_ci_method).toBe('wilson');
    expect(byTest.pass_rate_ci95).toEqual([29.9, 70.1]);
    expect(byFolder.pass_rate_ci_method).toBe('clustered');
    // Σ_c (Σ dev)² / n² · G/(G−1) = 2 · 25 / 400 · 2 → SE = 0.5: the whole range.
    expect(byFolder.pass_rate_ci95).toEqual([0, 100]);
  });
});

describe('pass-rate interval: what counts as a pass', () => {
  it('counts a judged pass as a pass and an unverified run as not passed; skipped runs not at all', () => {
    const summary = summarize([
      run({ name: 'a' }),
      run({ name: 'b', details: judgedDetails({ verdict: 'pass' }) }),
      run({ name: 'c', status: 'unverified' }),
      run({ name: 'd', status: 'skipped' }),
    ]);
    // Wilson 2/3, not 3/3 or 2/4.
    expect(summary.pass_rate_ci95).toEqual([20.8, 93.9]);
  });
});
