import { describe, expect, it } from 'vitest';
import { originalTwoModels } from '../../test-support/viewer/original-fixtures.js';
import { CLAUDE, fixtureRun, GPT } from '../../test-support/viewer/viewer-fixtures.js';
import { buildResultsFile, type RunStatus } from '../results/index.js';
import { parseResultsFile } from '../results/read-results.js';
import { buildOverview } from './file-overview.js';

/** 40 tests: GPT passes the first 38, Claude the first 24. */
function fortyTests() {
  return buildResultsFile({
    results: [GPT, CLAUDE].flatMap((model) =>
      Array.from({ length: 40 }, (_, index) => {
        const status: RunStatus = index < (model === GPT ? 38 : 24) ? 'passed' : 'failed';
        return fixtureRun({ test: `test_${index}`, model, status });
      }),
    ),
    now: new Date(2026, 1, 1, 10),
    models: [GPT, CLAUDE],
  });
}

describe('the overview of a multi-model file', () => {
  it("gives the file's own comparisons", () => {
    const file = fortyTests();
    expect(file.comparisons).toHaveLength(1);
    const overview = buildOverview({
      name: 'f.json',
      file: parseResultsFile(JSON.parse(JSON.stringify(file)), 'f'),
    });
    expect(overview.comparisons).toEqual(file.comparisons);
    expect(overview.comparisons[0]).toMatchObject({
      model_a: GPT,
      model_b: CLAUDE,
      difference: 35,
      verdict: 'significant',
    });
  });

  it('computes them on read, exactly as nao writes them, when the file lacks them', () => {
    const { comparisons, ...withoutThem } = fortyTests();
    const read = parseResultsFile(JSON.parse(JSON.stringify(withoutThem)), 'older.json');
    expect(withoutThem).not.toHaveProperty('comparisons');
    expect(buildOverview({ name: 'older.json', file: read }).comparisons).toEqual(comparisons);
  });

  it('says too few tests for an original nao file of six tests, and has none for one model', async () => {
    const two = parseResultsFile(await originalTwoModels('2026-02-14T09:00:00'), 'two.json');
    expect(buildOverview({ name: 'two.json', file: two }).comparisons).toMatchObject([
      { tests: 6, verdict: 'too few tests' },
    ]);
    const one = buildResultsFile({
      results: [fixtureRun({ test: 'a', model: GPT, status: 'passed' })],
      now: new Date(),
    });
    expect(buildOverview({ name: 'one.json', file: one }).comparisons).toEqual([]);
  });
});
