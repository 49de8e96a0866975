import { describe, expect, it } from 'vitest';
import { resultsFile, run } from '../../test-support/report/run-fixture.js';
import { renderReport } from './console-tables.js';
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

  it('says so when the file holds no runs', () => {
    const text = formatSummary({ file: resultsFile([]) });
    expect(text).toContain('Models: (none)');
    expect(text).toContain('The file holds no runs.');
    expect(text).not.toContain('Test Results');
  });
});
