import { describe, expect, it } from 'vitest';
import type { CellValue } from '../../warehouse/database.js';
import { CloseCells, type NormalizedTable, normalizeTable } from './normalized-table.js';
import { compareSortedLeftovers, pairForDiff } from './row-matching.js';
import { readTable } from './table-input.js';

function side(rows: CellValue[][]): NormalizedTable {
  const read = readTable({ columns: rows[0]?.map((_, index) => `c${index}`) ?? [], rows });
  if (!read.success) throw new Error(read.error);
  const result = normalizeTable({
    table: read.table,
    sourceColumns: read.table.columns.map((_, index) => index),
    decimals: 2,
  });
  if (!result.success) throw new Error(result.error);
  return result.side;
}

describe('compareSortedLeftovers and pairForDiff', () => {
  it('accepts leftovers that agree position by position after sorting', () => {
    const actual = side([[20.2], [1], [10]]);
    const expected = side([[10.4], [0.9], [20.4]]);
    const close = new CloseCells({ actual, expected }, { rtol: 0, atol: 0.5 });
    const result = compareSortedLeftovers({
      actual,
      expected,
      unmatched: { actual: [0, 1, 2], expected: [0, 1, 2] },
      order: [0],
      close,
    });
    expect(result).toEqual({ close: true, sorted: { actual: [1, 2, 0], expected: [1, 0, 2] } });
  });

  it('does not shift rows onto neighbours that happen to be within the tolerance', () => {
    // ids 100000 and 100001 are within rtol 1e-5 of each other, so a search for any pairing
    // that fits would match every actual row with the next expected row.
    const actual = side([
      [100_000, 'a'],
      [100_001, 'b'],
      [100_002, 'c'],
    ]);
    const expected = side([
      [100_000, 'b'],
      [100_001, 'c'],
      [100_002, 'd'],
    ]);
    const close = new CloseCells({ actual, expected }, { rtol: 0.00001, atol: 0 });
    const result = compareSortedLeftovers({
      actual,
      expected,
      unmatched: { actual: [0, 1, 2], expected: [0, 1, 2] },
      order: [0, 1],
      close,
    });
    expect(result.close).toBe(false);
  });

  it('pairs rows on identifying columns, then rows agreeing on half the columns', () => {
    const actual = side([
      ['EU', 1, 5.5],
      ['US', 2, 7.5],
      ['FR', 9, 1.5],
    ]);
    const expected = side([
      ['EU', 1, 6.5],
      ['US', 3, 7.5],
      ['DE', 8, 2.5],
    ]);
    const close = new CloseCells({ actual, expected }, { rtol: 0, atol: 0 });
    const order = [0, 1, 2];
    const pairing = pairForDiff({
      actual,
      expected,
      // Sorted by `order`, as compareSortedLeftovers leaves them: EU, FR, US and DE, EU, US.
      unmatched: { actual: [0, 2, 1], expected: [2, 0, 1] },
      order,
      keyColumns: [0, 1],
      close,
    });
    expect(pairing.pairs).toEqual(
      expect.arrayContaining([
        { actual: 0, expected: 0 },
        { actual: 1, expected: 1 },
      ]),
    );
    expect(pairing.pairs).toHaveLength(2);
    expect(pairing.onlyInActual).toEqual([2]);
    expect(pairing.onlyInExpected).toEqual([2]);
  });
});
