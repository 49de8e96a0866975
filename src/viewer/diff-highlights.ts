/**
 * Which cells of the actual and expected tables the run detail highlights, read from the
 * saved `details.diff` (the structure of compare/data-diff.ts plus `text`). The diff comes
 * from a JSON file of any nao version, so every field is checked before use; a diff without
 * structure (older files kept only the text) highlights nothing. Used by the web UI.
 */
import type { CellValue } from '../warehouse/database.js';

export interface CellDifference {
  column: string;
  actual: CellValue;
  expected: CellValue;
}

/** A changed row: where it sits on each side (0-based positions in the data as given). */
export interface RowDifference {
  actualRowIndex: number;
  expectedRowIndex: number;
  cells: CellDifference[];
}

export interface UnmatchedRow {
  rowIndex: number;
  values: CellValue[];
}

export interface DiffHighlights {
  kind: string;
  text: string;
  /** The columns `values` of unmatched rows refer to. */
  columns: string[];
  /** Actual row index → columns whose value differs from the expected row. */
  actualCells: Map<number, Set<string>>;
  expectedCells: Map<number, Set<string>>;
  /** Rows with no counterpart on the other side. */
  onlyInActual: UnmatchedRow[];
  onlyInExpected: UnmatchedRow[];
  mismatches: RowDifference[];
  missingColumns: string[];
  extraColumns: string[];
  /** Differences in all, and how many the diff kept (null: it kept them all). */
  truncated: { shown: number; total: number } | null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function isIndex(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

/** A saved cell as it is, anything else (an object, an array) as its JSON. */
function cell(value: unknown): CellValue {
  const plain = value === null || ['string', 'number', 'boolean'].includes(typeof value);
  return plain ? (value as CellValue) : JSON.stringify(value ?? null);
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

function cells(value: unknown): CellValue[] {
  return Array.isArray(value) ? value.map(cell) : [];
}

function unmatchedRows(value: unknown): UnmatchedRow[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((row) =>
    isRecord(row) && isIndex(row.rowIndex) ? [{ rowIndex: row.rowIndex, values: cells(row.values) }] : [],
  );
}

function rowDifferences(value: unknown): RowDifference[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((row) => {
    if (!isRecord(row) || !isIndex(row.actualRowIndex) || !isIndex(row.expectedRowIndex)) return [];
    const differing = Array.isArray(row.cells)
      ? row.cells.flatMap((item) =>
          isRecord(item) && typeof item.column === 'string'
            ? [{ column: item.column, actual: cell(item.actual), expected: cell(item.expected) }]
            : [],
        )
      : [];
    return [{ actualRowIndex: row.actualRowIndex, expectedRowIndex: row.expectedRowIndex, cells: differing }];
  });
}

function addCell(map: Map<number, Set<string>>, row: number, column: string): void {
  const set = map.get(row);
  if (set) set.add(column);
  else map.set(row, new Set([column]));
}

/** The highlights of a saved diff; null when the run has no diff. */
export function diffHighlights(diff: unknown): DiffHighlights | null {
  if (!isRecord(diff)) return null;
  const mismatches = rowDifferences(diff.mismatches);
  const actualCells = new Map<number, Set<string>>();
  const expectedCells = new Map<number, Set<string>>();
  for (const mismatch of mismatches) {
    for (const cell of mismatch.cells) {
      addCell(actualCells, mismatch.actualRowIndex, cell.column);
      addCell(expectedCells, mismatch.expectedRowIndex, cell.column);
    }
  }
  const truncated = diff.truncated;
  return {
    kind: typeof diff.kind === 'string' ? diff.kind : 'unknown',
    text: typeof diff.text === 'string' ? diff.text : '',
    columns: strings(diff.columns),
    actualCells,
    expectedCells,
    onlyInActual: unmatchedRows(diff.onlyInActual),
    onlyInExpected: unmatchedRows(diff.onlyInExpected),
    mismatches,
    missingColumns: strings(diff.missingColumns),
    extraColumns: strings(diff.extraColumns),
    truncated:
      isRecord(truncated) && isIndex(truncated.shown) && isIndex(truncated.total)
        ? { shown: truncated.shown, total: truncated.total }
        : null,
  };
}
