import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cyclesOf, importEdges } from './import-graph.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The top folder of src/ that a path lies in (`src/cli/main.ts` → `cli`). */
const topFolder = (file: string) => file.split(path.sep)[1] ?? file;

describe('the import structure of src/', () => {
  it('has no import loop between its folders, type imports included', () => {
    const files = importEdges({ root: ROOT, folder: 'src' });
    const edges = files.map((edge) => ({ from: topFolder(edge.from), to: topFolder(edge.to) }));
    const loops = cyclesOf(edges).map((folders) => {
      const arrows = files.filter(
        (edge) =>
          folders.includes(topFolder(edge.from)) &&
          folders.includes(topFolder(edge.to)) &&
          topFolder(edge.from) !== topFolder(edge.to),
      );
      return `${folders.join(' ↔ ')}: ${arrows.map((edge) => `${edge.from} → ${edge.to}`).join(', ')}`;
    });
    expect(loops).toEqual([]);
  });

  it('has no import loop between the files of cli/', () => {
    const edges = importEdges({ root: ROOT, folder: path.join('src', 'cli') });
    expect(cyclesOf(edges)).toEqual([]);
  });
});

describe('the import structure of the repository', () => {
  it('has no import loop between src/, web/, test-support/ and tools/', () => {
    const files = ['src', 'web', 'test-support', 'tools'].flatMap((folder) =>
      importEdges({ root: ROOT, folder }),
    );
    const top = (file: string) => file.split(path.sep)[0] ?? file;
    const crossing = files.filter((edge) => top(edge.from) !== top(edge.to));
    const loops = cyclesOf(crossing.map((edge) => ({ from: top(edge.from), to: top(edge.to) }))).map(
      (folders) =>
        `${folders.join(' ↔ ')}: ${crossing
          .filter((edge) => folders.includes(top(edge.from)) && folders.includes(top(edge.to)))
          .map((edge) => `${edge.from} → ${edge.to}`)
          .join(', ')}`,
    );
    expect(loops).toEqual([]);
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
