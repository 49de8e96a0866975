import type { CellValue } from '../../warehouse/database.js';
import { type ColumnHint, columnHint } from './column-type.js';
import { decimalFromNumber, parseDecimal } from './decimal.js';
import { cellComparator, KIND_NUMBER, NormalizedCells } from './normalized-cells.js';
import { cellOf, rowProblem, type Table } from './table-input.js';
import { isClose, type NumberOperand, type Tolerance } from './tolerance.js';

/** One side's compared columns, normalised, plus the way back to the original cells. */
export interface NormalizedTable {
  table: Table;
  /** For each compared column, its position in `table`. */
  sourceColumns: number[];
  cells: NormalizedCells;
}

export type NormalizeTableResult =
  | { success: true; side: NormalizedTable }
  | { success: false; error: string };

/** Normalises the compared columns of a table; fails on the first malformed row. */
export function normalizeTable(options: {
  table: Table;
  sourceColumns: number[];
  decimals: number;
}): NormalizeTableResult {
  const { table, sourceColumns, decimals } = options;
  const cells = new NormalizedCells({
    rowCount: table.rowCount,
    hints: sourceColumns.map((source) => columnHint(table.types[source])),
    decimals,
  });
  const fill = { table, sourceColumns, cells };
  const error = table.shape === 'arrays' ? fillFromArrays(fill) : fillFromRecords(fill);
  if (error !== null) return { success: false, error };
  return { success: true, side: { table, sourceColumns, cells } };
}

// The loops live in their own functions so each is optimised for its one shape of input.

interface FillOptions {
  table: Table;
  sourceColumns: readonly number[];
  cells: NormalizedCells;
}

function fillFromArrays({ table, sourceColumns, cells }: FillOptions): string | null {
  const rows = table.rows as ReadonlyArray<ReadonlyArray<unknown>>;
  const width = table.columns.length;
  for (let row = 0; row < table.rowCount; row++) {
    const values = rows[row]!;
    if (!Array.isArray(values) || values.length !== width) return rowProblem(table, row);
    cells.setRow(row, values, sourceColumns);
  }
  return null;
}

function fillFromRecords({ table, sourceColumns, cells }: FillOptions): string | null {
  for (let row = 0; row < table.rowCount; row++) {
    for (let column = 0; column < sourceColumns.length; column++) {
      cells.set(row, column, cellOf(table, row, sourceColumns[column]!));
    }
  }
  return null;
}

/** The original value of compared column `column` in row `row`. */
export function originalCell(side: NormalizedTable, row: number, column: number): CellValue {
  return cellOf(side.table, row, side.sourceColumns[column]!);
}

/** The compared columns of one row, as given (not normalised). */
export function originalRow(side: NormalizedTable, row: number): CellValue[] {
  return side.sourceColumns.map((column) => cellOf(side.table, row, column));
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
  const scratch = scratchCell(cells.hints[column]!);
  scratch.text[0] = null;
  scratch.set(0, 0, value);
  if (scratch.kinds[0] !== KIND_NUMBER) return null;
  const double = scratch.primary[0]!;
  const key = scratch.textAt(0, 0);
  return {
    value: double,
    decimal: () => (key === undefined ? decimalFromNumber(double) : parseDecimal(key)),
  };
}

const scratchCells = new Map<ColumnHint, NormalizedCells>();

/** One reusable unrounded cell per column hint, for reading raw values without allocating. */
function scratchCell(hint: ColumnHint): NormalizedCells {
  let cells = scratchCells.get(hint);
  if (cells === undefined) {
    cells = new NormalizedCells({ rowCount: 1, hints: [hint], decimals: null });
    scratchCells.set(hint, cells);
  }
  return cells;
}
