import { describe, expect, it } from 'vitest';
import { compareResults, formatDiff } from '../verdict/compare/index.js';
import { diffHighlights } from './diff-highlights.js';

/** The diff as `nao test` saves it: the comparison's structure plus its text. */
function savedDiff(options: Parameters<typeof compareResults>[0]): unknown {
  const { diff } = compareResults(options);
  if (diff === null) throw new Error('expected a diff');
  return JSON.parse(JSON.stringify({ ...diff, text: formatDiff(diff) }));
}

describe('diffHighlights', () => {
  it('marks the differing cells of changed rows and the rows without counterpart', () => {
    const diff = savedDiff({
      actual: {
        columns: ['id', 'name', 'amount'],
        rows: [
          [1, 'a', 10],
          [2, 'b', 21],
          [9, 'z', 1],
        ],
      },
      expected: {
        columns: ['id', 'name', 'amount'],
        rows: [
          [1, 'a', 10],
          [2, 'b', 20],
          [4, 'd', 40],
        ],
      },
    });
    const highlights = diffHighlights(diff)!;
    expect(highlights.kind).toBe('values');
    expect(highlights.text).toContain('values differ');
    expect(highlights.actualCells).toEqual(new Map([[1, new Set(['amount'])]]));
    expect(highlights.expectedCells).toEqual(new Map([[1, new Set(['amount'])]]));
    expect(highlights.mismatches).toEqual([
      { actualRowIndex: 1, expectedRowIndex: 1, cells: [{ column: 'amount', actual: 21, expected: 20 }] },
    ]);
    expect(highlights.onlyInActual).toEqual([{ rowIndex: 2, values: [9, 'z', 1] }]);
    expect(highlights.onlyInExpected).toEqual([{ rowIndex: 2, values: [4, 'd', 40] }]);
  });

  it('names the missing columns', () => {
    const highlights = diffHighlights(
      savedDiff({ actual: [{ id: 1, total: 3 }], expected: [{ id: 1, revenue: 3 }] }),
    )!;
    expect(highlights.kind).toBe('missing_columns');
    expect(highlights.missingColumns).toEqual(['revenue']);
    expect(highlights.extraColumns).toEqual(['total']);
  });

  it('reports a cut diff', () => {
    const rows = (offset: number) =>
      Array.from({ length: 30 }, (_, index) => ({ id: index, value: index + offset }));
    const highlights = diffHighlights(savedDiff({ actual: rows(1), expected: rows(0), diffLimit: 5 }))!;
    expect(highlights.truncated).toEqual({ shown: 5, total: 30 });
  });

  it.each([
    ['no diff', null],
    ['a string', 'values differ'],
    ['an array', []],
  ])('gives nothing to highlight for %s', (_label, diff) => {
    expect(diffHighlights(diff)).toBeNull();
  });

  it('keeps the text of an old diff without structure and skips malformed entries', () => {
    const highlights = diffHighlights({
      kind: 'text',
      text: 'row count: 2 vs 3',
      mismatches: [{ actualRowIndex: -1, expectedRowIndex: 0, cells: [] }, 'junk', { cells: 3 }],
      onlyInActual: [
        { rowIndex: 1.5, values: [] },
        { rowIndex: 0, values: [{ nested: true }] },
      ],
      truncated: { shown: 'x' },
    })!;
    expect(highlights.text).toBe('row count: 2 vs 3');
    expect(highlights.mismatches).toEqual([]);
    expect(highlights.onlyInActual).toEqual([{ rowIndex: 0, values: ['{"nested":true}'] }]);
    expect(highlights.actualCells.size).toBe(0);
    expect(highlights.truncated).toBeNull();
  });
});
