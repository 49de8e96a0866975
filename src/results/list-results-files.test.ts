import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { listResultsFiles, resultsFileSortKey } from './index.js';

describe('listResultsFiles', () => {
  it('lists results files by run time, same-second suffixes in number order, other files left out', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'nao-list-results-'));
    try {
      const names = [
        'results_20250209_143022_10.json',
        'results_20250209_143023.json',
        'results_20250209_143022.json',
        'results_20250209_143022_2.json',
        'notes.json',
        'results_latest.json',
      ];
      for (const name of names) await writeFile(path.join(dir, name), '{}');
      expect((await listResultsFiles(dir)).map((file) => path.basename(file))).toEqual([
        'results_20250209_143022.json',
        'results_20250209_143022_2.json',
        'results_20250209_143022_10.json',
        'results_20250209_143023.json',
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('finds nothing in a folder that does not exist yet', async () => {
    expect(await listResultsFiles(path.join(tmpdir(), 'nao-no-such-outputs-folder'))).toEqual([]);
  });

  it.each([
    ['results_20250209_143022.json', '20250209_143022_000001'],
    ['results_20250209_143022_3.json', '20250209_143022_000003'],
    ['results_x.json', null],
  ])('sort key of %s is %s', (name, key) => {
    expect(resultsFileSortKey(name)).toBe(key);
  });
});
