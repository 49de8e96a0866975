import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cyclesOf, type ImportEdge, importEdges } from './import-graph.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The import loops between the folders that `folderOf` puts the files of `edges` in, each as
 * "a ↔ b: the imports that cross between them", so that a failure names the files to change.
 */
function folderLoops(edges: readonly ImportEdge[], folderOf: (file: string) => string): string[] {
  const crossing = edges.filter((edge) => folderOf(edge.from) !== folderOf(edge.to));
  return cyclesOf(crossing.map((edge) => ({ from: folderOf(edge.from), to: folderOf(edge.to) }))).map(
    (folders) =>
      `${folders.join(' ↔ ')}: ${crossing
        .filter((edge) => folders.includes(folderOf(edge.from)) && folders.includes(folderOf(edge.to)))
        .map((edge) => `${edge.from} → ${edge.to}`)
        .join(', ')}`,
  );
}

describe('the import structure of src/', () => {
  it('has no import loop between its folders, type imports included', () => {
    // `src/cli/main.ts` is in `cli`.
    const folderOf = (file: string) => file.split(path.sep)[1] ?? file;
    expect(folderLoops(importEdges({ root: ROOT, folder: 'src' }), folderOf)).toEqual([]);
  });

  it('has no import loop between the files of cli/', () => {
    const edges = importEdges({ root: ROOT, folder: path.join('src', 'cli') });
    expect(cyclesOf(edges)).toEqual([]);
  });
});

describe('the import structure of the repository', () => {
  it('has no import loop between src/, web/, test-support/ and tools/', () => {
    const edges = ['src', 'web', 'test-support', 'tools'].flatMap((folder) =>
      importEdges({ root: ROOT, folder }),
    );
    const folderOf = (file: string) => file.split(path.sep)[0] ?? file;
    expect(folderLoops(edges, folderOf)).toEqual([]);
  });
});

describe('cyclesOf', () => {
  it.each([
    ['no edges', [], []],
    [
      'a chain',
      [
        ['a', 'b'],
        ['b', 'c'],
      ],
      [],
    ],
    ['a self-import', [['a', 'a']], []],
    [
      'two folders importing each other',
      [
        ['a', 'b'],
        ['b', 'a'],
      ],
      [['a', 'b']],
    ],
    [
      'a loop of three beside a chain',
      [
        ['a', 'b'],
        ['b', 'c'],
        ['c', 'a'],
        ['c', 'd'],
      ],
      [['a', 'b', 'c']],
    ],
  ])('%s', (_name, pairs, expected) => {
    expect(cyclesOf(pairs.map(([from, to]) => ({ from: from ?? '', to: to ?? '' })))).toEqual(expected);
  });
});
