import { describe, expect, it } from 'vitest';
import { resultsFile, run } from '../../test-support/results/run-fixture.js';
import { UsageError } from '../errors/index.js';
import { type ComparedPair, compareRunFiles, type RunComparison } from './compare-runs.js';
import type { RunStatus } from './results-file.js';

const A = 'openai:gpt-4.1';
const B = 'anthropic:claude-sonnet-4-5';

function names(pairs: readonly ComparedPair[]): string[] {
  return pairs.map((pair) => `${pair.name}@${pair.model}`);
}

function categories(comparison: RunComparison) {
  return {
    regressions: names(comparison.regressions),
    fixes: names(comparison.fixes),
    unchanged: names(comparison.unchanged),
    added: names(comparison.added),
    removed: names(comparison.removed),
    notRun: names(comparison.notRun),
  };
}

function single(status: RunStatus, name = 't', model = A) {
  return resultsFile([run({ name, model, status })]);
}

describe('compareRunFiles: one attempt per pair', () => {
  it.each<[RunStatus, RunStatus, keyof ReturnType<typeof categories>]>([
    ['passed', 'failed', 'regressions'],
    ['passed', 'error', 'regressions'],
    ['passed', 'unverified', 'regressions'],
    ['failed', 'passed', 'fixes'],
    ['error', 'passed', 'fixes'],
    ['unverified', 'passed', 'fixes'],
    ['passed', 'passed', 'unchanged'],
    ['failed', 'failed', 'unchanged'],
    ['failed', 'error', 'unchanged'],
    ['passed', 'skipped', 'notRun'],
    ['skipped', 'passed', 'notRun'],
  ])('%s → %s is in %s', (before, after, category) => {
    const comparison = compareRunFiles({ before: single(before), after: single(after) });
    const expected = { regressions: [], fixes: [], unchanged: [], added: [], removed: [], notRun: [] };
    expect(categories(comparison)).toEqual({ ...expected, [category]: [`t@${A}`] });
  });

  it('keeps the status of each side, also for unchanged pairs', () => {
    const comparison = compareRunFiles({ before: single('failed'), after: single('error') });
    expect(comparison.unchanged[0]?.before).toMatchObject({
      status: 'failed',
      passed: false,
      passes: 0,
      runs: 1,
    });
    expect(comparison.unchanged[0]?.after).toMatchObject({ status: 'error', message: 'provider error: 500' });
  });

  it('finds added and removed pairs, keyed by test and model', () => {
    const before = resultsFile([run({ name: 'kept', model: A }), run({ name: 'gone', model: A })]);
    const after = resultsFile([
      run({ name: 'kept', model: A }),
      run({ name: 'new', model: A }),
      run({ name: 'kept', model: B }),
    ]);
    expect(categories(compareRunFiles({ before, after }))).toEqual({
      regressions: [],
      fixes: [],
      unchanged: [`kept@${A}`],
      added: [`new@${A}`, `kept@${B}`],
      removed: [`gone@${A}`],
      notRun: [],
    });
  });
});

describe('compareRunFiles: repeated attempts', () => {
  function repeated(name: string, statuses: RunStatus[]) {
    return statuses.map((status, index) => run({ name, status, attempt: index + 1 }));
  }

  it('passes a pair only when every attempt that ran passed', () => {
    const before = resultsFile([
      ...repeated('was-steady', ['passed', 'passed', 'passed']),
      ...repeated('was-flaky', ['passed', 'failed', 'passed']),
      ...repeated('skips-ignored', ['passed', 'skipped', 'passed']),
    ]);
    const after = resultsFile([
      ...repeated('was-steady', ['passed', 'failed', 'passed']),
      ...repeated('was-flaky', ['passed', 'passed', 'passed']),
      ...repeated('skips-ignored', ['passed', 'passed', 'skipped']),
    ]);
    const comparison = compareRunFiles({ before, after });
    expect(categories(comparison)).toMatchObject({
      regressions: [`was-steady@${A}`],
      fixes: [`was-flaky@${A}`],
      unchanged: [`skips-ignored@${A}`],
    });
    expect(comparison.regressions[0]?.after).toMatchObject({
      status: 'failed',
      passes: 2,
      runs: 3,
      attempts: 3,
    });
    expect(comparison.unchanged[0]?.before).toMatchObject({ passes: 2, runs: 2, attempts: 3, passed: true });
  });

  it('reports the worst status of the attempts that did not pass', () => {
    const after = resultsFile(repeated('t', ['unverified', 'error', 'passed']));
    const comparison = compareRunFiles({ before: single('passed'), after });
    expect(comparison.regressions[0]?.after?.status).toBe('error');
  });
});

describe('compareRunFiles: filters', () => {
  const before = resultsFile([run({ name: 'x', model: A }), run({ name: 'y', model: B })]);
  const after = resultsFile([
    run({ name: 'x', model: A, status: 'failed' }),
    run({ name: 'y', model: B, status: 'failed' }),
  ]);

  it('restricts the comparison to one model and one test', () => {
    expect(names(compareRunFiles({ before, after, model: B }).regressions)).toEqual([`y@${B}`]);
    expect(names(compareRunFiles({ before, after, test: 'x' }).regressions)).toEqual([`x@${A}`]);
    expect(names(compareRunFiles({ before, after, model: A, test: 'y' }).regressions)).toEqual([]);
  });

  it.each([
    [
      { model: 'openai:gpt-4.2' },
      'DIFF_UNKNOWN_MODEL',
      /Did you mean "openai:gpt-4\.1"\?.*Available models: openai:gpt-4\.1, anthropic/,
    ],
    [{ test: 'zzz' }, 'DIFF_UNKNOWN_TEST', /No test "zzz".*Available tests: x, y/],
  ])('rejects an unknown name %o', (filter, code, message) => {
    const attempt = () => compareRunFiles({ before, after, ...filter });
    expect(attempt).toThrow(UsageError);
    expect(attempt).toThrow(message);
    expect(attempt).toThrow(expect.objectContaining({ code }));
  });
});
