import { describe, expect, it } from 'vitest';
import { originalTwoModelFile } from '../../../test-support/original-nao/two-model-results.js';
import { resultsFile, run } from '../../../test-support/results/run-fixture.js';
import { buildResultsFile, type RunStatus } from '../index.js';
import { compareModels } from '../model-comparisons.js';
import { parseResultsFile } from '../read-results.js';
import { comparisonLines, renderReport } from './console-tables.js';
import { formatSummary } from './format-summary.js';

const A = 'openai:gpt-4.1';
const B = 'anthropic:claude-sonnet-4-5';

describe('formatSummary', () => {
  it('starts with what the run was, then prints the run report', () => {
    const results = [
      run({ model: A }),
      run({ model: B, status: 'failed', details: { extraction_cost: 0.0004 } }),
    ];
    const file = resultsFile(results, {
      models: [A, B],
      command: 'nao test -m openai:gpt-4.1 -m anthropic:claude-sonnet-4-5',
      repeat: 1,
      nao_version: '0.1.0',
      started_at: '2025-02-09T14:30:22.123000',
      finished_at: '2025-02-09T14:31:40.123000',
    });
    const text = formatSummary({ file, path: 'tests/outputs/results_20250209_143022.json' });
    expect(text.split('\n').slice(0, 7)).toEqual([
      'File:     tests/outputs/results_20250209_143022.json',
      'Run at:   2025-02-09T14:30:22.123000',
      'Started:  2025-02-09T14:30:22.123000',
      'Finished: 2025-02-09T14:31:40.123000',
      `Models:   ${A}, ${B}`,
      'Command:  nao test -m openai:gpt-4.1 -m anthropic:claude-sonnet-4-5',
      'nao:      0.1.0',
    ]);
    expect(text).toContain(renderReport({ results, modelOrder: [A, B], wallClockMs: 78_000 }));
    // The extraction's cost is in the one total, split once in the final line; the time is the wall clock.
    expect(text.split('\n').at(-1)).toBe(
      '1 passed, 1 failed, 0 errors, 0 unverified, 2 total · $0.0204 in all (agent $0.02 + extraction $0.0004) · ' +
        '78.0 s wall clock (2.0 s summed over runs)',
    );
    expect(text).not.toContain('not in the tables');
  });

  it('takes the models from the results when the file does not list them, and notes interruptions', () => {
    const file = resultsFile([run({ model: B }), run({ model: B, name: 'b', status: 'skipped' })], {
      interrupted: true,
      repeat: 3,
    });
    const text = formatSummary({ file });
    expect(text.split('\n').slice(0, 4)).toEqual([
      'Run at: 2025-02-09T14:30:22.123000',
      `Model:  ${B}`,
      'Repeat: 3 attempts per test',
      'The run was interrupted: runs that never ran are listed as skipped.',
    ]);
    expect(text).toContain('All 1 test(s) passed, 1 skipped');
    expect(text).not.toContain('Extraction cost');
  });

  it("prints the file's own intervals and comparisons, as the run's console did (test.stats.cluster: folder)", () => {
    // 12 tests in 3 folders: B fails the finance ones and one more, so the clusters matter.
    const results = [A, B].flatMap((model) =>
      Array.from({ length: 12 }, (_, k) => {
        const status: RunStatus = model === B && (k % 3 === 1 || k === 6) ? 'failed' : 'passed';
        return run({ model, name: `q${k}`, file: `${['sales', 'finance', 'ops'][k % 3]}/q${k}.yml`, status });
      }),
    );
    const file = buildResultsFile({ results, now: new Date(2025, 1, 9), models: [A, B], cluster: 'folder' });
    const text = formatSummary({ file });
    // What the console reporter prints at the end of the run, from the same file.
    expect(text).toContain(
      renderReport({ results, modelOrder: [A, B], byModel: file.by_model, comparisons: file.comparisons! }),
    );
    const [line] = comparisonLines(file.comparisons!);
    expect(text).toContain(line);
    // Recomputed by the test, as the summary used to, the line would differ.
    const [byTest] = comparisonLines(compareModels({ results, byModel: file.by_model }));
    expect(byTest).not.toBe(line);
    expect(text).not.toContain(byTest);
    expect(text).not.toContain('recounted');
  });

  it('marks the per-model numbers nao recounts in an original nao file, with one footnote saying why', () => {
    const file = parseResultsFile(originalTwoModelFile(), 'results_original.json');
    const text = formatSummary({ file, width: 220 });
    const rows = text.split('\n').filter((row) => row.startsWith('│') && row.includes('%'));
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row).toMatch(/50\.0%\* \([\d.]+–[\d.]+\) .* 3\/6\* /);
    const footnotes = text.split('\n').filter((row) => row.startsWith('* recounted by nao'));
    expect(footnotes).toEqual([
      expect.stringContaining(
        '* recounted by nao; the file says 5/6 passed (83.3%) for anthropic:claude-sonnet-4-5, nao 3/6; ' +
          '4/6 passed (66.7%) for openai:gpt-4.1, nao 3/6: This file counts 9 of 12 runs as passed; nao counts 6: ' +
          '3 run(s) had no verification',
      ),
    ]);
  });

  it('says so when the file holds no runs', () => {
    const text = formatSummary({ file: resultsFile([]) });
    expect(text).toContain('Models: (none)');
    expect(text).toContain('The file holds no runs.');
    expect(text).not.toContain('Test Results');
  });
});
