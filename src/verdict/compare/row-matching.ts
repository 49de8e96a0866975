import { type CloseCells, type NormalizedTable, rowComparator } from './normalized-table.js';
import type { Table } from './table-input.js';

/** Rows of each side left without a partner. */
export interface Unmatched {
  actual: number[];
  expected: number[];
}

/** One side of the exact step: a table as given, and the positions of its compared columns. */
export interface MatchSide {
  table: Table;
  sourceColumns: number[];
}

/**
 * The exact step's outcome. Each side holds at least its rows left over, normalised;
 * `unmatched` lists those by their row numbers there, in table order. A malformed row stops
 * the step, with the side it is on.
 */
export type ExactMatch =
  | { success: true; actual: NormalizedTable; expected: NormalizedTable; unmatched: Unmatched }
  | { success: false; side: 'actual' | 'expected'; error: string };

/**
 * The approximate step on the rows exact matching left over: both sides sorted by `order`
 * (identifying columns first, measures last) and compared position by position, as the
 * reference compares its sorted frames. Returns the sorted lists and whether every position
 * agrees within the tolerance. Position only, on purpose: searching for any pairing that fits
 * would let a tolerance on integer ids (100001 vs 100000 is within rtol 1e-5) shift rows onto
 * their neighbours and pass data that is off by one row.
 */
export function compareSortedLeftovers(options: {
  actual: NormalizedTable;
  expected: NormalizedTable;
  unmatched: Unmatched;
  order: readonly number[];
  close: CloseCells;
}): { close: boolean; sorted: Unmatched } {
  const { actual, expected, order, close } = options;
  const sorted: Unmatched = {
    actual: [...options.unmatched.actual].sort(rowComparator({ a: actual, b: actual, order })),
    expected: [...options.unmatched.expected].sort(rowComparator({ a: expected, b: expected, order })),
  };
  const allClose =
    sorted.actual.length === sorted.expected.length &&
    sorted.actual.every((i, position) => close.row(i, sorted.expected[position]!));
  return { close: allClose, sorted };
}

/** How the rows that did not match are shown: as changed pairs, or as present on one side. */
export interface DiffPairing {
  pairs: Array<{ actual: number; expected: number }>;
  onlyInActual: number[];
  onlyInExpected: number[];
}

/**
 * Explains leftover rows (each list sorted by `order`). First, rows that agree on every
 * identifying column (`keyColumns`: the columns without fractional values) but differ in a
 * measure pair up: "region EU, revenue 105 instead of 100". Then neighbours in sort order that
 * agree on at least half of the columns pair up. Whatever is left exists on one side only.
 * Pairs that agree in every column within the tolerance are not differences and are dropped.
 * Linear after the sort.
 */
export function pairForDiff(options: {
  actual: NormalizedTable;
  expected: NormalizedTable;
  unmatched: Unmatched;
  order: readonly number[];
  keyColumns: readonly number[];
  close: CloseCells;
}): DiffPairing {
  const { actual, expected, order, keyColumns, close } = options;
  let actualRows = options.unmatched.actual;
  let expectedRows = options.unmatched.expected;
  let keyPairs: DiffPairing['pairs'] = [];
  const columnCount = expected.cells.columnCount;
  if (keyColumns.length > 0 && keyColumns.length < columnCount) {
    const byKey = mergePairs({
      actualRows,
      expectedRows,
      compare: rowComparator({ a: actual, b: expected, order: keyColumns }),
      accept: (_i, _j, keyOrder) => keyOrder === 0,
    });
    keyPairs = byKey.pairs;
    actualRows = byKey.onlyInActual;
    expectedRows = byKey.onlyInExpected;
  }
  const similar = mergePairs({
    actualRows,
    expectedRows,
    compare: rowComparator({ a: actual, b: expected, order }),
    accept: (i, j) => {
      const agreeing = close.agreeingColumns(i, j);
      return agreeing > 0 && agreeing * 2 >= columnCount;
    },
  });
  // concat, not push(...pairs): spreading a million arguments overflows the stack.
  return {
    pairs: keyPairs.concat(similar.pairs).filter((pair) => !close.row(pair.actual, pair.expected)),
    onlyInActual: similar.onlyInActual,
    onlyInExpected: similar.onlyInExpected,
  };
}

function mergePairs(options: {
  actualRows: readonly number[];
  expectedRows: readonly number[];
  compare: (i: number, j: number) => number;
  /** Whether rows i and j pair up, given their order by `compare`. */
  accept: (i: number, j: number, order: number) => boolean;
}): DiffPairing {
  const { actualRows, expectedRows, compare, accept } = options;
  const result: DiffPairing = { pairs: [], onlyInActual: [], onlyInExpected: [] };
  let x = 0;
  let y = 0;
  while (x < actualRows.length && y < expectedRows.length) {
    const i = actualRows[x]!;
    const j = expectedRows[y]!;
    const order = compare(i, j);
    if (accept(i, j, order)) {
      result.pairs.push({ actual: i, expected: j });
      x++;
      y++;
    } else if (order <= 0) {
      result.onlyInActual.push(i);
      x++;
    } else {
      result.onlyInExpected.push(j);
      y++;
    }
  }
  for (; x < actualRows.length; x++) result.onlyInActual.push(actualRows[x]!);
  for (; y < expectedRows.length; y++) result.onlyInExpected.push(expectedRows[y]!);
  return result;
}
