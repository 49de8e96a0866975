import type { CellValue } from '../../warehouse/database.js';

/**
 * Why the data differs: the answer lacks expected columns, has another number of rows, or
 * has the same number of rows with different values.
 */
export type DiffKind = 'missing_columns' | 'row_count' | 'values';

export interface CellMismatch {
  column: string;
  actual: CellValue;
  expected: CellValue;
}

/** An actual row and the expected row it stands for, with the cells where they disagree. */
export interface RowMismatch {
  /** Position of the row in the actual rows as given (0-based). */
  actualRowIndex: number;
  /** Position of the row in the expected rows as given (0-based). */
  expectedRowIndex: number;
  cells: CellMismatch[];
  /** Both rows in full (compared columns, `DataDiff.columns` order), for context. */
  actualRow: CellValue[];
  expectedRow: CellValue[];
}

/** A row without counterpart on the other side. */
export interface DiffRow {
  /** Position of the row in its side's rows as given (0-based). */
  rowIndex: number;
  /** The row's values in `DataDiff.columns` order, as given (not normalised). */
  values: CellValue[];
}

/** Structured evidence for a failed comparison, for the viewer, the results file and `formatDiff`. */
export interface DataDiff {
  kind: DiffKind;
  /** The columns the row values below refer to: the expected columns, in their order. */
  columns: string[];
  /** Expected columns the actual data lacks (exact, case-sensitive names), in expected order. */
  missingColumns: string[];
  /** Actual columns that are not expected (ignored by the comparison). */
  extraColumns: string[];
  rowCount: { actual: number; expected: number };
  /** Pairs of rows that correspond but differ, ordered by expected row. */
  mismatches: RowMismatch[];
  onlyInActual: DiffRow[];
  onlyInExpected: DiffRow[];
  /** How many of each there are in all, before the diff limit. */
  counts: { mismatchedRows: number; onlyInActual: number; onlyInExpected: number };
  /** Set when the diff limit cut entries: rows shown and rows in all (pairs count once). */
  truncated: { shown: number; total: number } | null;
}

export const DEFAULT_DIFF_LIMIT = 20;

/**
 * Assembles a diff, keeping at most `limit` entries: changed pairs first, then missing rows,
 * then unexpected rows. Only the entries shown are materialised. Row numbers may be positions
 * in a subset of a table's rows, as long as they keep table order; the describe callbacks
 * report the table's own row indexes.
 */
export function buildDataDiff(options: {
  kind: DiffKind;
  columns: string[];
  missingColumns?: string[];
  extraColumns: string[];
  rowCount: { actual: number; expected: number };
  pairs?: ReadonlyArray<{ actual: number; expected: number }>;
  onlyInActual?: readonly number[];
  onlyInExpected?: readonly number[];
  limit: number;
  describePair?: (pair: { actual: number; expected: number }) => RowMismatch;
  describeActual?: (row: number) => DiffRow;
  describeExpected?: (row: number) => DiffRow;
}): DataDiff {
  const pairs = [...(options.pairs ?? [])].sort((x, y) => x.expected - y.expected || x.actual - y.actual);
  const onlyInExpected = [...(options.onlyInExpected ?? [])].sort((x, y) => x - y);
  const onlyInActual = [...(options.onlyInActual ?? [])].sort((x, y) => x - y);
  const total = pairs.length + onlyInExpected.length + onlyInActual.length;
  let room = options.limit;
  const take = <T>(items: readonly T[]): readonly T[] => {
    const shown = items.slice(0, Math.max(0, room));
    room -= shown.length;
    return shown;
  };
  const describePair = options.describePair;
  const mismatches = describePair === undefined ? [] : take(pairs).map((pair) => describePair(pair));
  const describeExpected = options.describeExpected;
  const shownExpected = describeExpected === undefined ? [] : take(onlyInExpected).map(describeExpected);
  const describeActual = options.describeActual;
  const shownActual = describeActual === undefined ? [] : take(onlyInActual).map(describeActual);
  const shown = mismatches.length + shownExpected.length + shownActual.length;
  return {
    kind: options.kind,
    columns: options.columns,
    missingColumns: options.missingColumns ?? [],
    extraColumns: options.extraColumns,
    rowCount: options.rowCount,
    mismatches,
    onlyInActual: shownActual,
    onlyInExpected: shownExpected,
    counts: {
      mismatchedRows: pairs.length,
      onlyInActual: onlyInActual.length,
      onlyInExpected: onlyInExpected.length,
    },
    truncated: shown < total ? { shown, total } : null,
  };
}
