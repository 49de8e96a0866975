import { describe, expect, it } from 'vitest';
import type { ResultsFile } from './results-file.js';
import { partialReasons, selectionKey, selectionText } from './run-scope.js';

type Scope = Partial<Pick<ResultsFile, 'shard' | 'interrupted' | 'stopped_by' | 'selection' | 'merged'>>;

const suite = { sha256: 'a', config_sha256: 'b', models: [], repeat: 1, tests: [] };

describe('partialReasons', () => {
  it.each<[string, Scope, string[]]>([
    // Older nao and the original nao write none of these: complete.
    ['nothing said', {}, []],
    ['a -s subset (complete for its selection)', { selection: { select: ['finance'] } }, []],
    ['a shard', { shard: { index: 2, count: 3, suite } }, ['shard 2/3']],
    [
      'a rerun of failures',
      { selection: { select: [], last_failed: 'results_1.json' } },
      ['rerun of the failures of results_1.json'],
    ],
    ['an interrupted run', { interrupted: true }, ['interrupted']],
    ['not interrupted', { interrupted: false }, []],
    ['a fail-fast stop', { stopped_by: 'fail-fast' }, ['stopped by --fail-fast']],
    ['a budget stop', { stopped_by: 'budget' }, ['stopped at --max-cost']],
    [
      'a merge with a missing shard',
      { merged: { shard_count: 3, suite, shards: [], missing: [2] } },
      ['merged without shard 2'],
    ],
    ['a whole merge', { merged: { shard_count: 3, suite, shards: [], missing: [] } }, []],
  ])('%s', (_label, scope, reasons) => {
    expect(partialReasons(scope)).toEqual(reasons);
  });
});

describe('selectionKey and selectionText', () => {
  it.each<[Scope['selection'], string, string]>([
    [undefined, 'all', 'every test'],
    [{ select: [] }, 'all', 'every test'],
    [{ select: ['b', 'a'] }, 'select:a,b', '-s b,a'],
    [
      { select: [], last_failed: 'results_1.json' },
      'last-failed:results_1.json',
      'the failures of results_1.json',
    ],
  ])('%j', (selection, key, text) => {
    expect(selectionKey({ selection })).toBe(key);
    expect(selectionText({ selection })).toBe(text);
  });
});
