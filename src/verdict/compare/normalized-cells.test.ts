import { describe, expect, it } from 'vitest';
import type { ColumnHint } from './column-type.js';
import { cellComparator, NormalizedCells, readsSame } from './normalized-cells.js';

/** Values of every kind, and text on both sides of each shortcut `setRow` and `readsSame` take. */
const VALUES: unknown[] = [
  null,
  undefined,
  true,
  false,
  0,
  -0,
  1,
  -17,
  2 ** 53 + 2,
  1e21,
  1.5,
  -2.675,
  0.125,
  0.12499999999,
  1e-320,
  Number.NaN,
  Infinity,
  -Infinity,
  5n,
  new Date('2024-01-02T00:00:00.250Z'),
  new Date('nope'),
  { a: 1 },
  [1, 2],
  '',
  ' ',
  'a',
  'customer_12345',
  'Z9',
  '_x',
  '#1',
  'e5',
  'n',
  'nan',
  'NaN',
  'Nan',
  'inf',
  'Infinity',
  'infinity',
  '-infinity',
  '+infinity',
  ' infinity',
  'Caf\u00e9',
  'Cafe\u0301',
  '\u00e9t\u00e9',
  'text ',
  '1',
  '1.50',
  ' 5',
  '5 ',
  '007',
  '12%',
  '$1,234.50',
  '(7)',
  '.5',
  '-1.5e-7',
  '9223372036854775807',
  '2024-01-02',
  '2024-01-02 ',
  ' 2024-01-02',
  '2024-02-30',
  '2024-01-02T01:00:00+01:00',
  '2024-01-02 00:00:00.000001',
  '2024-01-02T00:00:00.1234567891',
  '1969-12-31T23:59:59.5',
  '12:30:00',
  '2024-1-2',
];

const HINTS: ColumnHint[] = ['unknown', 'number', 'temporal'];

/** Everything a cell holds, for comparing two ways of writing it. */
function cellState(cells: NormalizedCells, row: number, column: number) {
  const cell = row * cells.columnCount + column;
  return {
    kind: cells.kinds[cell],
    primary: cells.primary[cell],
    text: cells.textAt(row, column),
    secondary: cells.secondaryAt(row, column),
    fractional: cells.fractional[column],
  };
}

describe('NormalizedCells.setRow', () => {
  it.each(HINTS.flatMap((hint) => [null, 0, 2].map((decimals) => [hint, decimals] as const)))(
    'writes the cells set writes (hint %s, decimals %s)',
    (hint, decimals) => {
      for (const value of VALUES) {
        // The value between two others, read from a wider row, as tables give them.
        const fast = new NormalizedCells({ rowCount: 2, hints: [hint, hint, hint], decimals });
        fast.setRow(1, ['x', value, 7, 'y'], [1, 0, 2]);
        const general = new NormalizedCells({ rowCount: 2, hints: [hint, hint, hint], decimals });
        general.set(1, 0, value);
        general.set(1, 1, 'x');
        general.set(1, 2, 7);
        for (let column = 0; column < 3; column++) {
          expect({ value, state: cellState(fast, 1, column) }).toEqual({
            value,
            state: cellState(general, 1, column),
          });
        }
      }
    },
  );
});

describe('NormalizedCells.reset', () => {
  it('lets cells be filled again as if new', () => {
    const reused = new NormalizedCells({ rowCount: VALUES.length, hints: ['unknown'], decimals: 2 });
    for (const [row, value] of VALUES.entries()) reused.set(row, 0, value);
    reused.reset();
    const fresh = new NormalizedCells({ rowCount: VALUES.length, hints: ['unknown'], decimals: 2 });
    // Each row gets a value of another kind than it held before the reset.
    for (let row = 0; row < VALUES.length; row++) {
      const value = VALUES[(row + 7) % VALUES.length];
      reused.set(row, 0, value);
      fresh.set(row, 0, value);
    }
    for (let row = 0; row < VALUES.length; row++) {
      expect(cellState(reused, row, 0)).toEqual(cellState(fresh, row, 0));
    }
  });
});

describe('readsSame', () => {
  it.each(HINTS.flatMap((hintA) => HINTS.map((hintB) => [hintA, hintB] as const)))(
    'is true only for values whose cells are equal (hints %s and %s)',
    (hintA, hintB) => {
      const a = new NormalizedCells({ rowCount: 1, hints: [hintA], decimals: 2 });
      const b = new NormalizedCells({ rowCount: 1, hints: [hintB], decimals: 2 });
      const compare = cellComparator(a, b);
      let same = 0;
      for (const x of VALUES) {
        for (const y of VALUES) {
          if (!readsSame(x, y, hintA, hintB)) continue;
          same++;
          a.reset();
          b.reset();
          a.set(0, 0, x);
          b.set(0, 0, y);
          expect({ x, y, order: compare(0, 0, 0) }).toEqual({ x, y, order: 0 });
        }
      }
      // It settles most identical values, not only the trivial ones.
      expect(same).toBeGreaterThan(VALUES.length / 2);
    },
  );

  it.each<[unknown, unknown, ColumnHint, ColumnHint, boolean]>([
    ['customer_1', 'customer_1', 'unknown', 'number', true],
    ['2024-01-02', '2024-01-02', 'unknown', 'temporal', true],
    // Read as a date in one column and as text in the other.
    ['2024-01-02', '2024-01-02', 'unknown', 'number', false],
    // The infinite date in one column, the number in the other.
    ['infinity', 'infinity', 'unknown', 'temporal', false],
    [1, '1', 'unknown', 'unknown', false],
    [Number.NaN, Number.NaN, 'unknown', 'unknown', false],
  ])('%j and %j in %s and %s columns: %s', (x, y, hintA, hintB, expected) => {
    expect(readsSame(x, y, hintA, hintB)).toBe(expected);
  });
});
