import { describe, expect, it } from 'vitest';
import {
  ORIGINAL_ONE_MODEL,
  ORIGINAL_SECOND_MODEL,
  originalTwoModels,
  readOriginal,
} from '../../test-support/viewer/original-fixtures.js';
import { fixtureRun, GPT } from '../../test-support/viewer/viewer-fixtures.js';
import { buildResultsFile, passRate } from '../results/index.js';
import { parseResultsFile } from '../results/read-results.js';
import { buildHistoryPoint, buildOverview } from './file-overview.js';
import { fileSaysOverall, recountedModels } from './recount-marks.js';

describe('numbers nao recounts from an original nao file', () => {
  it('gives each model with unverified runs what the file says beside what nao counts', async () => {
    const file = parseResultsFile(await originalTwoModels('2026-02-14T09:00:00'), 'two-models.json');
    expect(file.by_model.map((entry) => [entry.model, entry.pass_rate])).toEqual([
      [ORIGINAL_SECOND_MODEL, 66.7],
      [GPT, 50],
    ]);
    expect(recountedModels(file)).toEqual([
      { model: ORIGINAL_SECOND_MODEL, file_says: { passed: 5, total: 6, pass_rate: 83.3 } },
      { model: GPT, file_says: { passed: 4, total: 6, pass_rate: 66.7 } },
    ]);
    expect(fileSaysOverall(file)).toEqual({ passed: 9, total: 12, pass_rate: 75 });
  });

  it('carries the flag and the file number into the history point, overall and per model', async () => {
    const file = parseResultsFile(await readOriginal(ORIGINAL_ONE_MODEL), ORIGINAL_ONE_MODEL);
    const point = buildHistoryPoint({ name: ORIGINAL_ONE_MODEL, file });
    expect([point.pass_rate, point.recounted, point.file_says]).toEqual([
      50,
      true,
      { passed: 4, total: 6, pass_rate: 66.7 },
    ]);
    expect(
      point.by_model.map((entry) => [entry.model, entry.pass_rate, entry.recounted, entry.file_says]),
    ).toEqual([[GPT, 50, true, { passed: 4, total: 6, pass_rate: 66.7 }]]);
  });

  it('marks nothing in a file nao wrote, unverified runs and all', () => {
    const file = buildResultsFile({
      results: [
        fixtureRun({ test: 'a', model: GPT, status: 'passed' }),
        fixtureRun({ test: 'b', model: GPT, status: 'unverified' }),
      ],
      now: new Date(2026, 0, 1),
    });
    const read = parseResultsFile(JSON.parse(JSON.stringify(file)), 'ours.json');
    expect(recountedModels(read)).toEqual([]);
    const point = buildHistoryPoint({ name: 'ours.json', file: read });
    expect([point.recounted, point.file_says, point.by_model[0]?.recounted]).toEqual([false, null, false]);
    expect(buildOverview({ name: 'ours.json', file: read }).recounted_models).toEqual([]);
  });

  it("gives the model's own count from the file's runs when the file did not count every unverified run as passed", async () => {
    const original = await readOriginal(ORIGINAL_ONE_MODEL);
    // A second run without verification that the file flags as not passed: the file's 4 passes
    // are nao's 3 plus one of the two unverified runs; the runs' own flags say which.
    const extra = { ...original.results[3]!, name: 'churn_this_month', passed: false };
    const results = [...original.results, extra];
    const file = parseResultsFile(
      { ...original, results, summary: { ...original.summary, total: 7, failed: 3 } },
      'odd.json',
    );
    expect(file.recounted).toMatchObject({ written_passed: 4, passed: 3, unverified: 2 });
    expect(recountedModels(file)).toEqual([
      { model: GPT, file_says: { passed: 4, total: 7, pass_rate: passRate(4, 7) } },
    ]);
  });
});
