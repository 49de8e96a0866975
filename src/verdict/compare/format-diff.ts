// The display rule of numbers is the reporters' (a leaf module without imports), so a diff
// shows 2458.34 where the terminal, the viewer and the chat do, not 2458.3400000000006.

import { plural } from '../../assertions/assertion-fields.js';
import { formatJsonForDisplay, formatNumber } from '../../number-format/format-values.js';
import type { CellValue } from '../../warehouse/database.js';
import type { DataDiff, DiffRow, RowMismatch } from './data-diff.js';

/** Agreeing columns printed as context for a changed row; wide rows would drown the change. */
const CONTEXT_COLUMNS = 4;
const MAX_VALUE_LENGTH = 80;

/**
 * The diff as text for the console and logs: the reason, then changed rows with their
 * differing cells, rows only in the expected data, rows only in the answer, and how many
 * were left out. Row numbers are 0-based positions in the rows as given.
 */
export function formatDiff(diff: DataDiff): string {
  const lines = [headline(diff)];
  if (diff.kind === 'missing_columns') {
    lines.push(`expected columns: ${diff.columns.join(', ')}`);
    if (diff.extraColumns.length > 0)
      lines.push(`answer columns not expected: ${diff.extraColumns.join(', ')}`);
    return lines.join('\n');
  }
  if (diff.mismatches.length > 0) {
    lines.push('changed rows:');
    for (const mismatch of diff.mismatches) lines.push(...formatMismatch(diff, mismatch));
  }
  for (const [side, rows] of [
    ['expected', diff.onlyInExpected],
    ['actual', diff.onlyInActual],
  ] as const) {
    if (rows.length === 0) continue;
    lines.push(`only in ${side}:`);
    for (const row of rows) lines.push(`  ${side} row ${row.rowIndex}: ${formatRow(diff.columns, row)}`);
  }
  if (diff.truncated !== null) {
    const hidden = diff.truncated.total - diff.truncated.shown;
    lines.push(
      `… ${hidden} more ${hidden === 1 ? 'difference' : 'differences'} not shown (diff limit ${diff.truncated.shown})`,
    );
  }
  return lines.join('\n');
}

function headline(diff: DataDiff): string {
  const { actual, expected } = diff.rowCount;
  if (diff.kind === 'missing_columns') return `missing columns: ${diff.missingColumns.join(', ')}`;
  const parts: string[] = [];
  const { mismatchedRows, onlyInActual, onlyInExpected } = diff.counts;
  if (mismatchedRows > 0) parts.push(`${plural(mismatchedRows, 'changed row')}`);
  if (onlyInExpected > 0) parts.push(`${plural(onlyInExpected, 'row')} only in expected`);
  if (onlyInActual > 0) parts.push(`${plural(onlyInActual, 'row')} only in actual`);
  const detail = parts.join(', ');
  if (diff.kind === 'row_count')
    return `row count: ${actual} actual vs ${expected} expected${detail === '' ? '' : `; ${detail}`}`;
  return `values differ: ${detail} (of ${expected} rows)`;
}

function formatMismatch(diff: DataDiff, mismatch: RowMismatch): string[] {
  const differing = new Set(mismatch.cells.map((cell) => cell.column));
  const context = diff.columns
    .map((column, index) => ({ column, value: mismatch.expectedRow[index] ?? null }))
    .filter((entry) => !differing.has(entry.column));
  const shownContext = context
    .slice(0, CONTEXT_COLUMNS)
    .map((entry) => `${entry.column}=${formatValue(entry.value)}`)
    .join(', ');
  const more = context.length > CONTEXT_COLUMNS ? ', …' : '';
  const where = shownContext === '' ? '' : ` (${shownContext}${more})`;
  const rows =
    mismatch.actualRowIndex === mismatch.expectedRowIndex
      ? `row ${mismatch.expectedRowIndex}`
      : `expected row ${mismatch.expectedRowIndex} / actual row ${mismatch.actualRowIndex}`;
  return [
    `  ${rows}${where}:`,
    ...mismatch.cells.map(
      (cell) =>
        `    ${cell.column}: expected ${formatValue(cell.expected)}, actual ${formatValue(cell.actual)}`,
    ),
  ];
}

function formatRow(columns: readonly string[], row: DiffRow): string {
  return row.values
    .map((value, index) => `${columns[index] ?? `#${index}`}=${formatValue(value)}`)
    .join(', ');
}

/**
 * NULL for null, strings quoted (so '' and ' 1' are visible), doubles with at most 15
 * significant digits, booleans as is.
 */
export function formatValue(value: CellValue | undefined): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'string') {
    const quoted = JSON.stringify(value);
    return quoted.length > MAX_VALUE_LENGTH ? `${quoted.slice(0, MAX_VALUE_LENGTH - 2)}…"` : quoted;
  }
  if (typeof value === 'number') return formatNumber(value);
  if (typeof value === 'boolean') return String(value);
  // Data read from JSON can hold what CellValue does not promise; show it rather than fail.
  return formatJsonForDisplay(value);
}
