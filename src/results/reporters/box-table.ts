/**
 * A box-drawn table in the style of the reference's console output (heavy header, light body),
 * fitted to a terminal width by shrinking the columns the caller allows to shrink.
 */
import { type Align, displayWidth, paddingFor, toCellText, truncateToWidth } from './terminal-text.js';

export type CellColor = 'green' | 'red' | 'yellow';

export interface TableCell {
  /** One entry per printed line (a model may print as "openai" over "gpt-4.1"). */
  lines: string[];
  color?: CellColor;
}

export interface TableColumn {
  /** Header lines, printed bottom-aligned like the reference's "Pass" over "Rate". */
  header: string[];
  align: Align;
}

/**
 * How to make the table narrower, tried in order until it fits: cut a column's text down to
 * `minWidth` columns (ending with "…"), or rewrite each of its body lines more compactly
 * with `reflow` (split "openai:gpt-4.1" over two lines, keep only a status mark).
 */
export type ShrinkStep =
  | { column: number; kind: 'truncate'; minWidth: number }
  | { column: number; kind: 'reflow'; reflow: (line: string) => string[] };

export interface BoxTable {
  title: string;
  columns: TableColumn[];
  rows: TableCell[][];
  /** A last row (totals) below a thin rule. */
  footer?: TableCell[];
}

export interface BoxTableOptions {
  /** Terminal columns available; the table is shrunk to fit when its shrink steps allow. */
  width: number;
  color: boolean;
  shrink?: ShrinkStep[];
}

const ANSI: Record<CellColor | 'bold' | 'italic', readonly [string, string]> = {
  green: ['\u001b[32m', '\u001b[39m'],
  red: ['\u001b[31m', '\u001b[39m'],
  yellow: ['\u001b[33m', '\u001b[39m'],
  bold: ['\u001b[1m', '\u001b[22m'],
  italic: ['\u001b[3m', '\u001b[23m'],
};

/** Wraps text in an ANSI style when color is on; plain text otherwise. */
export function paint(
  text: string,
  style: CellColor | 'bold' | 'italic' | undefined,
  color: boolean,
): string {
  if (!color || style === undefined || text === '') return text;
  const [open, close] = ANSI[style];
  return `${open}${text}${close}`;
}

/** Table width for the given column content widths: "│ a │ b │". */
function tableWidth(widths: readonly number[]): number {
  return widths.reduce((sum, width) => sum + width + 3, 1);
}

function cleanCell(cell: TableCell | undefined): TableCell {
  if (cell === undefined) return { lines: [''] };
  const lines = cell.lines.length === 0 ? [''] : cell.lines.map(toCellText);
  return cell.color === undefined ? { lines } : { lines, color: cell.color };
}

function naturalWidth(columnIndex: number, header: readonly string[], body: readonly TableCell[][]): number {
  let width = Math.max(0, ...header.map(displayWidth));
  for (const row of body) {
    for (const line of row[columnIndex]?.lines ?? []) width = Math.max(width, displayWidth(line));
  }
  return width;
}

/** Renders the table as text lines joined with "\n" (no trailing newline). */
export function renderBoxTable(table: BoxTable, options: BoxTableOptions): string {
  const headers = table.columns.map((column) => column.header.map(toCellText));
  let rows = table.rows.map((row) => table.columns.map((_, index) => cleanCell(row[index])));
  let footer = table.footer ? table.columns.map((_, index) => cleanCell(table.footer?.[index])) : undefined;
  const allRows = () => (footer ? [...rows, footer] : rows);

  const natural = table.columns.map((_, index) => naturalWidth(index, headers[index] ?? [], allRows()));
  const widths = [...natural];
  for (const step of options.shrink ?? []) {
    const excess = tableWidth(widths) - options.width;
    if (excess <= 0) break;
    const current = widths[step.column];
    if (current === undefined) continue;
    if (step.kind === 'truncate') {
      widths[step.column] = Math.min(current, Math.max(step.minWidth, current - excess));
    } else {
      const reflowCell = (cell: TableCell): TableCell => ({
        ...cell,
        lines: cell.lines.flatMap(step.reflow),
      });
      const reflowRow = (row: TableCell[]) =>
        row.map((cell, index) => (index === step.column ? reflowCell(cell) : cell));
      rows = rows.map(reflowRow);
      if (footer) footer = reflowRow(footer);
      natural[step.column] = naturalWidth(step.column, headers[step.column] ?? [], allRows());
      widths[step.column] = Math.min(current, natural[step.column] ?? current);
    }
  }

  // A later step (a split) may have freed more room than needed: give it back to the columns
  // cut earlier, the last cut first, so nothing is truncated that now fits.
  const applied = options.shrink ?? [];
  for (let index = applied.length - 1; index >= 0; index--) {
    const step = applied[index];
    const slack = options.width - tableWidth(widths);
    if (slack <= 0) break;
    if (step?.kind !== 'truncate') continue;
    const current = widths[step.column] ?? 0;
    widths[step.column] = Math.min(natural[step.column] ?? current, current + slack);
  }

  const color = options.color;
  const rule = (left: string, fill: string, middle: string, right: string) =>
    left + widths.map((width) => fill.repeat(width + 2)).join(middle) + right;

  const renderLines = (cells: TableCell[], edge: string, style?: 'bold', bottomAlign = false): string[] => {
    const height = Math.max(1, ...cells.map((cell) => cell.lines.length));
    const out: string[] = [];
    for (let lineIndex = 0; lineIndex < height; lineIndex++) {
      const parts = cells.map((cell, columnIndex) => {
        const width = widths[columnIndex] ?? 0;
        const offset = bottomAlign ? height - cell.lines.length : 0;
        const raw = cell.lines[lineIndex - offset] ?? '';
        const text = truncateToWidth(raw, width);
        const { left, right } = paddingFor(text, width, table.columns[columnIndex]?.align ?? 'left');
        // Paint only the text, not its padding, so the colored span matches what is shown.
        return ` ${' '.repeat(left)}${paint(text, cell.color ?? style, color)}${' '.repeat(right)} `;
      });
      out.push(edge + parts.join(edge) + edge);
    }
    return out;
  };

  const lines: string[] = [];
  const total = tableWidth(widths);
  if (table.title !== '') {
    const title = toCellText(table.title);
    const indent = Math.max(0, Math.floor((total - displayWidth(title)) / 2));
    lines.push(' '.repeat(indent) + paint(title, 'italic', color));
  }
  lines.push(rule('┏', '━', '┳', '┓'));
  lines.push(
    ...renderLines(
      headers.map((header) => ({ lines: header.length === 0 ? [''] : header })),
      '┃',
      'bold',
      true,
    ),
  );
  lines.push(rule('┡', '━', '╇', '┩'));
  for (const row of rows) lines.push(...renderLines(row, '│'));
  if (footer) {
    if (rows.length > 0) lines.push(rule('├', '─', '┼', '┤'));
    lines.push(...renderLines(footer, '│', 'bold'));
  }
  lines.push(rule('└', '─', '┴', '┘'));
  return lines.join('\n');
}
