/**
 * Loads query results into DuckDB tables, one per result, named exactly after its id.
 *
 * Columns whose values fit a known type are appended through typed data chunks (no text
 * round trip, integers and decimals exact). Columns of unknown or mixed kinds go through
 * newline-delimited JSON read by `read_json` with inference over every row (`sample_size=-1`),
 * so DuckDB, not nao, decides whether a text column holds dates; mixed columns keep every
 * value as text. Both halves are stitched back together with a POSITIONAL JOIN.
 */
import { open } from 'node:fs/promises';
import path from 'node:path';
import { type DuckDBConnection, DuckDBDataChunk } from '@duckdb/node-api';
import { NaoError } from '../errors/index.js';
import type { CellValue, ColumnInfo } from '../warehouse/index.js';
import { duckdbType, encoder, type LoadType, planColumn, sqlType } from './column-types.js';

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

/** Rows per appended chunk: DuckDB's vector size. */
const CHUNK_ROWS = 2048;
/** Rows of JSON written per file write. */
const JSON_BATCH_ROWS = 20_000;

export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

function quoteLiteral(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

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

/** Loads every table; `workDir` is a private folder for the JSON files (removed by the caller). */
export async function loadTables(options: {
  connection: DuckDBConnection;
  tables: readonly SourceTable[];
  workDir: string;
}): Promise<LoadedTable[]> {
  const { connection, tables, workDir } = options;
  const seen = new Map<string, string>();
  for (const table of tables) {
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
  const loaded: LoadedTable[] = [];
  for (const [index, table] of tables.entries()) {
    loaded.push(await loadTable({ connection, table, workDir, scratch: `__nao_load_${index}` }));
  }
  return loaded;
}

async function loadTable(options: {
  connection: DuckDBConnection;
  table: SourceTable;
  workDir: string;
  scratch: string;
}): Promise<LoadedTable> {
  const { connection, table, workDir, scratch } = options;
  const { id, columns, rows } = table;
  if (table.id === '') {
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
  const names = tableColumnNames(columns);
  const result: LoadedTable = { id, rowCount: rows.length, truncated: table.truncated === true, columns: [] };
  if (columns.length === 0) return result; // nothing to query; DuckDB tables need a column

  const plans = columns.map((column, index) => planColumn(column.type, { rows, index }));
  const typed = plans.flatMap((type, index) => (type === null ? [] : [{ index, type }]));
  const inferred = plans.flatMap((type, index) => (type === null ? [index] : []));

  if (inferred.length === 0) {
    const definition = typed.map(({ index, type }) => `${quoteIdentifier(names[index]!)} ${sqlType(type)}`);
    await connection.run(`CREATE TABLE ${quoteIdentifier(id)} (${definition.join(', ')})`);
    await appendTyped({ connection, table: id, columns: typed, rows });
  } else {
    await loadWithInference({ connection, table, names, typed, inferred, workDir, scratch });
  }

  const described = await connection.runAndReadAll(`DESCRIBE ${quoteIdentifier(id)}`);
  result.columns = described.getRows().map((row) => ({ name: String(row[0]), type: String(row[1]) }));
  const counted = await connection.runAndReadAll(`SELECT count(*) FROM ${quoteIdentifier(id)}`);
  const count = Number(counted.getRows()[0]?.[0]);
  if (count !== rows.length) {
    throw new NaoError({
      code: 'SANDBOX_LOAD_MISMATCH',
      message: `Loading query result "${id}" into the sandbox kept ${count} of its ${rows.length} rows; this is a bug in nao's loader.`,
    });
  }
  return result;
}

async function appendTyped(options: {
  connection: DuckDBConnection;
  table: string;
  columns: readonly { index: number; type: LoadType }[];
  rows: readonly (readonly CellValue[])[];
}): Promise<void> {
  const { connection, columns, rows } = options;
  const types = columns.map(({ type }) => duckdbType(type));
  const encoders = columns.map(({ type }) => encoder(type));
  const appender = await connection.createAppender(options.table);
  try {
    for (let start = 0; start < rows.length; start += CHUNK_ROWS) {
      const count = Math.min(CHUNK_ROWS, rows.length - start);
      const chunk = DuckDBDataChunk.create(types, count);
      for (let c = 0; c < columns.length; c++) {
        const vector = chunk.getColumnVector(c);
        const encode = encoders[c]!;
        const index = columns[c]!.index;
        for (let r = 0; r < count; r++) {
          const value = rows[start + r]![index];
          vector.setItem(r, value === null || value === undefined ? null : encode(value));
        }
        vector.flush();
      }
      appender.appendDataChunk(chunk);
    }
    appender.flushSync();
  } finally {
    appender.closeSync();
  }
}

async function loadWithInference(options: {
  connection: DuckDBConnection;
  table: SourceTable;
  names: readonly string[];
  typed: readonly { index: number; type: LoadType }[];
  inferred: readonly number[];
  workDir: string;
  scratch: string;
}): Promise<void> {
  const { connection, table, names, typed, inferred, workDir, scratch } = options;
  const typedTable = `${scratch}_typed`;
  const jsonTable = `${scratch}_json`;
  const file = path.join(workDir, `${scratch}.ndjson`);
  const longestLine = await writeJsonLines({ file, rows: table.rows, columns: inferred });

  // Keys are positional (`c3`), never the column names: names may be empty, duplicated or
  // differ only by case, and read_json would then merge or rename them.
  await connection.run(
    `CREATE TABLE ${quoteIdentifier(jsonTable)} AS SELECT * FROM read_json(${quoteLiteral(file)}, ` +
      `format = 'newline_delimited', records = true, sample_size = -1, map_inference_threshold = -1, ` +
      `maximum_object_size = ${Math.max(16 * 1024 * 1024, longestLine + 1024)})`,
  );
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
    const definition = typed.map(({ index, type }) => `${quoteIdentifier(`t${index}`)} ${sqlType(type)}`);
    await connection.run(`CREATE TABLE ${quoteIdentifier(typedTable)} (${definition.join(', ')})`);
    await appendTyped({ connection, table: typedTable, columns: typed, rows: table.rows });
    await connection.run(
      `CREATE TABLE ${quoteIdentifier(table.id)} AS SELECT ${select.join(', ')} ` +
        `FROM ${quoteIdentifier(typedTable)} s POSITIONAL JOIN ${quoteIdentifier(jsonTable)} j`,
    );
    await connection.run(`DROP TABLE ${quoteIdentifier(typedTable)}`);
  } else {
    await connection.run(
      `CREATE TABLE ${quoteIdentifier(table.id)} AS SELECT ${select.join(', ')} FROM ${quoteIdentifier(jsonTable)} j`,
    );
  }
  await connection.run(`DROP TABLE ${quoteIdentifier(jsonTable)}`);
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
