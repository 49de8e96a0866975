import { type ColumnHint, columnHint } from './column-type.js';
import { cellComparator, NormalizedCells, readsSame } from './normalized-cells.js';
import { fillCells, normalizeTable } from './normalized-table.js';
import { rowHash } from './row-hash.js';
import { fingerprintOf, RowIndex } from './row-index.js';
import type { ExactMatch, MatchSide } from './row-matching.js';
import { cellOf, type Table } from './table-input.js';

/** Rows normalised at a time: their cells and values stay in cache while they are used. */
const BLOCK_ROWS = 2048;
/** Lookups whose memory is fetched together: enough to overlap the misses, few enough to stay cached. */
const BATCH_ROWS = 256;

// Written so that the touching loads stay in the compiled code; never read.
let _touched = 0;

/**
 * The exact step: pairs the answer's rows with equal reference rows, as multisets, duplicates
 * in table order on both sides (the last copies of a value are left over). The reference's rows are normalised a block at a time to fingerprint
 * them, and indexed by fingerprint; then the answer's rows stream through the index a block
 * at a time, each taking the first reference row left that equals it. A pair is confirmed on
 * the values as given when they are identical (the usual case), else on their normalised
 * cells. Only the rows left over are kept normalised, so a passing comparison allocates 13 to
 * 17 bytes per reference row and sorts nothing. That matters beyond the bytes: V8 starts a
 * full garbage collection once some 64 MB of typed arrays have been allocated since the last
 * one, and on the large heap that holds big results it costs more than the comparison.
 *
 * Results often list their rows in the same order or in reverse (an ORDER BY and its DESC):
 * the neighbour of the last reference row taken is tried first, which reads both tables in
 * order. Otherwise lookups go by fingerprint, their memory fetched a batch at a time.
 */
export function matchByIndex(options: {
  actual: MatchSide;
  expected: MatchSide;
  decimals: number;
  /** The row hash (default: rowHash); tests pass weak ones to make rows collide. */
  hash?: (cells: NormalizedCells, row: number) => number;
}): ExactMatch {
  const { actual, expected, decimals } = options;
  const hash = options.hash ?? rowHash;
  const reference = fingerprintRows({ side: expected, decimals, hash });
  if (!reference.success) return { ...reference, side: 'expected' };
  const index = RowIndex.build({ fingerprints: reference.fingerprints });
  const streamed = streamRows({ actual, expected, decimals, hash, index });
  if (!streamed.success) return { ...streamed, side: 'actual' };

  const expectedLeft = index.remaining();
  const actualSide = normalizeTable({
    ...actual,
    decimals,
    rows: { list: streamed.leftOver, fractional: streamed.fractional },
  });
  if (!actualSide.success) return { ...actualSide, side: 'actual' };
  const expectedSide = normalizeTable({
    ...expected,
    decimals,
    rows: { list: expectedLeft, fractional: reference.fractional },
  });
  if (!expectedSide.success) return { ...expectedSide, side: 'expected' };
  return {
    success: true,
    actual: actualSide.side,
    expected: expectedSide.side,
    unmatched: {
      actual: streamed.leftOver.map((_, row) => row),
      expected: expectedLeft.map((_, row) => row),
    },
  };
}

type RowHash = (cells: NormalizedCells, row: number) => number;

function hintsOf(side: MatchSide): ColumnHint[] {
  return side.sourceColumns.map((source) => columnHint(side.table.types[source]));
}

/** The fingerprint of every row of a side, and which columns hold fractional values. */
function fingerprintRows(options: {
  side: MatchSide;
  decimals: number;
  hash: RowHash;
}):
  | { success: true; fingerprints: Int32Array; fractional: readonly boolean[] }
  | { success: false; error: string } {
  const { side, decimals, hash } = options;
  const rowCount = side.table.rowCount;
  const block = new NormalizedCells({
    rowCount: Math.min(BLOCK_ROWS, rowCount),
    hints: hintsOf(side),
    decimals,
  });
  const fingerprints = new Int32Array(rowCount);
  for (let first = 0; first < rowCount; first += BLOCK_ROWS) {
    const count = Math.min(BLOCK_ROWS, rowCount - first);
    block.reset();
    const error = fillCells({ ...side, cells: block, first, rows: null, count });
    if (error !== null) return { success: false, error };
    for (let row = 0; row < count; row++) fingerprints[first + row] = fingerprintOf(hash(block, row));
  }
  return { success: true, fingerprints, fractional: block.fractional };
}

/**
 * Streams the answer's rows through the index a block at a time; returns the answer rows left
 * without a partner (table order) and which columns hold fractional values.
 */
function streamRows(options: {
  actual: MatchSide;
  expected: MatchSide;
  decimals: number;
  hash: RowHash;
  index: RowIndex;
}):
  | { success: true; leftOver: number[]; fractional: readonly boolean[] }
  | { success: false; error: string } {
  const { actual, expected, hash, index } = options;
  const rowCount = actual.table.rowCount;
  const block = new NormalizedCells({
    rowCount: Math.min(BLOCK_ROWS, rowCount),
    hints: hintsOf(actual),
    decimals: options.decimals,
  });
  const fingerprints = new Int32Array(block.rowCount);
  const candidates = new Int32Array(BATCH_ROWS);
  const rows = new BlockRows({ actual, expected, block });
  const leftOver: number[] = [];
  let last = -2;
  let step = 1;
  let guessesMissed = 0;
  for (let first = 0; first < rowCount; first += BLOCK_ROWS) {
    const count = Math.min(BLOCK_ROWS, rowCount - first);
    block.reset();
    const error = fillCells({ ...actual, cells: block, first, rows: null, count });
    if (error !== null) return { success: false, error };
    for (let row = 0; row < count; row++) fingerprints[row] = fingerprintOf(hash(block, row));
    rows.first = first;
    for (let start = 0; start < count; start += BATCH_ROWS) {
      const end = Math.min(start + BATCH_ROWS, count);
      // Most guesses of the last batch missed: the rows are in no useful order, fetch ahead.
      if (2 * guessesMissed > BATCH_ROWS) {
        index.candidates(fingerprints, start, end, candidates);
        touchRows({ table: expected.table, rows: candidates, count: end - start });
      }
      guessesMissed = 0;
      for (let row = start; row < end; row++) {
        const fingerprint = fingerprints[row]!;
        const guess = last + step;
        let taken: number;
        if (guess >= 0 && guess < index.rowCount && index.takeRow(guess, fingerprint, row, rows.equal)) {
          taken = guess;
        } else {
          guessesMissed++;
          taken = index.take(fingerprint, row, rows.equal);
          if (taken < 0) {
            leftOver.push(first + row);
            continue;
          }
        }
        step = taken > last ? 1 : -1;
        last = taken;
      }
    }
  }
  return { success: true, leftOver, fractional: block.fractional };
}

/**
 * Equality of a row of the answer's current block (normalised in `block`, table row
 * `first + row`) and a reference row: column by column on the values as given when
 * `readsSame` settles it, else on normalised cells, the reference value normalised on the spot.
 */
class BlockRows {
  /** The table row of the block's first row. */
  first = 0;
  readonly equal: (row: number, expectedRow: number) => boolean;

  constructor(options: { actual: MatchSide; expected: MatchSide; block: NormalizedCells }) {
    const { actual, expected, block } = options;
    const actualHints = block.hints;
    const expectedHints = hintsOf(expected);
    const columnCount = actualHints.length;
    const scratch = new NormalizedCells({ rowCount: 1, hints: expectedHints, decimals: block.decimals });
    const compare = cellComparator(block, scratch);
    const expectedValues = valueReader(expected);
    const actualValues = valueReader(actual);
    const actualPositions = actual.sourceColumns;
    const expectedPositions = expected.sourceColumns;
    this.equal = (row, expectedRow) => {
      const actualRow = actualValues.row(this.first + row);
      const expectedRowValues = expectedValues.row(expectedRow);
      for (let column = 0; column < columnCount; column++) {
        const value = actualValues.value(actualRow, actualPositions[column]!);
        const expectedValue = expectedValues.value(expectedRowValues, expectedPositions[column]!);
        if (readsSame(value, expectedValue, actualHints[column]!, expectedHints[column]!)) continue;
        scratch.reset();
        scratch.set(0, column, expectedValue);
        if (compare(row, 0, column) !== 0) return false;
      }
      return true;
    };
  }
}

/** Reads values out of a table's rows: positions of array rows, keys of records. */
function valueReader(side: MatchSide): {
  row: (row: number) => unknown;
  value: (values: unknown, column: number) => unknown;
} {
  const { table } = side;
  if (table.shape === 'arrays') {
    const rows = table.rows as ReadonlyArray<ReadonlyArray<unknown>>;
    return { row: (row) => rows[row], value: (values, column) => (values as ReadonlyArray<unknown>)[column] };
  }
  return { row: (row) => row, value: (row, column) => cellOf(table, row as number, column) };
}

/**
 * Loads the values of the given reference rows into the cache, in loops whose loads do not
 * depend on each other: the lookups that follow then find them there instead of waiting for
 * each row's cache misses one after the other.
 */
function touchRows(options: { table: Table; rows: Int32Array; count: number }): void {
  const { table, rows, count } = options;
  if (table.shape !== 'arrays') return;
  const values = table.rows as ReadonlyArray<ReadonlyArray<unknown>>;
  let sum = 0;
  for (let position = 0; position < count; position++) {
    const row = rows[position]!;
    if (row >= 0) sum += values[row]!.length;
  }
  for (let position = 0; position < count; position++) {
    const row = rows[position]!;
    if (row < 0) continue;
    const rowValues = values[row]!;
    for (let column = 0; column < rowValues.length; column++) {
      const value = rowValues[column];
      if (typeof value === 'string') sum += value.length;
    }
  }
  _touched = sum;
}
