import type { CellValue } from '../../warehouse/database.js';
import { columnHint } from './column-type.js';
import { decimalFromNumber, parseDecimal } from './decimal.js';
import { cellComparator, KIND_NUMBER, NormalizedCells } from './normalized-cells.js';
import { cellOf, rowProblem, type Table } from './table-input.js';
import { isClose, type NumberOperand, type Tolerance } from './tolerance.js';

/**
 * One side's compared columns, normalised, plus the way back to the original cells. It may
 * hold only some of the table's rows (the ones exact matching left over); row numbers below
 * are then positions in `rows`, in table order.
 */
export interface NormalizedTable {
  table: Table;
  /** For each compared column, its position in `table`. */
  sourceColumns: number[];
  /** The table row of each normalised row; null when every row is there, in order. */
  rows: readonly number[] | null;
  cells: NormalizedCells;
  /**
   * Per compared column: some row of the whole table, normalised here or not, holds a value
   * with a fractional part (or ±Infinity), i.e. the column is a measure.
   */
  fractional: readonly boolean[];
}

export type NormalizeTableResult =
  | { success: true; side: NormalizedTable }
  | { success: false; error: string };

/**
 * Normalises the compared columns of a table, or of the listed rows only (then `fractional`
 * must say what the whole table holds); fails on the first malformed row.
 */
export function normalizeTable(options: {
  table: Table;
  sourceColumns: number[];
  decimals: number;
  rows?: { list: readonly number[]; fractional: readonly boolean[] };
}): NormalizeTableResult {
  const { table, sourceColumns, decimals } = options;
  const list = options.rows?.list ?? null;
  const cells = new NormalizedCells({
    rowCount: list === null ? table.rowCount : list.length,
    hints: sourceColumns.map((source) => columnHint(table.types[source])),
    decimals,
  });
  const error = fillCells({ table, sourceColumns, cells, first: 0, rows: list, count: cells.rowCount });
  if (error !== null) return { success: false, error };
  const fractional = options.rows?.fractional ?? cells.fractional;
  return { success: true, side: { table, sourceColumns, rows: list, cells, fractional } };
}

interface FillOptions {
  table: Table;
  sourceColumns: readonly number[];
  cells: NormalizedCells;
  first: number;
  rows: readonly number[] | null;
  count: number;
}

/**
 * Normalises `count` rows of `table` into rows 0, 1, … of `cells`: the table rows from
 * `first` on, or the table rows listed in `rows`. Returns the problem of the first malformed
 * row, or null.
 */
export function fillCells(options: FillOptions): string | null {
  return options.table.shape === 'arrays' ? fillFromArrays(options) : fillFromRecords(options);
}

// The loops live in their own functions so each is optimised for its one shape of input.

function fillFromArrays(options: FillOptions): string | null {
  const { table, sourceColumns: positions, cells, first, rows: list, count } = options;
  const rows = table.rows as ReadonlyArray<ReadonlyArray<unknown>>;
  const width = table.columns.length;
  for (let row = 0; row < count; row++) {
    const source = list === null ? first + row : list[row]!;
    const values = rows[source]!;
    if (!Array.isArray(values) || values.length !== width) return rowProblem(table, source);
    cells.setRow(row, values, positions);
  }
  return null;
}

function fillFromRecords(options: FillOptions): string | null {
  const { table, sourceColumns, cells, first, rows: list, count } = options;
  for (let row = 0; row < count; row++) {
    const source = list === null ? first + row : list[row]!;
    for (let column = 0; column < sourceColumns.length; column++) {
      cells.set(row, column, cellOf(table, source, sourceColumns[column]!));
    }
  }
  return null;
}

/** The table row of normalised row `row`. */
export function tableRow(side: NormalizedTable, row: number): number {
  return side.rows === null ? row : side.rows[row]!;
}

/** The original value of compared column `column` in row `row`. */
export function originalCell(side: NormalizedTable, row: number, column: number): CellValue {
  return cellOf(side.table, tableRow(side, row), side.sourceColumns[column]!);
}

/** The compared columns of one row, as given (not normalised). */
export function originalRow(side: NormalizedTable, row: number): CellValue[] {
  const source = tableRow(side, row);
  return side.sourceColumns.map((column) => cellOf(side.table, source, column));
}

/**
 * Orders row i of `a` against row j of `b` over the columns in `order`; 0 when they are equal
 * on all of them. `a` and `b` may be the same table (for sorting one side).
 */
export function rowComparator(options: {
  a: NormalizedTable;
  b: NormalizedTable;
  order: readonly number[];
}): (i: number, j: number) => number {
  const compare = cellComparator(options.a.cells, options.b.cells);
  const order = [...options.order];
  return (i, j) => {
    for (const column of order) {
      const result = compare(i, j, column);
      if (result !== 0) return result;
    }
    return 0;
  };
}

/**
 * Decides whether actual row i and expected row j agree, cell by cell: equal after
 * normalisation, or both numbers within the tolerance. The tolerance is tried on the rounded
 * values (the reference's rule) and on the unrounded ones, so noise that straddles a rounding
 * boundary (0.125 vs 0.12499999999 at 2 decimals) is not a difference.
 */
export class CloseCells {
  private readonly compare: (i: number, j: number, column: number) => number;

  constructor(
    private readonly sides: { actual: NormalizedTable; expected: NormalizedTable },
    private readonly tolerance: Tolerance,
  ) {
    this.compare = cellComparator(sides.actual.cells, sides.expected.cells);
  }

  cell(i: number, j: number, column: number): boolean {
    if (this.compare(i, j, column) === 0) return true;
    const { actual, expected } = this.sides;
    const a = actual.cells;
    const e = expected.cells;
    if (
      a.kinds[i * a.columnCount + column] !== KIND_NUMBER ||
      e.kinds[j * e.columnCount + column] !== KIND_NUMBER
    ) {
      return false;
    }
    const { rtol, atol } = this.tolerance;
    if (atol === 0 && rtol === 0) return false;
    const roundedClose = isClose({
      actual: { value: a.primary[i * a.columnCount + column]!, decimal: () => a.decimalAt(i, column) },
      expected: { value: e.primary[j * e.columnCount + column]!, decimal: () => e.decimalAt(j, column) },
      rtol,
      atol,
    });
    if (roundedClose) return true;
    const rawActual = rawNumber(originalCell(actual, i, column), a, column);
    const rawExpected = rawNumber(originalCell(expected, j, column), e, column);
    if (rawActual === null || rawExpected === null) return false;
    return isClose({ actual: rawActual, expected: rawExpected, rtol, atol });
  }

  /** Whether the rows agree on every compared column. */
  row(i: number, j: number): boolean {
    const columnCount = this.sides.expected.cells.columnCount;
    for (let column = 0; column < columnCount; column++) {
      if (!this.cell(i, j, column)) return false;
    }
    return true;
  }

  /** How many compared columns the rows agree on. */
  agreeingColumns(i: number, j: number): number {
    const columnCount = this.sides.expected.cells.columnCount;
    let agreeing = 0;
    for (let column = 0; column < columnCount; column++) {
      if (this.cell(i, j, column)) agreeing++;
    }
    return agreeing;
  }
}

/** The unrounded number a cell holds, or null when it is not a number. */
function rawNumber(value: CellValue, cells: NormalizedCells, column: number): NumberOperand | null {
  // A number is its own raw value; only text needs reading again.
  if (typeof value === 'number') {
    return Number.isNaN(value) ? null : { value, decimal: () => decimalFromNumber(value) };
  }
  const scratch = new NormalizedCells({ rowCount: 1, hints: [cells.hints[column]!], decimals: null });
  scratch.set(0, 0, value);
  if (scratch.kinds[0] !== KIND_NUMBER) return null;
  const double = scratch.primary[0]!;
  const key = scratch.textAt(0, 0);
  return {
    value: double,
    decimal: () => (key === undefined ? decimalFromNumber(double) : parseDecimal(key)),
  };
}
