import type { CellValue, ColumnInfo } from '../../warehouse/database.js';

/** Rows as arrays in column order, the shape the warehouse layer and the sandbox return. */
export type ArrayRows = ReadonlyArray<ReadonlyArray<CellValue>>;
/** Rows as JSON objects keyed by column name, the shape of results files. */
export type RecordRows = ReadonlyArray<Readonly<Record<string, CellValue>>>;

/**
 * A result set as callers have it: `{ columns, rows }` (a `QueryResult` fits: columns may carry
 * their engine type, which helps read text such as Postgres 'infinity' dates), or a bare array
 * of records whose columns are the keys in first-seen order. With records, a key missing from
 * a row is NULL in that row.
 */
export type ResultData =
  | { columns: ReadonlyArray<string | ColumnInfo>; rows: ArrayRows | RecordRows }
  | RecordRows;

/**
 * A table whose columns and container are checked; array rows are checked one by one as they
 * are read (`rowProblem`). `cellOf` reads an original cell.
 */
export interface Table {
  columns: string[];
  /** Engine type per column, when given. */
  types: Array<string | undefined>;
  rowCount: number;
  /** Rows, each indexed by `keys[column]` (a position for array rows, a name for records). */
  rows: ReadonlyArray<unknown>;
  keys: Array<number | string>;
  /** Array rows are indexed by position, records by name. */
  shape: 'arrays' | 'records';
}

export type ReadTableResult = { success: true; table: Table } | { success: false; error: string };

/** Checks the shape of one side's data; the error says what is wrong and where. */
export function readTable(data: unknown): ReadTableResult {
  if (Array.isArray(data)) return readRecords(data, null);
  if (typeof data !== 'object' || data === null) {
    return {
      success: false,
      error: `expected { columns, rows } or an array of records, got ${describe(data)}`,
    };
  }
  const { columns, rows } = data as { columns?: unknown; rows?: unknown };
  if (!Array.isArray(columns)) return { success: false, error: '`columns` must be an array of column names' };
  if (!Array.isArray(rows)) return { success: false, error: '`rows` must be an array' };
  const names: string[] = [];
  const types: Array<string | undefined> = [];
  for (let index = 0; index < columns.length; index++) {
    const column: unknown = columns[index];
    if (typeof column === 'string') {
      names.push(column);
      types.push(undefined);
    } else if (
      typeof column === 'object' &&
      column !== null &&
      typeof (column as ColumnInfo).name === 'string'
    ) {
      const { name, type } = column as Partial<ColumnInfo>;
      names.push(name as string);
      types.push(typeof type === 'string' ? type : undefined);
    } else {
      return {
        success: false,
        error: `column ${index} must be a name or { name, type }, got ${describe(column)}`,
      };
    }
  }
  const first = rows[0];
  if (first !== undefined && !Array.isArray(first)) return readRecords(rows, { names, types });
  // Each row's shape is checked where the rows are read anyway (see `rowProblem`): a second
  // pass over a million rows scattered in memory costs as much as normalising them.
  return {
    success: true,
    table: {
      columns: names,
      types,
      rowCount: rows.length,
      rows,
      keys: names.map((_, index) => index),
      shape: 'arrays',
    },
  };
}

/** What is wrong with row `row` of an array-rows table, or null when it has one value per column. */
export function rowProblem(table: Table, row: number): string | null {
  if (table.shape === 'records') return null;
  const values: unknown = table.rows[row];
  if (!Array.isArray(values)) return `row ${row} must be an array, got ${describe(values)}`;
  if (values.length !== table.columns.length) {
    return `row ${row} has ${values.length} values for ${table.columns.length} columns (${table.columns.join(', ')})`;
  }
  return null;
}

/** The first malformed row of a table, for the paths that do not read every row anyway. */
export function findRowProblem(table: Table): string | null {
  for (let row = 0; row < table.rowCount; row++) {
    const problem = rowProblem(table, row);
    if (problem !== null) return problem;
  }
  return null;
}

function readRecords(
  rows: readonly unknown[],
  given: { names: string[]; types: Array<string | undefined> } | null,
): ReadTableResult {
  const seen = new Set<string>(given?.names ?? []);
  const names = [...(given?.names ?? [])];
  for (let index = 0; index < rows.length; index++) {
    const row: unknown = rows[index];
    if (typeof row !== 'object' || row === null || Array.isArray(row)) {
      return { success: false, error: `record ${index} must be an object, got ${describe(row)}` };
    }
    if (given !== null) continue;
    for (const key of Object.keys(row)) {
      if (!seen.has(key)) {
        seen.add(key);
        names.push(key);
      }
    }
  }
  return {
    success: true,
    table: {
      columns: names,
      types: given?.types ?? names.map(() => undefined),
      rowCount: rows.length,
      rows,
      keys: names,
      shape: 'records',
    },
  };
}

/** The original value at a cell; a missing record key reads as NULL. */
export function cellOf(table: Table, row: number, column: number): CellValue {
  const record = table.rows[row] as Record<string | number, unknown> | null | undefined;
  if (typeof record !== 'object' || record === null) return null;
  const key = table.keys[column]!;
  // Own keys only: a record without "constructor" has no such column, whatever its prototype says.
  if (typeof key === 'string' && !Object.hasOwn(record, key)) return null;
  const value = record[key];
  return value === undefined ? null : (value as CellValue);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  const text = typeof value === 'string' ? JSON.stringify(value) : String(value);
  return `${typeof value} ${text.length > 60 ? `${text.slice(0, 57)}...` : text}`;
}

/**
 * Where each expected column is in the actual table, by exact name. A name listed twice in the
 * expected columns takes the actual columns of that name in order.
 */
export function matchColumns(options: { expected: readonly string[]; actual: readonly string[] }): {
  actualIndexes: number[];
  missing: string[];
  extra: string[];
} {
  const positions = new Map<string, number[]>();
  options.actual.forEach((name, index) => {
    const list = positions.get(name);
    if (list === undefined) positions.set(name, [index]);
    else list.push(index);
  });
  const used = new Set<number>();
  const actualIndexes: number[] = [];
  const missing: string[] = [];
  for (const name of options.expected) {
    const index = positions.get(name)?.shift();
    if (index === undefined) {
      missing.push(name);
      actualIndexes.push(-1);
    } else {
      used.add(index);
      actualIndexes.push(index);
    }
  }
  const extra = options.actual.filter((_, index) => !used.has(index));
  return { actualIndexes, missing, extra };
}
