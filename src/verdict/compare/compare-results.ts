import { type ComparisonOptions, DEFAULT_COMPARISON } from '../../config/schema.js';
import { NaoError } from '../../errors/index.js';
import { buildDataDiff, type DataDiff, DEFAULT_DIFF_LIMIT, type RowMismatch } from './data-diff.js';
import { matchByIndex } from './match-by-index.js';
import { cellComparator } from './normalized-cells.js';
import {
  CloseCells,
  type NormalizedTable,
  normalizeTable,
  originalCell,
  originalRow,
  tableRow,
} from './normalized-table.js';
import { compareSortedLeftovers, type DiffPairing, pairForDiff, type Unmatched } from './row-matching.js';
import {
  cellOf,
  findRowProblem,
  matchColumns,
  type ResultData,
  readTable,
  type Table,
} from './table-input.js';

export interface CompareOptions {
  /** The answer's data (from the extraction sandbox); null/undefined when none was produced. */
  actual: ResultData | null | undefined;
  /** The reference SQL's result. */
  expected: ResultData;
  /** `test.comparison` of nao_config.yaml; defaults to rtol 1e-5, atol 1e-8, 2 decimals. */
  tolerances?: ComparisonOptions;
  /** Compare rows position by position instead of as multisets. */
  ordered?: boolean;
  /** Why extraction produced no data; becomes the message when `actual` is missing. */
  actualError?: string | null;
  /** Rows shown in the diff at most (default 20); the rest are counted. */
  diffLimit?: number;
}

export interface ComparisonResult {
  passed: boolean;
  /** One of the fixed messages ("match", "values differ", "row count: 3 vs 4", …). */
  message: string;
  /** Evidence when the data differs; null on a pass and when there was no data to compare. */
  diff: DataDiff | null;
}

/**
 * Decides whether the answer holds the reference's data, following the reference process in
 * order: no data → fail; empty sides; expected columns present by exact name (extra actual
 * columns ignored); equal row counts; normalise, round numbers to
 * `decimals`, ignore row order, keep duplicates; exact equality ("match"), else every number
 * within `atol + rtol·|expected|` and everything else equal ("match (approximate)"), else
 * "values differ" with a diff.
 *
 * The tolerance applies to every pair of numbers, integers included, as numpy's `allclose` on
 * numeric columns does (with rtol 1e-5, 100001 vs 100000 passes as approximate; set rtol and
 * atol to 0 for exact counts). It is tried on the rounded and on the unrounded values, so float
 * noise that lands on both sides of a rounding boundary never fails a test. Like the reference,
 * the approximate step pairs rows by position after sorting (identifying columns first), so an
 * approximate pass rests on that one-to-one pairing with every cell agreeing.
 *
 * Pure, and it never throws on any answer data: a malformed
 * answer fails with "actual data is not a table: …". Only invalid tolerances or an expected
 * side that is not a table (a caller bug) raise a NaoError.
 */
export function compareResults(options: CompareOptions): ComparisonResult {
  const tolerances = checkTolerances(options.tolerances ?? DEFAULT_COMPARISON);
  const diffLimit = checkDiffLimit(options.diffLimit ?? DEFAULT_DIFF_LIMIT);
  const expectedRead = readTable(options.expected);
  if (!expectedRead.success) throw invalidExpected(expectedRead.error);
  const expected = expectedRead.table;
  // Rows are checked where they are read anyway; paths that skip reading them check first.
  const checkExpectedRows = () => {
    const problem = findRowProblem(expected);
    if (problem !== null) throw invalidExpected(problem);
  };
  if (options.actual === null || options.actual === undefined) {
    checkExpectedRows();
    const error = options.actualError?.trim();
    return failed(error !== undefined && error !== '' ? error : 'no data returned', null);
  }
  const actualRead = readTable(options.actual);
  if (!actualRead.success) {
    checkExpectedRows();
    return failed(notATable(actualRead.error), null);
  }
  const actual = actualRead.table;

  const rowCount = { actual: actual.rowCount, expected: expected.rowCount };
  const columns = matchColumns({ expected: expected.columns, actual: actual.columns });
  if (rowCount.actual === 0 || rowCount.expected === 0 || columns.missing.length > 0) {
    checkExpectedRows();
    const problem = findRowProblem(actual);
    if (problem !== null) return failed(notATable(problem), null);
  }
  if (rowCount.actual === 0 && rowCount.expected === 0) return passed('both empty');
  if (rowCount.actual === 0 || rowCount.expected === 0) {
    return failed(
      rowCount.actual === 0 ? 'actual is empty' : 'expected is empty',
      emptySideDiff({ actual, expected, columns, limit: diffLimit }),
    );
  }
  if (columns.missing.length > 0) {
    return failed(
      `missing columns: ${columns.missing.join(', ')}`,
      buildDataDiff({
        kind: 'missing_columns',
        columns: expected.columns,
        missingColumns: columns.missing,
        extraColumns: columns.extra,
        rowCount,
        limit: diffLimit,
      }),
    );
  }

  const { decimals } = tolerances;
  const actualSide = { table: actual, sourceColumns: columns.actualIndexes };
  const expectedSide = { table: expected, sourceColumns: allColumns(expected) };
  const sameCount = rowCount.actual === rowCount.expected;

  if (options.ordered === true && sameCount) {
    const expectedNormalized = normalizeTable({ ...expectedSide, decimals });
    if (!expectedNormalized.success) throw invalidExpected(expectedNormalized.error);
    const actualNormalized = normalizeTable({ ...actualSide, decimals });
    if (!actualNormalized.success) return failed(notATable(actualNormalized.error), null);
    return compareInOrder(
      context({
        actual: actualNormalized.side,
        expected: expectedNormalized.side,
        columns,
        tolerances,
        limit: diffLimit,
      }),
    );
  }

  const exact = matchByIndex({ actual: actualSide, expected: expectedSide, decimals });
  if (!exact.success) {
    if (exact.side === 'expected') throw invalidExpected(exact.error);
    return failed(notATable(exact.error), null);
  }
  const { unmatched } = exact;
  if (sameCount && unmatched.actual.length === 0 && unmatched.expected.length === 0) return passed('match');
  const leftovers = context({
    actual: exact.actual,
    expected: exact.expected,
    columns,
    tolerances,
    limit: diffLimit,
  });
  const approximate = compareSortedLeftovers({ ...leftovers, unmatched });
  if (!sameCount) {
    return failed(
      `row count: ${rowCount.actual} vs ${rowCount.expected}`,
      explain(leftovers, 'row_count', approximate.sorted),
    );
  }
  if (approximate.close) return passed('match (approximate)');
  return failed('values differ', explain(leftovers, 'values', approximate.sorted));
}

function invalidExpected(problem: string): NaoError {
  return new NaoError({
    code: 'COMPARE_INVALID_EXPECTED',
    message: `The expected data cannot be compared: ${problem}. Pass the reference SQL's result as { columns, rows } or as an array of records.`,
  });
}

function notATable(problem: string): string {
  return `actual data is not a table: ${problem}`;
}

interface Context {
  actual: NormalizedTable;
  expected: NormalizedTable;
  names: string[];
  extraColumns: string[];
  close: CloseCells;
  limit: number;
  /** Compared columns without fractional values (ids, names, dates, counts), by name. */
  keyColumns: number[];
  /** `keyColumns`, then the measure columns by name: the row order for matching. */
  order: number[];
}

function context(options: {
  actual: NormalizedTable;
  expected: NormalizedTable;
  columns: { extra: string[] };
  tolerances: ComparisonOptions;
  limit: number;
}): Context {
  const { actual, expected } = options;
  const names = expected.table.columns;
  return {
    actual,
    expected,
    names,
    extraColumns: options.columns.extra,
    close: new CloseCells({ actual, expected }, options.tolerances),
    limit: options.limit,
    ...columnOrder({ names, actual, expected }),
  };
}

/**
 * The reference sorts columns by name; putting identifying columns before measures as well
 * keeps rows that differ only by float noise next to each other, so they pair up.
 */
function columnOrder(options: { names: string[]; actual: NormalizedTable; expected: NormalizedTable }): {
  keyColumns: number[];
  order: number[];
} {
  const { names } = options;
  const byName = (x: number, y: number) => {
    const a = names[x]!;
    const b = names[y]!;
    return a < b ? -1 : a > b ? 1 : x - y;
  };
  const isMeasure = (column: number) =>
    options.actual.fractional[column] === true || options.expected.fractional[column] === true;
  const all = names.map((_, column) => column);
  const keyColumns = all.filter((column) => !isMeasure(column)).sort(byName);
  const measures = all.filter(isMeasure).sort(byName);
  return { keyColumns, order: [...keyColumns, ...measures] };
}

function compareInOrder(context: Context): ComparisonResult {
  const { actual, expected, close } = context;
  const compare = cellComparator(actual.cells, expected.cells);
  const columnCount = expected.cells.columnCount;
  let exact = true;
  const differing: Array<{ actual: number; expected: number }> = [];
  for (let row = 0; row < expected.cells.rowCount; row++) {
    let equal = true;
    for (let column = 0; column < columnCount && equal; column++) equal = compare(row, row, column) === 0;
    if (equal) continue;
    exact = false;
    if (!close.row(row, row)) differing.push({ actual: row, expected: row });
  }
  if (exact) return passed('match');
  if (differing.length === 0) return passed('match (approximate)');
  return failed(
    'values differ',
    diffOf(context, { kind: 'values', pairing: { pairs: differing, onlyInActual: [], onlyInExpected: [] } }),
  );
}

function explain(context: Context, kind: 'row_count' | 'values', left: Unmatched): DataDiff {
  const { close } = context;
  let pairing = pairForDiff({ ...context, unmatched: left });
  if (pairing.pairs.length + pairing.onlyInActual.length + pairing.onlyInExpected.length === 0) {
    // The rows paired up another way than by position; show the positions that failed, so
    // a failed verdict always comes with its evidence.
    pairing = {
      pairs: left.actual
        .map((i, position) => ({ actual: i, expected: left.expected[position]! }))
        .filter((pair) => !close.row(pair.actual, pair.expected)),
      onlyInActual: [],
      onlyInExpected: [],
    };
  }
  return diffOf(context, { kind, pairing });
}

/** The diff of normalised rows of `context`, reported by their table rows and original values. */
function diffOf(context: Context, options: { kind: 'row_count' | 'values'; pairing: DiffPairing }): DataDiff {
  const { actual, expected } = context;
  return buildDataDiff({
    kind: options.kind,
    columns: context.names,
    extraColumns: context.extraColumns,
    rowCount: { actual: actual.table.rowCount, expected: expected.table.rowCount },
    ...options.pairing,
    limit: context.limit,
    describePair: (pair) => describePair(context, pair),
    describeActual: (row) => ({ rowIndex: tableRow(actual, row), values: originalRow(actual, row) }),
    describeExpected: (row) => ({ rowIndex: tableRow(expected, row), values: originalRow(expected, row) }),
  });
}

function describePair(context: Context, pair: { actual: number; expected: number }): RowMismatch {
  const { actual, expected, close, names } = context;
  const cells = names.flatMap((column, index) =>
    close.cell(pair.actual, pair.expected, index)
      ? []
      : [
          {
            column,
            actual: originalCell(actual, pair.actual, index),
            expected: originalCell(expected, pair.expected, index),
          },
        ],
  );
  return {
    actualRowIndex: tableRow(actual, pair.actual),
    expectedRowIndex: tableRow(expected, pair.expected),
    cells,
    actualRow: originalRow(actual, pair.actual),
    expectedRow: originalRow(expected, pair.expected),
  };
}

/** One side has no rows: the other side's rows are the whole difference. */
function emptySideDiff(options: {
  actual: Table;
  expected: Table;
  columns: { actualIndexes: number[]; missing: string[]; extra: string[] };
  limit: number;
}): DataDiff {
  const { actual, expected, columns, limit } = options;
  const rowCount = { actual: actual.rowCount, expected: expected.rowCount };
  const indexes = (count: number) => Array.from({ length: count }, (_, row) => row);
  const rowOf = (table: Table, sources: number[]) => (row: number) => ({
    rowIndex: row,
    values: sources.map((source) => cellOf(table, row, source)),
  });
  // Unexpected rows read best in the expected columns, when the answer has them all.
  const projectActual = expected.columns.length > 0 && columns.missing.length === 0;
  return buildDataDiff({
    kind: 'row_count',
    columns: projectActual || actual.rowCount === 0 ? expected.columns : actual.columns,
    missingColumns: columns.missing,
    extraColumns: columns.extra,
    rowCount,
    onlyInActual: indexes(actual.rowCount),
    onlyInExpected: indexes(expected.rowCount),
    limit,
    describeActual: rowOf(actual, projectActual ? columns.actualIndexes : allColumns(actual)),
    describeExpected: rowOf(expected, allColumns(expected)),
  });
}

/** The positions of every column of `table`. */
function allColumns(table: Table): number[] {
  return table.columns.map((_, index) => index);
}

function checkTolerances(tolerances: ComparisonOptions): ComparisonOptions {
  const { rtol, atol, decimals } = tolerances;
  const invalid = (field: string, value: unknown, rule: string) =>
    new NaoError({
      code: 'COMPARE_INVALID_TOLERANCE',
      message: `test.comparison.${field} is ${String(value)}; it must be ${rule} (nao_config.yaml, test.comparison).`,
    });
  if (typeof rtol !== 'number' || !(rtol >= 0) || !Number.isFinite(rtol))
    throw invalid('rtol', rtol, 'a number >= 0');
  if (typeof atol !== 'number' || !(atol >= 0) || !Number.isFinite(atol))
    throw invalid('atol', atol, 'a number >= 0');
  if (typeof decimals !== 'number' || !Number.isInteger(decimals) || decimals < 0 || decimals > 1000) {
    throw invalid('decimals', decimals, 'an integer from 0 to 1000');
  }
  return tolerances;
}

function checkDiffLimit(limit: number): number {
  if (!Number.isInteger(limit) || limit < 0) {
    throw new NaoError({
      code: 'COMPARE_INVALID_DIFF_LIMIT',
      message: `diffLimit is ${String(limit)}; it must be an integer >= 0 (rows shown in a diff).`,
    });
  }
  return limit;
}

function passed(message: string): ComparisonResult {
  return { passed: true, message, diff: null };
}

function failed(message: string, diff: DataDiff | null): ComparisonResult {
  return { passed: false, message, diff };
}
