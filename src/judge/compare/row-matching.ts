import { type NormalizedCells, rowEquality } from './normalized-cells.js';
import { type CloseCells, type NormalizedTable, normalizeTable, rowComparator } from './normalized-table.js';
import { rowIndexBits, rowKeys } from './row-hash.js';
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

/** Pairs the answer's rows with equal reference rows, as multisets, duplicates in table order. */
export type ExactMatcher = (options: {
  actual: MatchSide;
  expected: MatchSide;
  decimals: number;
}) => ExactMatch;

/**
 * The general exact step: normalises every row of both sides, then pairs rows through one
 * native sort of row keys per side (see `matchEqualRows`).
 */
export const matchBySorting: ExactMatcher = (options) => {
  const { decimals } = options;
  const expectedRead = normalizeTable({ ...options.expected, decimals });
  if (!expectedRead.success) return { ...expectedRead, side: 'expected' };
  const actualRead = normalizeTable({ ...options.actual, decimals });
  if (!actualRead.success) return { ...actualRead, side: 'actual' };
  const actual = actualRead.side;
  const expected = expectedRead.side;
  const order = actual.sourceColumns.map((_, column) => column);
  const unmatched = matchEqualRows({ actual, expected, order });
  // In table order, as ExactMatch promises: the approximate step's stable sort then leaves
  // equal rows in table order, whichever step paired the others.
  unmatched.actual.sort((x, y) => x - y);
  unmatched.expected.sort((x, y) => x - y);
  return { success: true, actual, expected, unmatched };
};

/**
 * Pairs every actual row with an equal expected row, as multisets (a row present twice must be
 * matched twice), and returns the rows left over. Rows are bucketed by a hash of their
 * normalised values through one native sort per side, and every pairing is confirmed by a full
 * comparison, so a hash collision can cost time but never a wrong match. (Sorting rows with a
 * JavaScript comparator instead takes seconds on a million rows.)
 */
export function matchEqualRows(options: {
  actual: NormalizedTable;
  expected: NormalizedTable;
  order: readonly number[];
  /** The row hash (default: rowHash); tests pass a constant one to make every row collide. */
  hash?: (cells: NormalizedCells, row: number) => number;
}): Unmatched {
  const { actual, expected, order } = options;
  const indexBits = rowIndexBits(Math.max(actual.cells.rowCount, expected.cells.rowCount));
  const indexRange = 2 ** indexBits;
  const keyOptions = { indexBits, hash: options.hash };
  const actualKeys = rowKeys(actual.cells, keyOptions).sort();
  const expectedKeys = rowKeys(expected.cells, keyOptions).sort();
  const unmatched: Unmatched = { actual: [], expected: [] };
  const compareAcross = rowComparator({ a: actual, b: expected, order });
  // The expected row with the same hash as each actual row, when each is alone with it.
  const candidate = new Int32Array(actual.cells.rowCount).fill(-1);
  const runOf = (keys: Float64Array, from: number, to: number, hash: number) => {
    const rows: number[] = [];
    for (let position = from; position < to; position++) rows.push(keys[position]! - hash * indexRange);
    return rows;
  };
  let p = 0;
  let q = 0;
  while (p < actualKeys.length || q < expectedKeys.length) {
    const actualHash = p < actualKeys.length ? Math.floor(actualKeys[p]! / indexRange) : Infinity;
    const expectedHash = q < expectedKeys.length ? Math.floor(expectedKeys[q]! / indexRange) : Infinity;
    const hash = Math.min(actualHash, expectedHash);
    const base = hash * indexRange;
    let pEnd = p;
    while (pEnd < actualKeys.length && actualKeys[pEnd]! - base < indexRange) pEnd++;
    let qEnd = q;
    while (qEnd < expectedKeys.length && expectedKeys[qEnd]! - base < indexRange) qEnd++;
    if (pEnd - p === 1 && qEnd - q === 1) {
      candidate[actualKeys[p]! - base] = expectedKeys[q]! - base;
    } else if (pEnd === p) {
      for (let position = q; position < qEnd; position++)
        unmatched.expected.push(expectedKeys[position]! - base);
    } else if (qEnd === q) {
      for (let position = p; position < pEnd; position++) unmatched.actual.push(actualKeys[position]! - base);
    } else {
      // Duplicates or a collision: order the run and pair equal rows by a merge.
      const actualRun = runOf(actualKeys, p, pEnd, hash).sort(rowComparator({ a: actual, b: actual, order }));
      const expectedRun = runOf(expectedKeys, q, qEnd, hash).sort(
        rowComparator({ a: expected, b: expected, order }),
      );
      mergeEqual({ actualRun, expectedRun, compare: compareAcross, unmatched });
    }
    p = pEnd;
    q = qEnd;
  }
  confirmCandidates({
    actual,
    expected,
    candidate,
    equal: rowEquality(actual.cells, expected.cells),
    unmatched,
  });
  return unmatched;
}

const BATCH = 64;
// Written so that the touching loads stay in the compiled code; never read.
let _touched = 0;

/**
 * Checks each candidate pair in full. Actual rows are visited in order; the expected rows come
 * in random order, and each costs a few cache misses. Touching a batch of them first, with
 * loads that do not depend on each other, lets the processor wait for those misses together
 * instead of one after the other.
 */
function confirmCandidates(options: {
  actual: NormalizedTable;
  expected: NormalizedTable;
  candidate: Int32Array;
  equal: (i: number, j: number) => boolean;
  unmatched: Unmatched;
}): void {
  const { expected, candidate, equal, unmatched } = options;
  const { kinds, primary, columnCount, text } = expected.cells;
  const textColumns = text
    .map((slots, column) => (slots === null ? -1 : column))
    .filter((column) => column >= 0);
  let sum = 0;
  for (let start = 0; start < candidate.length; start += BATCH) {
    const end = Math.min(start + BATCH, candidate.length);
    for (let i = start; i < end; i++) {
      const j = candidate[i]!;
      if (j < 0) continue;
      const cell = j * columnCount;
      sum += kinds[cell]! + primary[cell]!;
      for (const column of textColumns) sum += text[column]![j]?.length ?? 0;
    }
    for (let i = start; i < end; i++) {
      const j = candidate[i]!;
      if (j >= 0 && !equal(i, j)) {
        unmatched.actual.push(i);
        unmatched.expected.push(j);
      }
    }
  }
  _touched = sum;
}

function mergeEqual(options: {
  actualRun: number[];
  expectedRun: number[];
  compare: (i: number, j: number) => number;
  unmatched: Unmatched;
}): void {
  const { actualRun, expectedRun, compare, unmatched } = options;
  let x = 0;
  let y = 0;
  while (x < actualRun.length && y < expectedRun.length) {
    const i = actualRun[x]!;
    const j = expectedRun[y]!;
    const result = compare(i, j);
    if (result === 0) {
      x++;
      y++;
    } else if (result < 0) {
      unmatched.actual.push(i);
      x++;
    } else {
      unmatched.expected.push(j);
      y++;
    }
  }
  for (; x < actualRun.length; x++) unmatched.actual.push(actualRun[x]!);
  for (; y < expectedRun.length; y++) unmatched.expected.push(expectedRun[y]!);
}

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
