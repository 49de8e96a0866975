/**
 * The end of a `nao test` run in the terminal: every failed and errored run again, one block
 * each, with why it did not pass (the failed check, a compact diff of the data), so the reason
 * is on screen without --verbose or the viewer.
 */
import { formatJsonForDisplay, formatNumber } from '../../number-format/format-values.js';
import type { RunResult } from '../results-file.js';
import { hasRepeats } from '../run-pairs.js';
import { STATUS_MARK, statusOf } from '../run-status.js';
import { paint } from './box-table.js';
import { displayWidth, toCellText, truncateToWidth } from './terminal-text.js';

/** Differing rows shown per side (expected, actual) in a run's compact diff. */
const DIFF_ROWS_PER_SIDE = 5;
/** Columns a single cell of the compact diff may take before it is cut. */
const MAX_CELL_WIDTH = 24;

/** What a comparison says when it passed (see verdict/compare): not a failed check. */
const PASSED_COMPARISON = /^(match|match \(approximate\)|both empty)$/;

/**
 * The checks of a failed run that failed, in the order the verdict lists checks (data, judge
 * model, assertions): `values differ: …` or a failed assertion rather than the first check,
 * which may have passed. An error's reason for an error run; the message otherwise.
 */
export function failedChecks(result: RunResult): string[] {
  const status = statusOf(result);
  if (status === 'error') return [firstLine(result.error ?? result.message)];
  if (status !== 'failed') return [result.message];
  const details = result.details ?? ({} as Partial<RunResult['details']>);
  const judge = details.judge ?? null;
  const assertions = Array.isArray(details.assertions) ? details.assertions : [];
  const checks: string[] = [];

  const diffText = typeof details.diff?.text === 'string' ? details.diff.text : null;
  if (diffText !== null) checks.push(firstLine(diffText));
  else if (details.reference_sql != null) {
    // The message is "<comparison>; <judge reason>; <assertion messages>": what precedes the
    // judge's and the assertions' parts is the comparison's, failed unless it says it matched.
    const later = [judge?.verdict != null ? judge.reason : '', ...assertions.map((item) => item.message)]
      .filter((part) => part !== '')
      .join('; ');
    const comparison =
      later === ''
        ? result.message
        : result.message.endsWith(`; ${later}`)
          ? result.message.slice(0, -later.length - 2)
          : null;
    if (comparison !== null && comparison !== '' && !PASSED_COMPARISON.test(comparison))
      checks.push(comparison);
  }
  if (judge?.verdict === 'fail') checks.push(`judge: ${judge.reason}`);
  for (const assertion of assertions) if (assertion.passed === false) checks.push(assertion.message);
  return checks.length > 0 ? checks : [result.message];
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0] ?? '';
}

/**
 * One block per failed or errored run (test, model, the failed check in a line, a compact
 * diff for a data mismatch) and a line counting the unverified runs; null when there is
 * nothing to recap.
 */
export function renderRecap(
  results: readonly RunResult[],
  options: { width: number; color: boolean },
): string | null {
  const { width, color } = options;
  const broken = results.filter((result) => {
    const status = statusOf(result);
    return status === 'failed' || status === 'error';
  });
  const unverified = results.filter((result) => statusOf(result) === 'unverified').length;
  if (broken.length === 0 && unverified === 0) return null;

  const sections: string[] = [];
  if (broken.length > 0) {
    const failed = broken.filter((result) => statusOf(result) === 'failed').length;
    const errors = broken.length - failed;
    const counts = [
      failed > 0 ? `${failed} failed` : '',
      errors > 0 ? `${errors} ${errors === 1 ? 'error' : 'errors'}` : '',
    ]
      .filter((part) => part !== '')
      .join(', ');
    sections.push(paint(`Runs that did not pass (${counts})`, 'bold', color));
    const repeated = hasRepeats(results);
    for (const result of broken) sections.push(runBlock({ result, repeated, width, color }));
  }
  if (unverified > 0) {
    sections.push(
      paint(
        `${unverified} ${unverified === 1 ? 'run' : 'runs'} unverified: ${unverified === 1 ? 'its test has' : 'their tests have'} no sql, expected_answer or assertions, so nothing was checked.`,
        'yellow',
        color,
      ),
    );
  }
  return sections.join('\n\n');
}

function runBlock(options: { result: RunResult; repeated: boolean; width: number; color: boolean }): string {
  const { result, width, color } = options;
  const status = statusOf(result);
  const attempt = options.repeated ? ` #${result.attempt}` : '';
  const heading = toCellText(`${STATUS_MARK[status]} ${result.name}${attempt} · ${result.model}`);
  const lines = [paint(truncateToWidth(heading, width), status === 'failed' ? 'red' : 'yellow', color)];
  const fitLine = (line: string) => truncateToWidth(toCellText(line), width - 2);

  const [reason = '', ...others] = failedChecks(result);
  lines.push(`  ${fitLine(reason)}`);
  const diff = readDiff(result.details?.diff);
  if (diff !== null)
    for (const line of compactDiff({ diff, width: width - 2, color })) lines.push(`  ${line}`);
  for (const other of others) lines.push(`  ${fitLine(`also: ${other}`)}`);
  return lines.join('\n');
}

/** The parts of a saved diff the recap reads; files from other writers may lack them. */
interface SavedDiff {
  kind: string;
  text: string;
  columns: string[];
  mismatches: {
    expectedRowIndex: number;
    actualRowIndex: number;
    expectedRow: unknown[];
    actualRow: unknown[];
    cells: { column: string }[];
  }[];
  onlyInExpected: { rowIndex: number; values: unknown[] }[];
  onlyInActual: { rowIndex: number; values: unknown[] }[];
  counts: { mismatchedRows: number; onlyInExpected: number; onlyInActual: number };
}

function readDiff(value: unknown): SavedDiff | null {
  if (typeof value !== 'object' || value === null) return null;
  const diff = value as Partial<SavedDiff>;
  if (typeof diff.text !== 'string' || !Array.isArray(diff.columns)) return null;
  if (
    !Array.isArray(diff.mismatches) ||
    !Array.isArray(diff.onlyInExpected) ||
    !Array.isArray(diff.onlyInActual)
  )
    return null;
  const counts = diff.counts ?? {
    mismatchedRows: diff.mismatches.length,
    onlyInExpected: diff.onlyInExpected.length,
    onlyInActual: diff.onlyInActual.length,
  };
  return { ...(diff as SavedDiff), kind: String(diff.kind), counts };
}

interface DiffLine {
  side: 'expected' | 'actual';
  row: number;
  values: readonly unknown[];
  /** Columns that differ from the paired row (all of them for a row without a pair). */
  differing: ReadonlySet<string> | 'all';
}

/**
 * The differing rows as a small aligned table, expected rows marked "-" and actual rows "+",
 * at most five per side, changed pairs first; columns that agree are dropped first when the
 * rows would not fit the width.
 */
function compactDiff(options: { diff: SavedDiff; width: number; color: boolean }): string[] {
  const { diff, width, color } = options;
  if (diff.kind === 'missing_columns')
    return diff.text
      .split('\n')
      .slice(1)
      .map((line) => truncateToWidth(toCellText(line), width));
  const shown: DiffLine[] = [];
  const room = { expected: DIFF_ROWS_PER_SIDE, actual: DIFF_ROWS_PER_SIDE };
  let entriesShown = 0;
  for (const mismatch of diff.mismatches) {
    if (room.expected === 0 || room.actual === 0) break;
    const differing = new Set(mismatch.cells.map((cell) => cell.column));
    shown.push({ side: 'expected', row: mismatch.expectedRowIndex, values: mismatch.expectedRow, differing });
    shown.push({ side: 'actual', row: mismatch.actualRowIndex, values: mismatch.actualRow, differing });
    room.expected--;
    room.actual--;
    entriesShown++;
  }
  for (const [side, rows] of [
    ['expected', diff.onlyInExpected],
    ['actual', diff.onlyInActual],
  ] as const) {
    for (const row of rows) {
      if (room[side] === 0) break;
      shown.push({ side, row: row.rowIndex, values: row.values, differing: 'all' });
      room[side]--;
      entriesShown++;
    }
  }
  if (shown.length === 0) return [];

  const labels = shown.map((line) => `${line.side === 'expected' ? '-' : '+'} ${line.side} row ${line.row}`);
  const labelWidth = Math.max(...labels.map(displayWidth));
  const cells = shown.map((line) => diff.columns.map((_, index) => cellText(line.values[index])));
  const columnWidth = (index: number) =>
    Math.max(
      displayWidth(toCellText(diff.columns[index] ?? '')),
      ...cells.map((row) => displayWidth(row[index] ?? '')),
    );
  const isDiffering = (column: string) =>
    shown.some((line) => line.differing === 'all' || line.differing.has(column));
  // Differing columns always; agreeing ones (context) while they fit, in table order.
  const kept = new Set(
    diff.columns.map((column, index) => (isDiffering(column) ? index : -1)).filter((index) => index >= 0),
  );
  let used = labelWidth + [...kept].reduce((sum, index) => sum + 2 + columnWidth(index), 0);
  diff.columns.forEach((_, index) => {
    if (kept.has(index)) return;
    const extra = 2 + columnWidth(index);
    if (used + extra <= width) {
      kept.add(index);
      used += extra;
    }
  });
  const columns = diff.columns.map((_, index) => index).filter((index) => kept.has(index));
  const widths = new Map(columns.map((index) => [index, columnWidth(index)]));
  const pad = (text: string, size: number) => text + ' '.repeat(Math.max(0, size - displayWidth(text)));
  const render = (label: string, texts: readonly string[]) =>
    truncateToWidth(
      [pad(label, labelWidth), ...columns.map((index) => pad(texts[index] ?? '', widths.get(index) ?? 0))]
        .join('  ')
        .trimEnd(),
      width,
    );
  // Whole lines are painted after they are cut, so no escape code is cut in half.
  const lines = [render('', diff.columns.map(toCellText))];
  shown.forEach((line, lineIndex) => {
    const text = render(labels[lineIndex] ?? '', cells[lineIndex] ?? []);
    lines.push(paint(text, line.side === 'expected' ? 'red' : 'green', color));
  });
  const total = diff.counts.mismatchedRows + diff.counts.onlyInExpected + diff.counts.onlyInActual;
  const hidden = total - entriesShown;
  if (hidden > 0) {
    lines.push(
      `… ${hidden} more differing ${hidden === 1 ? 'row' : 'rows'} (nao test --verbose, or the viewer: nao test server)`,
    );
  }
  return lines;
}

/** A cell of the compact diff: NULL spelled out, doubles with 15 significant digits, cut to a readable width. */
function cellText(value: unknown): string {
  let text: string;
  if (value === null || value === undefined) text = 'NULL';
  else if (typeof value === 'number') text = formatNumber(value);
  else if (typeof value === 'string') text = value;
  else if (typeof value === 'boolean') text = String(value);
  else text = formatJsonForDisplay(value);
  return truncateToWidth(toCellText(text), MAX_CELL_WIDTH);
}
