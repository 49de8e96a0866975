import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../test-support/example-warehouse/index.js';
import type { CellValue } from '../../warehouse/database.js';
import type { CompareOptions } from './compare-results.js';
import { matchByIndex } from './match-by-index.js';
import type { NormalizedCells } from './normalized-cells.js';
import { tableRow } from './normalized-table.js';
import { matchColumns, type ResultData, readTable, type Table } from './table-input.js';

const DEFAULTS = { rtol: 0.00001, atol: 0.00000001, decimals: 2 };

const table = (columns: string[], rows: CellValue[][]): ResultData => ({ columns, rows });

/**
 * The rows the exact step leaves over must not depend on the row hash: a weak one that makes
 * rows that differ share fingerprints gives the same pairs, told apart by their values alone.
 */
function expectAgreement(options: CompareOptions): void {
  const read = (data: ResultData): Table => {
    const result = readTable(data);
    if (!result.success) throw new Error(result.error);
    return result.table;
  };
  const actual = read(options.actual!);
  const expected = read(options.expected);
  const columns = matchColumns({ expected: expected.columns, actual: actual.columns });
  const step = {
    actual: { table: actual, sourceColumns: columns.actualIndexes },
    expected: { table: expected, sourceColumns: expected.columns.map((_, index) => index) },
    decimals: (options.tolerances ?? DEFAULTS).decimals,
  };
  const leftOver = (hash?: (cells: NormalizedCells, row: number) => number) => {
    const match = matchByIndex(hash === undefined ? step : { ...step, hash });
    if (!match.success) return match;
    return {
      actual: match.unmatched.actual.map((row) => tableRow(match.actual, row)),
      expected: match.unmatched.expected.map((row) => tableRow(match.expected, row)),
    };
  };
  const collide = (cells: NormalizedCells, row: number) => {
    const cell = row * cells.columnCount;
    return cells.columnCount === 0
      ? 0
      : cells.kinds[cell]! * 64 + ((Math.abs(cells.primary[cell]!) % 64) | 0);
  };
  expect(leftOver(collide)).toEqual(leftOver());
}

function shuffled<T>(items: readonly T[], next: () => number): T[] {
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index--) {
    const other = Math.floor(next() * (index + 1));
    [copy[index], copy[other]] = [copy[other]!, copy[index]!];
  }
  return copy;
}

describe('matchByIndex pairs the same rows whatever the row hash', () => {
  it.each<[string, ResultData, ResultData, Partial<CompareOptions>?]>([
    [
      'equal rows in another order',
      table(
        ['a', 'b'],
        [
          [1, 'x'],
          [2, 'y'],
          [3, 'z'],
        ],
      ),
      table(
        ['a', 'b'],
        [
          [3, 'z'],
          [1, 'x'],
          [2, 'y'],
        ],
      ),
    ],
    [
      'floats just inside the tolerance',
      table(['v'], [[100.000999], [5]]),
      table(['v'], [[5], [100]]),
      { tolerances: { rtol: 0.00001, atol: 0, decimals: 6 } },
    ],
    [
      'floats just outside the tolerance',
      table(['v'], [[100.001001], [5]]),
      table(['v'], [[5], [100]]),
      { tolerances: { rtol: 0.00001, atol: 0, decimals: 6 } },
    ],
    [
      'float noise across a rounding boundary',
      table(['v'], [[0.12499999999], [1]]),
      table(['v'], [[1], [0.125]]),
    ],
    [
      'numbers against numeric text',
      table(
        ['v', 'w'],
        [
          [1, 1234.5],
          [2, 7],
        ],
      ),
      table(
        ['v', 'w'],
        [
          ['2', '7.00'],
          ['1.0', '$1,234.50'],
        ],
      ),
    ],
    [
      'big integers that share a double',
      table(['v'], [['9007199254740993'], [1]]),
      table(['v'], [[1], ['9007199254740992']]),
    ],
    [
      'nulls, NaN and infinities',
      table(
        ['v', 'w'],
        [
          [null, Number.NaN],
          [Infinity, null],
        ],
      ),
      table(
        ['v', 'w'],
        [
          [Infinity, null],
          [null, 'NaN'],
        ],
      ),
    ],
    [
      'null against zero and empty text',
      table(
        ['v', 'w'],
        [
          [null, ''],
          [0, 'a'],
        ],
      ),
      table(
        ['v', 'w'],
        [
          [0, null],
          [null, 'a'],
        ],
      ),
    ],
    [
      'dates written as timestamps',
      table(['d'], [['2024-01-02T00:00:00'], ['2024-01-03']]),
      table(['d'], [['2024-01-03 00:00:00+00'], ['2024-01-02']]),
    ],
    [
      'text in other normal forms',
      table(['t'], [['Cafe\u0301'], ['x']]),
      table(['t'], [['x'], ['Caf\u00e9']]),
    ],
    ['duplicates, equal counts', table(['a'], [[1], [2], [1], [1]]), table(['a'], [[1], [1], [2], [1]])],
    [
      'an extra duplicate',
      table(
        ['a', 'b'],
        [
          [1, 'x'],
          [1, 'x'],
          [2, 'y'],
          [1, 'x'],
        ],
      ),
      table(
        ['a', 'b'],
        [
          [1, 'x'],
          [2, 'y'],
          [1, 'x'],
        ],
      ),
    ],
    ['a missing duplicate', table(['a'], [[1], [2]]), table(['a'], [[1], [1], [2], [1]])],
    [
      'duplicates with one changed',
      table(
        ['a', 'b'],
        [
          [1, 5],
          [1, 5],
          [1, 6],
        ],
      ),
      table(
        ['a', 'b'],
        [
          [1, 5],
          [1, 5],
          [1, 5],
        ],
      ),
    ],
    [
      'values that differ',
      table(
        ['k', 'v'],
        [
          ['EU', 100],
          ['US', 205],
        ],
      ),
      table(
        ['k', 'v'],
        [
          ['US', 200],
          ['EU', 100],
        ],
      ),
    ],
    [
      'a row count difference',
      table(
        ['k', 'v'],
        [
          ['EU', 1],
          ['US', 2],
          ['FR', 3],
        ],
      ),
      table(
        ['k', 'v'],
        [
          ['US', 2],
          ['EU', 1],
        ],
      ),
    ],
    [
      'extra answer columns in another order',
      table(
        ['x', 'b', 'a'],
        [
          [9, 'q', 1],
          [8, 'r', 2],
        ],
      ),
      table(
        ['a', 'b'],
        [
          [2, 'r'],
          [1, 'q'],
        ],
      ),
    ],
    [
      'typed reference columns',
      table(
        ['d', 'n', 'i'],
        [
          ['2024-01-02', '5', 'infinity'],
          ['2024-01-03', '6', 'x'],
        ],
      ),
      {
        columns: [
          { name: 'd', type: 'DATE' },
          { name: 'n', type: 'NUMERIC' },
          { name: 'i', type: 'TIMESTAMP' },
        ],
        rows: [
          ['2024-01-03', '6', 'x'],
          ['2024-01-02', '5', 'infinity'],
        ],
      },
    ],
    [
      'records against arrays',
      [{ a: 1, b: 'x' }, { b: 'y', a: 2 }, { a: 3 }],
      table(
        ['a', 'b'],
        [
          [3, null],
          [2, 'y'],
          [1, 'x'],
        ],
      ),
    ],
  ])('%s', (_name, actual, expected, options = {}) => {
    expectAgreement({ actual, expected, tolerances: DEFAULTS, ...options });
  });

  it.each([
    ['the same order', 1],
    ['reverse order', 2],
    ['no order', 3],
  ])('on 5,000 generated rows in %s, equal and then changed', (_name, seed) => {
    const next = seededRandom(seed);
    // Few distinct values, so that many rows repeat; fractions, nulls and dates on every row.
    const rows: CellValue[][] = Array.from({ length: 5000 }, () => {
      const id = Math.floor(next() * 1500);
      return [
        id,
        `c${id % 700}`,
        Math.floor(next() * 3) / 4,
        next() < 0.2 ? null : `2024-02-${10 + (id % 19)}`,
      ];
    });
    const columns = ['id', 'customer', 'amount', 'day'];
    const expected: ResultData = {
      columns: [
        { name: 'id', type: 'INTEGER' },
        'customer',
        { name: 'amount', type: 'DOUBLE' },
        { name: 'day', type: 'DATE' },
      ],
      rows,
    };
    const ordered = seed === 1 ? rows : seed === 2 ? [...rows].reverse() : shuffled(rows, next);
    const actual = ordered.map((row) => [...row]);
    expectAgreement({ actual: table(columns, actual), expected, tolerances: DEFAULTS, diffLimit: 1000 });
    for (let change = 0; change < 40; change++) {
      const row = actual[Math.floor(next() * actual.length)]!;
      row[change % 4] = change % 3 === 0 ? null : (row[2] as number) + 0.01;
    }
    actual.push(actual[17]!, actual[4000]!);
    expectAgreement({ actual: table(columns, actual), expected, tolerances: DEFAULTS, diffLimit: 1000 });
  });
});

describe('matchByIndex', () => {
  function sides(actualRows: CellValue[][], expectedRows: CellValue[][]) {
    const read = (rows: CellValue[][]): Table => {
      const result = readTable({ columns: rows[0]?.map((_, index) => `c${index}`) ?? ['c0'], rows });
      if (!result.success) throw new Error(result.error);
      return result.table;
    };
    const actual = read(actualRows);
    const expected = read(expectedRows);
    return {
      actual: { table: actual, sourceColumns: actual.columns.map((_, index) => index) },
      expected: { table: expected, sourceColumns: expected.columns.map((_, index) => index) },
      decimals: 2,
    };
  }

  it('leaves the last copies of a duplicate over, on both sides', () => {
    const match = matchByIndex(
      sides([['a'], ['b'], ['a'], ['a'], ['c']], [['a'], ['b'], ['b'], ['a'], ['d']]),
    );
    if (!match.success) throw new Error(match.error);
    expect(match.unmatched.actual.map((row) => tableRow(match.actual, row))).toEqual([3, 4]);
    expect(match.unmatched.expected.map((row) => tableRow(match.expected, row))).toEqual([2, 4]);
  });

  it('names the side of a malformed row', () => {
    expect(matchByIndex(sides([['a'], ['b', 'c']], [['a'], ['b']]))).toMatchObject({
      success: false,
      side: 'actual',
    });
    expect(matchByIndex(sides([['a'], ['b']], [['a'], ['b', 'c']]))).toMatchObject({
      success: false,
      side: 'expected',
    });
  });
});
