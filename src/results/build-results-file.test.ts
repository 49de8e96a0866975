import { describe, expect, it } from 'vitest';
import { run } from '../../test-support/results/run-fixture.js';
import { buildResultsFile } from './build-results-file.js';

const NOW = new Date(2025, 1, 9, 14, 30, 22, 123);

describe('buildResultsFile', () => {
  it('puts the reference fields first, with summaries computed from the results', () => {
    const results = [run({ model: 'b:m' }), run({ model: 'a:m', status: 'failed' })];
    const file = buildResultsFile({
      results,
      now: NOW,
      models: ['a:m', 'b:m'],
      command: 'nao test -m a:m -m b:m',
      naoVersion: '0.1.0',
      startedAt: new Date(2025, 1, 9, 14, 29, 0, 0),
    });
    expect(Object.keys(file).slice(0, 4)).toEqual(['timestamp', 'results', 'summary', 'by_model']);
    expect(file.timestamp).toBe('2025-02-09T14:30:22.123000');
    expect(file.results).toBe(results);
    expect(file.summary).toMatchObject({ total: 2, passed: 1, failed: 1 });
    expect(file.by_model.map((summary) => summary.model)).toEqual(['b:m', 'a:m']);
    expect(file).toMatchObject({
      models: ['a:m', 'b:m'],
      command: 'nao test -m a:m -m b:m',
      nao_version: '0.1.0',
      started_at: '2025-02-09T14:29:00.000000',
      finished_at: '2025-02-09T14:30:22.123000',
    });
    expect(file).not.toHaveProperty('repeats');
  });

  it('adds repeat statistics with --repeat', () => {
    const results = [run({ attempt: 1 }), run({ attempt: 2, status: 'failed' })];
    const file = buildResultsFile({ results, now: NOW, repeat: 2 });
    expect(file.repeat).toBe(2);
    expect(file.repeats).toEqual([
      expect.objectContaining({ name: 'total_revenue', runs: 2, passes: 1, k: 2, flaky: true }),
    ]);
  });
});
