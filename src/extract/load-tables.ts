/**
 * Loads query results into DuckDB tables, one per result, named exactly after its id: a
 * sandbox's are its connection's temporary tables, private to it and dropped when it closes;
 * a load file's are tables of its database (load-file.ts).
 *
 * Columns whose values fit a known type are appended through typed data chunks filled by
 * column-writers.ts (no text round trip, integers and decimals exact); a table of a few dozen
 * such values is filled by the statement that creates it instead (value-literals.ts). A
 * declared boolean, float, date, timestamp or text type is taken at its word and checked as
 * each value is written, which spares a pass over the rows; only when a value breaks it is
 * the column planned from its values and the table loaded again. Columns of unknown or mixed
 * kinds go through newline-delimited JSON read by `read_json` with inference over every row
 * (`sample_size=-1`), so DuckDB, not nao, decides whether a text column holds dates; mixed
 * columns keep every value as text. Both halves are stitched back together with a
 * POSITIONAL JOIN.
 */
import { open, rm } from 'node:fs/promises';
import { type DuckDBConnection, DuckDBDataChunk } from '@duckdb/node-api';
import duckdb from '@duckdb/node-bindings';
import { NaoError } from '../errors/index.js';
import { quoteIdentifier, quoteLiteral, runSmallQuery } from '../warehouse/duckdb/index.js';
import type { CellValue, ColumnInfo } from '../warehouse/index.js';
import { duckdbType, type LoadType, planColumn, promisedType, sqlType } from './column-types.js';
import { CHUNK_ROWS, columnWriter } from './column-writers.js';
import { LITERAL_MAX_CELLS, valuesList } from './value-literals.js';

/** One result to load: the shape of the agent's stored `execute_sql` results. */
export interface SourceTable {
  id: string;
  columns: readonly ColumnInfo[];
  rows: readonly (readonly CellValue[])[];
  /** The row cap cut this result; told to the model so it does not mistake it for everything. */
  truncated?: boolean;
}

/** What the model is told about a loaded table. */
export interface LoadedTable {
  id: string;
  rowCount: number;
  truncated: boolean;
  /** Names as loaded (duplicates and blanks renamed) with their DuckDB types. */
  columns: ColumnInfo[];
}

/** Rows of JSON written per file write. */
const JSON_BATCH_ROWS = 20_000;

/**
 * DuckDB column names are case-insensitive and must be non-empty; result columns need
 * neither property (`SELECT a.id, b.id`), so clashes get a `_1`, `_2`… suffix.
 */
export function tableColumnNames(columns: readonly ColumnInfo[]): string[] {
  const used = new Set<string>();
  return columns.map((column, index) => {
    const base = column.name === '' ? `column_${index + 1}` : column.name;
    let name = base;
    for (let suffix = 1; used.has(name.toLowerCase()); suffix++) name = `${base}_${suffix}`;
    used.add(name.toLowerCase());
    return name;
  });
}

/**
 * Where `loadTables` creates the tables: as temporary tables of the connection (a sandbox's:
 * private to it, and dropped when it closes), or in its database (a load file, load-file.ts).
 */
export type LoadTarget = 'temporary' | 'database';

/**
 * Loads every table, as temporary tables of `connection` unless `target` says otherwise.
 * `scratchFile(name)` is where a JSON-lines file of that name may be written (a path only
 * this load uses); each is removed once its table is loaded.
 */
export async function loadTables(options: {
  connection: DuckDBConnection;
  tables: readonly SourceTable[];
  scratchFile: (name: string) => string;
  target?: LoadTarget;
}): Promise<LoadedTable[]> {
  const { connection, scratchFile } = options;
  const target = options.target ?? 'temporary';
  const planned = planTables(options.tables);
  // Tables typed in full are created up front in one round trip: each waits for the event
  // loop, which a large suite keeps busy. Small ones are filled in the same statement.
  const upfront = planned.filter((plan) => plan.upfront);
  if (upfront.length > 0) {
    const statements: string[] = [];
    for (const plan of upfront) {
      statements.push(createStatement({ target, id: plan.table.id, names: plan.names, plans: plan.plans }));
      if (plan.values !== null)
        statements.push(`INSERT INTO ${quoteIdentifier(plan.table.id)} ${plan.values}`);
    }
    await connection.run(statements.join('; '));
  }

  const loaded: LoadedTable[] = [];
  for (const plan of planned) loaded.push(await loadTable({ connection, target, plan, scratchFile }));
  return loaded;
}

/**
 * What `loadTables` will return for `tables`, known before the load when it holds no surprise:
 * every table is filled by the statement that creates it, its types settled by the values
 * themselves (value-literals.ts checks each one). Null otherwise, including for input the load
 * would refuse: the load reports that itself.
 */
export function loadedUpFront(tables: readonly SourceTable[]): LoadedTable[] | null {
  // Only small tables qualify; planning a large one would cost a pass over its rows.
  if (tables.some((table) => table.rows.length * table.columns.length > LITERAL_MAX_CELLS)) return null;
  let planned: PlannedTable[];
  try {
    planned = planTables(tables);
  } catch {
    return null;
  }
  if (!planned.every((plan) => plan.table.columns.length === 0 || filledUpFront(plan))) return null;
  return planned.map((plan) => describeTyped(plan.table, plan.names, plan.plans));
}

/** Checks the tables and plans each column's type (and, for a small table, its rows' literals). */
function planTables(tables: readonly SourceTable[]): PlannedTable[] {
  const seen = new Map<string, string>();
  for (const table of tables) {
    checkTable(table);
    const key = table.id.toLowerCase();
    const other = seen.get(key);
    if (other !== undefined) {
      throw new NaoError({
        code: 'SANDBOX_DUPLICATE_TABLE',
        message: `Query results "${other}" and "${table.id}" would be the same DuckDB table (names are case-insensitive); query ids must differ by more than case.`,
      });
    }
    seen.set(key, table.id);
  }
  return tables.map((table, tableIndex): PlannedTable => {
    const plans = table.columns.map((column, index): ColumnPlan => {
      const promised = promisedType(column.type);
      return promised === null
        ? { type: planColumn(column.type, { rows: table.rows, index }), promised: false }
        : { type: promised, promised: true };
    });
    const upfront = table.columns.length > 0 && isTyped(plans);
    const values = upfront ? valuesList({ columns: plans as TypedPlan[], rows: table.rows }) : null;
    return {
      table,
      names: tableColumnNames(table.columns),
      plans,
      scratch: `__nao_load_${tableIndex}`,
      upfront,
      values,
    };
  });
}

/** Typed in full, with its rows written out (or none to write): its creation fills it. */
function filledUpFront(plan: PlannedTable): boolean {
  return plan.upfront && (plan.values !== null || plan.table.rows.length === 0);
}

/**
 * A table created from its plans, every column typed: names and types are the planned ones,
 * spelled as DuckDB describes them (a load takes every row or throws).
 */
function describeTyped(
  table: SourceTable,
  names: readonly string[],
  plans: readonly ColumnPlan[],
): LoadedTable {
  return {
    id: table.id,
    rowCount: table.rows.length,
    truncated: table.truncated === true,
    columns:
      table.columns.length === 0
        ? []
        : names.map((name, index) => ({ name, type: duckdbType(plans[index]!.type!).toString() })),
  };
}

interface PlannedTable {
  table: SourceTable;
  /** Column names as loaded (`tableColumnNames`). */
  names: string[];
  plans: ColumnPlan[];
  /** Prefix of the helper tables and files of its load. */
  scratch: string;
  /** Typed in full: its empty table is created with the others before any load. */
  upfront: boolean;
  /** `VALUES …` of its rows when they are few enough to be written out (value-literals.ts). */
  values: string | null;
}

function checkTable(table: SourceTable): void {
  const { id, columns, rows } = table;
  if (id === '') {
    throw new NaoError({
      code: 'SANDBOX_BAD_RESULT',
      message: 'A query result has an empty id; every result needs one.',
    });
  }
  for (let r = 0; r < rows.length; r++) {
    if (!Array.isArray(rows[r]) || rows[r]!.length !== columns.length) {
      throw new NaoError({
        code: 'SANDBOX_BAD_RESULT',
        message: `Query result "${id}" row ${r + 1} has ${Array.isArray(rows[r]) ? rows[r]!.length : 'no'} values for ${columns.length} columns; the warehouse layer must return one value per column.`,
      });
    }
  }
}

/** Loads one table into its table made up front, or creates it now. */
async function loadTable(options: {
  connection: DuckDBConnection;
  target: LoadTarget;
  plan: PlannedTable;
  scratchFile: (name: string) => string;
}): Promise<LoadedTable> {
  const { connection, target, plan, scratchFile } = options;
  const { table, names, scratch } = plan;
  const { id, columns, rows } = table;
  // No table for a result without columns (DuckDB tables need one); nothing left to load
  // into a table its creation filled.
  if (columns.length === 0 || filledUpFront(plan)) return describeTyped(table, names, plan.plans);

  // A lying declared type (SQLite's dynamic typing) costs a second load, never a wrong type.
  let plans = plan.plans;
  let done = plan.upfront
    ? await appendCreated({ connection, target, table, plans })
    : await loadPlanned({ connection, target, table, names, plans, scratchFile, scratch });
  if (!done) {
    plans = plans.map((column, index) =>
      column.promised ? { type: planColumn(columns[index]!.type, { rows, index }), promised: false } : column,
    );
    done = await loadPlanned({ connection, target, table, names, plans, scratchFile, scratch });
    if (!done) {
      throw new NaoError({
        code: 'SANDBOX_LOAD_MISMATCH',
        message: `Loading query result "${id}" into the sandbox met a value its planned column type does not take; this is a bug in nao's loader.`,
      });
    }
  }

  if (isTyped(plans)) return describeTyped(table, names, plans);
  // One query for names, types and the row count: each query costs a few hundred µs of CPU.
  const inventory = await runSmallQuery(
    connection,
    `SELECT column_name, column_type, (SELECT count(*) FROM ${quoteIdentifier(id)}) FROM (DESCRIBE ${quoteIdentifier(id)})`,
  );
  const count = Number(inventory[0]?.[2]);
  if (count !== rows.length) {
    throw new NaoError({
      code: 'SANDBOX_LOAD_MISMATCH',
      message: `Loading query result "${id}" into the sandbox kept ${count} of its ${rows.length} rows; this is a bug in nao's loader.`,
    });
  }
  return {
    id,
    rowCount: rows.length,
    truncated: table.truncated === true,
    columns: inventory.map((row) => ({ name: String(row[0]), type: String(row[1]) })),
  };
}

/** How one column is loaded: a type, or `null` for DuckDB's inference. */
interface ColumnPlan {
  type: LoadType | null;
  /** The declared type's promise, not yet checked against the values (`promisedType`). */
  promised: boolean;
}

/** A column plan with its type settled. */
type TypedPlan = ColumnPlan & { type: LoadType };

interface TypedColumn {
  index: number;
  type: LoadType;
  promised: boolean;
}

/**
 * Creates the table from the plans. False, with nothing left behind, when a value breaks a
 * promised type.
 */
async function loadPlanned(options: {
  connection: DuckDBConnection;
  target: LoadTarget;
  table: SourceTable;
  names: readonly string[];
  plans: readonly ColumnPlan[];
  scratchFile: (name: string) => string;
  scratch: string;
}): Promise<boolean> {
  const { connection, target, table, names, plans } = options;
  const typed = plans.flatMap(({ type, promised }, index) =>
    type === null ? [] : [{ index, type, promised }],
  );
  const inferred = plans.flatMap(({ type }, index) => (type === null ? [index] : []));
  if (inferred.length > 0) return loadWithInference({ ...options, typed, inferred });
  await connection.run(createStatement({ target, id: table.id, names, plans }));
  return appendCreated({ connection, target, table, plans });
}

function isTyped(plans: readonly ColumnPlan[]): boolean {
  return plans.every((plan) => plan.type !== null);
}

/** `CREATE TEMP TABLE` or `CREATE TABLE`, by target. */
function createTable(target: LoadTarget): string {
  return target === 'temporary' ? 'CREATE TEMP TABLE' : 'CREATE TABLE';
}

/** The CREATE TABLE statement for a table whose every column is typed. */
function createStatement(options: {
  target: LoadTarget;
  id: string;
  names: readonly string[];
  plans: readonly ColumnPlan[];
}): string {
  const { names } = options;
  const definition = options.plans.map(
    ({ type }, index) => `${quoteIdentifier(names[index]!)} ${sqlType(type!)}`,
  );
  return `${createTable(options.target)} ${quoteIdentifier(options.id)} (${definition.join(', ')})`;
}

/**
 * Fills a table created by `createStatement`. False, with the table dropped, when a value
 * breaks a promised type.
 */
async function appendCreated(options: {
  connection: DuckDBConnection;
  target: LoadTarget;
  table: SourceTable;
  plans: readonly ColumnPlan[];
}): Promise<boolean> {
  const { connection, target, table } = options;
  const columns = options.plans.map(({ type, promised }, index) => ({ index, type: type!, promised }));
  if (await appendTyped({ connection, target, table: table.id, columns, rows: table.rows })) return true;
  await connection.run(`DROP TABLE ${quoteIdentifier(table.id)}`);
  return false;
}

/**
 * Appends the typed columns through one data chunk, refilled for every `CHUNK_ROWS` rows: the
 * appender copies each chunk, and a reset chunk drops its text and its nulls. False, with
 * the rows appended so far left in the table, when a value breaks a promised type.
 */
async function appendTyped(options: {
  connection: DuckDBConnection;
  target: LoadTarget;
  table: string;
  columns: readonly TypedColumn[];
  rows: readonly (readonly CellValue[])[];
}): Promise<boolean> {
  const { connection, columns, rows } = options;
  const chunk = DuckDBDataChunk.create(columns.map(({ type }) => duckdbType(type)));
  const writers = columns.map(({ type, promised }) => columnWriter(type, { promised }));
  // The database's catalog is the connection's default one.
  const catalog = options.target === 'temporary' ? 'temp' : undefined;
  const appender = await connection.createAppender(options.table, 'main', catalog);
  try {
    for (let start = 0; start < rows.length; start += CHUNK_ROWS) {
      const count = Math.min(CHUNK_ROWS, rows.length - start);
      chunk.reset();
      chunk.rowCount = count;
      for (let c = 0; c < columns.length; c++) {
        const vector = duckdb.data_chunk_get_vector(chunk.chunk, c);
        if (!writers[c]!({ vector, rows, index: columns[c]!.index, start, count })) {
          appender.clear();
          return false;
        }
      }
      appender.appendDataChunk(chunk);
    }
    appender.flushSync();
    return true;
  } finally {
    appender.closeSync();
  }
}

/**
 * Loads the typed columns into one table and the rest through JSON into another, then joins
 * them by position. The typed half goes first: a broken promise is found before any JSON is
 * written.
 */
async function loadWithInference(options: {
  connection: DuckDBConnection;
  target: LoadTarget;
  table: SourceTable;
  names: readonly string[];
  typed: readonly TypedColumn[];
  inferred: readonly number[];
  scratchFile: (name: string) => string;
  scratch: string;
}): Promise<boolean> {
  const { connection, target, table, names, typed, inferred, scratchFile, scratch } = options;
  const create = createTable(target);
  const typedTable = `${scratch}_typed`;
  const jsonTable = `${scratch}_json`;
  if (typed.length > 0) {
    const definition = typed.map(({ index, type }) => `${quoteIdentifier(`t${index}`)} ${sqlType(type)}`);
    await connection.run(`${create} ${quoteIdentifier(typedTable)} (${definition.join(', ')})`);
    if (!(await appendTyped({ connection, target, table: typedTable, columns: typed, rows: table.rows }))) {
      await connection.run(`DROP TABLE ${quoteIdentifier(typedTable)}`);
      return false;
    }
  }
  const file = scratchFile(`${scratch}.ndjson`);
  try {
    const longestLine = await writeJsonLines({ file, rows: table.rows, columns: inferred });
    // Keys are positional (`c3`), never the column names: names may be empty, duplicated or
    // differ only by case, and read_json would then merge or rename them.
    await connection.run(
      `${create} ${quoteIdentifier(jsonTable)} AS SELECT * FROM read_json(${quoteLiteral(file)}, ` +
        `format = 'newline_delimited', records = true, sample_size = -1, map_inference_threshold = -1, ` +
        `maximum_object_size = ${Math.max(16 * 1024 * 1024, longestLine + 1024)})`,
    );
  } finally {
    // The folder may be readable by other sandboxes' engine: rows stay there no longer
    // than the load takes.
    await rm(file, { force: true });
  }
  const inferredTypes = new Map<string, string>();
  const described = await connection.runAndReadAll(`DESCRIBE ${quoteIdentifier(jsonTable)}`);
  for (const row of described.getRows()) inferredTypes.set(String(row[0]), String(row[1]));

  const select: string[] = [];
  for (let index = 0; index < names.length; index++) {
    const alias = quoteIdentifier(names[index]!);
    if (typed.some((column) => column.index === index)) {
      select.push(`s.${quoteIdentifier(`t${index}`)} AS ${alias}`);
      continue;
    }
    const key = `c${index}`;
    const type = inferredTypes.get(key);
    if (type === undefined || type === 'NULL') select.push(`CAST(NULL AS VARCHAR) AS ${alias}`);
    // A column mixing kinds comes back as JSON: keep each value's text, unquoted.
    else if (type === 'JSON') select.push(`(j.${quoteIdentifier(key)} ->> '$') AS ${alias}`);
    else select.push(`j.${quoteIdentifier(key)} AS ${alias}`);
  }

  if (typed.length > 0) {
    await connection.run(
      `${create} ${quoteIdentifier(table.id)} AS SELECT ${select.join(', ')} ` +
        `FROM ${quoteIdentifier(typedTable)} s POSITIONAL JOIN ${quoteIdentifier(jsonTable)} j`,
    );
    await connection.run(`DROP TABLE ${quoteIdentifier(typedTable)}`);
  } else {
    await connection.run(
      `${create} ${quoteIdentifier(table.id)} AS SELECT ${select.join(', ')} FROM ${quoteIdentifier(jsonTable)} j`,
    );
  }
  await connection.run(`DROP TABLE ${quoteIdentifier(jsonTable)}`);
  return true;
}

/** Writes `{"c<i>": value, …}` per row and returns the longest line's length. */
async function writeJsonLines(options: {
  file: string;
  rows: readonly (readonly CellValue[])[];
  columns: readonly number[];
}): Promise<number> {
  const { rows, columns } = options;
  const keys = columns.map((index) => `${JSON.stringify(`c${index}`)}:`);
  const handle = await open(options.file, 'wx', 0o600);
  let longest = 0;
  try {
    for (let start = 0; start < rows.length; start += JSON_BATCH_ROWS) {
      const end = Math.min(rows.length, start + JSON_BATCH_ROWS);
      const lines: string[] = [];
      for (let r = start; r < end; r++) {
        const row = rows[r]!;
        let line = '{';
        for (let k = 0; k < columns.length; k++) {
          if (k > 0) line += ',';
          line += keys[k]! + jsonValue(row[columns[k]!] ?? null);
        }
        line += '}';
        if (line.length > longest) longest = line.length;
        lines.push(line);
      }
      await handle.write(`${lines.join('\n')}\n`);
    }
  } finally {
    await handle.close();
  }
  // Characters → bytes: a UTF-8 character takes at most 3 bytes for BMP text.
  return longest * 3;
}

function jsonValue(value: CellValue): string {
  // JSON has no NaN or Infinity; as text they survive and the column becomes text.
  if (typeof value === 'number' && !Number.isFinite(value)) return JSON.stringify(String(value));
  return JSON.stringify(value);
}
