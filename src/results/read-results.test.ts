import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { originalTwoModelFile } from '../../test-support/original-nao/two-model-results.js';
import { resultsFile, run } from '../../test-support/results/run-fixture.js';
import { UsageError } from '../errors/index.js';
import { compareModels } from './model-comparisons.js';
import { parseResultsFile, readResultsFile } from './read-results.js';
import { summarizeByModel } from './summarize.js';
import { writeResultsFile } from './write-results.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'nao-read-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** What the first nao runner wrote: no status, no by_model, details null on errors. */
const OLD_FILE = {
  timestamp: '2025-02-09T14:30:22.123456',
  results: [
    {
      name: 'total_revenue',
      model: 'openai:gpt-4.1',
      passed: true,
      message: 'match',
      tokens: 1250,
      cost: 0.0125,
      duration_ms: 234,
      tool_call_count: 1,
      error: null,
      details: {
        response_text: '...',
        actual_data: [{ total_revenue: 42 }],
        expected_data: [{ total_revenue: 42 }],
        comparison: null,
        tool_calls: [
          { toolName: 'execute_sql', toolCallId: 'c1', args: { sql_query: 'SELECT 1' }, result: {} },
        ],
      },
    },
    {
      name: 'customer_metrics',
      model: 'openai:gpt-4.1',
      passed: false,
      message: 'values differ',
      tokens: 900,
      cost: 0.01,
      duration_ms: 300,
      tool_call_count: 2,
      error: null,
      details: { response_text: 'x', comparison: '   actual expected\n0  41     42', tool_calls: [] },
    },
    {
      name: 'orders',
      model: 'anthropic:claude-sonnet-4-5',
      passed: false,
      message: 'error',
      tokens: null,
      cost: null,
      duration_ms: null,
      tool_call_count: null,
      error: 'HTTP 500: backend down',
      details: null,
    },
    {
      name: 'no_sql',
      model: 'anthropic:claude-sonnet-4-5',
      passed: true,
      message: 'no verification',
      tokens: 100,
      cost: 0.001,
      duration_ms: 100,
      tool_call_count: 0,
      error: null,
      details: { response_text: 'hi', tool_calls: null },
    },
  ],
  summary: { total: 4, passed: 2, failed: 2, total_tokens: 2250, total_cost: 0.0235 },
  custom_ci_field: { build: 17 },
};

describe('parseResultsFile', () => {
  it('reads back exactly what writeResultsFile wrote', async () => {
    const results = [
      run(),
      run({ name: 'b', model: 'x:y', status: 'failed' }),
      run({ name: 'b', attempt: 2, status: 'skipped' }),
    ];
    const file = resultsFile(results, {
      models: ['openai:gpt-4.1', 'x:y'],
      command: 'nao test -m openai:gpt-4.1',
      nao_version: '0.1.0',
      // A run of several models writes them (buildResultsFile).
      comparisons: compareModels({ results, byModel: summarizeByModel(results) }),
    });
    const written = await writeResultsFile({ outputsDir: dir, file });
    expect(await readResultsFile(written)).toEqual(file);
  });

  it('computes the comparisons of a file of several models that lacks them, and keeps a file’s own', () => {
    const results = ['a:one', 'b:two'].flatMap((model) =>
      Array.from({ length: 12 }, (_, k) =>
        run({ model, name: `q${k}`, status: model === 'b:two' && k % 4 === 0 ? 'failed' : 'passed' }),
      ),
    );
    const older = JSON.parse(JSON.stringify(resultsFile(results)));
    expect(older).not.toHaveProperty('comparisons');
    const read = parseResultsFile(older, 'older.json');
    expect(read.comparisons).toEqual(compareModels({ results: read.results, byModel: read.by_model }));
    expect(read.comparisons).toMatchObject([{ model_a: 'a:one', model_b: 'b:two', tests: 12 }]);
    // Written with test.stats.cluster: folder, say: the file's own are what it says.
    const own = [{ ...read.comparisons![0]!, difference_ci95: [1, 2] }];
    expect(parseResultsFile({ ...older, comparisons: own }, 'own.json').comparisons).toEqual(own);
    // One model: nothing to compare.
    const single = parseResultsFile(JSON.parse(JSON.stringify(resultsFile([run()]))), 'one.json');
    expect(single).not.toHaveProperty('comparisons');
  });

  it('keeps what an original nao file says per model when nao recounts it', () => {
    const file = parseResultsFile(originalTwoModelFile(), 'original.json');
    expect(file.recounted).toMatchObject({ written_passed: 9, written_total: 12, passed: 6, unverified: 3 });
    expect(file.recounted?.by_model).toEqual([
      { model: 'openai:gpt-4.1', written_passed: 4, written_total: 6 },
      { model: 'anthropic:claude-sonnet-4-5', written_passed: 5, written_total: 6 },
    ]);
  });

  it('upgrades a file written before status, by_model and the other additions', () => {
    const file = parseResultsFile(structuredClone(OLD_FILE), 'old.json');
    expect(file.results.map((result) => result.status)).toEqual(['passed', 'failed', 'error', 'unverified']);
    // An unverified run was never judged: it is not a pass, whatever the old file said.
    expect(file.results.map((result) => result.passed)).toEqual([true, false, false, false]);
    const [first, second, third] = file.results;
    expect(first?.details.tool_calls[0]).toMatchObject({ tool_name: 'execute_sql', tool_call_id: 'c1' });
    expect(first?.details).toMatchObject({ actual_row_count: 1, expected_row_count: 1 });
    expect(second?.details.diff).toEqual({ kind: 'text', text: '   actual expected\n0  41     42' });
    expect(third).toMatchObject({ tokens: 0, cost: null, duration_ms: 0, attempt: 1, file: '' });
    expect(third?.details).toMatchObject({
      error: 'HTTP 500: backend down',
      reference_sql: null,
      tool_calls: [],
    });
    expect(file.summary).toMatchObject({ total: 4, passed: 1, failed: 3, errors: 1, unverified: 1 });
    expect(file.by_model.map((summary) => [summary.model, summary.pass_rate])).toEqual([
      ['openai:gpt-4.1', 50],
      ['anthropic:claude-sonnet-4-5', 0],
    ]);
  });

  it('keeps fields it does not know', () => {
    const file = parseResultsFile(structuredClone(OLD_FILE), 'old.json') as unknown as Record<
      string,
      unknown
    >;
    expect(file.custom_ci_field).toEqual({ build: 17 });
  });

  it('fills k in repeat statistics written without it', () => {
    const file = parseResultsFile(
      {
        ...resultsFile([run()]),
        repeats: [
          { name: 't', model: 'm:x', runs: 3, passes: 1, pass_at_k: 1, pass_hat_k: 0.037, flaky: true },
        ],
      },
      'r.json',
    );
    expect(file.repeats?.[0]?.k).toBe(3);
  });

  it.each<[string, unknown, RegExp]>([
    ['not an object', [1, 2], /x\.json is not a readable nao results file: \(top level\): /],
    ['no results', { timestamp: 't' }, /results: /],
    [
      'a wrong type deep inside',
      { timestamp: 't', results: [{ ...OLD_FILE.results[0] }, { ...OLD_FILE.results[1], passed: 'yes' }] },
      /results\[1\]\.passed: .*boolean/,
    ],
    [
      'an unknown status',
      { timestamp: 't', results: [{ ...OLD_FILE.results[0], status: 'great' }] },
      /results\[0\]\.status/,
    ],
  ])('rejects %s with the file and field named', (_label, data, message) => {
    expect(() => parseResultsFile(data, 'x.json')).toThrow(UsageError);
    expect(() => parseResultsFile(data, 'x.json')).toThrow(message);
    expect(() => parseResultsFile(data, 'x.json')).toThrow(
      expect.objectContaining({ code: 'RESULTS_FILE_INVALID' }),
    );
  });
});

describe('readResultsFile', () => {
  it.each<[string, string | null, string, RegExp]>([
    ['a missing file', null, 'RESULTS_FILE_NOT_FOUND', /missing\.json does not exist/],
    ['an empty file', '', 'RESULTS_FILE_INVALID', /missing\.json .*empty/],
    ['broken JSON', '{"timestamp": ', 'RESULTS_FILE_INVALID', /missing\.json .*invalid JSON/],
  ])('rejects %s with a UsageError naming it', async (_label, content, code, message) => {
    const file = path.join(dir, 'missing.json');
    if (content !== null) await writeFile(file, content);
    await expect(readResultsFile(file)).rejects.toThrow(UsageError);
    await expect(readResultsFile(file)).rejects.toMatchObject({ code });
    await expect(readResultsFile(file)).rejects.toThrow(message);
  });
});
