import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resultsFile, run } from '../../../test-support/results/run-fixture.js';
import { compareRunFiles } from '../compare-runs.js';
import { readResultsFile } from '../read-results.js';
import { formatRunComparison } from './format-run-comparison.js';

const A = 'openai:gpt-4.1';

describe('formatRunComparison', () => {
  it('lists every category, the pass rates per model and a tally', () => {
    const before = resultsFile(
      [
        run({ name: 'total_revenue', model: A }),
        run({ name: 'revenue_per_customer', model: A, status: 'failed' }),
        run({ name: 'orders', model: A, status: 'failed' }),
        run({ name: 'old', model: A }),
      ],
      { timestamp: '2025-02-08T10:00:00.000000' },
    );
    const after = resultsFile(
      [
        run({ name: 'total_revenue', model: A, status: 'failed', message: 'row count: 3 vs 4' }),
        run({ name: 'revenue_per_customer', model: A }),
        run({ name: 'orders', model: A, status: 'error' }),
        run({ name: 'new', model: A }),
      ],
      { timestamp: '2025-02-09T14:30:22.123000' },
    );
    expect(formatRunComparison(compareRunFiles({ before, after })).split('\n')).toEqual([
      'Comparing 2025-02-08T10:00:00.000000 → 2025-02-09T14:30:22.123000',
      '',
      'Regressions (1)',
      `  ✗ total_revenue · ${A}: passed → failed (row count: 3 vs 4)`,
      '',
      'Fixes (1)',
      `  ✓ revenue_per_customer · ${A}: failed → passed`,
      '',
      'Still not passing (1)',
      `  • orders · ${A}: failed → error (provider error: 500)`,
      '',
      'Added (1)',
      `  + new · ${A}: passed`,
      '',
      'Removed (1)',
      `  - old · ${A}: was passed`,
      '',
      'Pass rate by model',
      `  ${A}  50.0% → 50.0% (±0.0)`,
      `  ${' '.repeat(A.length)}  3 shared tests: too few to tell a real change from noise (10 needed)`,
      '',
      '1 regression, 1 fix, 1 unchanged (0 passing, 1 not passing), 1 added, 1 removed, 0 not run',
    ]);
  });

  it('shows pass counts with repeats and signed pass-rate changes', () => {
    const before = resultsFile([1, 2].map((attempt) => run({ attempt, status: 'failed' })));
    const after = resultsFile([1, 2].map((attempt) => run({ attempt })));
    const text = formatRunComparison(compareRunFiles({ before, after }), {
      beforeLabel: 'a.json',
      afterLabel: 'b.json',
    });
    expect(text).toContain('Comparing a.json → b.json');
    expect(text).toContain(`  ✓ total_revenue · ${A}: 0/2 passed → 2/2 passed`);
    expect(text).toContain(`  ${A}  0.0% → 100.0% (+100.0)`);
  });

  it('keeps a pair on one line when its name or message has line breaks', () => {
    const before = resultsFile([run({ name: 'two\nlines' })]);
    const after = resultsFile([
      run({ name: 'two\nlines', status: 'failed', message: 'Binder Error:\nLINE 1' }),
    ]);
    const text = formatRunComparison(compareRunFiles({ before, after }));
    expect(text).toContain(`  ✗ two lines · ${A}: passed → failed (Binder Error: LINE 1)`);
  });

  it('says nothing changed for identical files', () => {
    const file = resultsFile([run()]);
    const text = formatRunComparison(compareRunFiles({ before: file, after: file }));
    expect(text.split('\n').at(-1)).toBe(
      '0 regressions, 0 fixes, 1 unchanged (1 passing, 0 not passing), 0 added, 0 removed, 0 not run',
    );
  });

  it("marks a rate nao recounted from an original nao file and gives the file's own number beside it", async () => {
    const original = path.resolve(
      import.meta.dirname,
      '../../../test-support/original-nao/results/results_20260212_100411.json',
    );
    const before = await readResultsFile(original);
    expect(before.recounted).toBeDefined();
    const text = formatRunComparison(compareRunFiles({ before, after: before }), {
      recounted: { before: before.recounted, after: before.recounted },
    });
    const rates = text.split('\n').filter((line) => line.includes(' → ') && !line.startsWith('Comparing'));
    expect(rates.length).toBeGreaterThan(0);
    expect(rates.some((line) => /%\* → .*%\*/.test(line))).toBe(true);
    expect(text).toContain('* before: recounted by nao; the file says 4/6 passed (66.7%)');
    // Without a recount, no mark.
    expect(formatRunComparison(compareRunFiles({ before, after: before }))).not.toContain('*');
  });
});
