/**
 * Runs one query on a DuckDB connection and reads its rows as `CellValue`s: the one reading
 * path of the DuckDB warehouse and of the extraction sandbox.
 *
 * Results are streamed and read column by column from DuckDB's vectors (duckdb-columns.ts).
 * Text longer than 12 bytes lies outside the vectors, though, and reading it costs a native
 * call and an ArrayBuffer per value: seconds for a million rows, mostly in the garbage
 * collector. So once a single SELECT with text columns proves long (more than
 * `STREAMED_TEXT_ROWS` rows), the stream is dropped and the query runs again into a temp
 * table (capped at `maxRows + 1` rows); its other columns are then read from the table with
 * the column readers, and each text column as one JSON array per 2,048 rows (a single native
 * read and a JSON.parse per group). Small results, the usual case, stay one statement; other
 * statements (SHOW, DESCRIBE, PRAGMA, several statements…) are always streamed.
 */
import { endianness } from 'node:os';
import {
  type DuckDBConnection,
  type DuckDBPreparedStatement,
  type DuckDBResult,
  DuckDBTypeId,
  StatementType,
} from '@duckdb/node-api';
import duckdb from '@duckdb/node-bindings';
import type { CellValue, ColumnInfo, QueryResult } from '../database.js';
import { duckDbColumnReader, readChunkColumns } from './duckdb-columns.js';
import { readDuckDbResult, runSmallQuery } from './duckdb-result.js';
import { asSubquery, parseDuckDbSql } from './duckdb-sql-text.js';

/** What to do with the rows of a result longer than `maxRows`. */
export type DuckDbOverflow = 'keep-first-rows' | 'drop-rows';

export interface ReadDuckDbQueryOptions {
  connection: DuckDBConnection;
  sql: string;
  /** Rows kept at most; more set `truncated`. Unlimited when absent. */
  maxRows?: number;
  /**
   * `keep-first-rows` (default) returns the first `maxRows` rows of a longer result;
   * `drop-rows` returns none, without reading them.
   */
  overflow?: DuckDbOverflow;
  /**
   * Called between the statements of a read; throwing stops it. DuckDB forgets an interrupt
   * that arrives while no statement runs, so a caller that interrupts checks here.
   */
  checkpoint?: () => void;
  /** Rows of a text result streamed before switching to the temp table. Default `STREAMED_TEXT_ROWS`. */
  streamedTextRows?: number;
  /**
   * Run the query to completion before reading, in one round trip instead of one per chunk.
   * Only for engines whose memory limit bounds a runaway result (the extraction sandbox): the
   * whole result is held by DuckDB first, `maxRows` only applies while reading.
   */
  materialize?: boolean;
}

const TABLE_NAME = '__nao_result';
/** The temp table, named in full so a table of the database with the same name is never touched. */
const TABLE = `temp.main.${TABLE_NAME}`;
const GROUP_ROWS = 2048;
/** Rows grouped by one text query (a multiple of `GROUP_ROWS`). */
const SLICE_ROWS = 64 * GROUP_ROWS;
/**
 * Rows of a text result read from the stream before it switches to the temp table: below
 * this, reading value by value costs less than the extra statements (a few ms of CPU per
 * result, which large suites of small queries feel).
 */
export const STREAMED_TEXT_ROWS = 16_384;

/** Runs `sql` on `connection` and reads its rows; failures are DuckDB's errors, as streaming gives them. */
export async function readDuckDbQuery(options: ReadDuckDbQueryOptions): Promise<QueryResult> {
  const { connection, sql, checkpoint } = options;
  const maxRows = options.maxRows ?? Number.POSITIVE_INFINITY;
  const overflow = options.overflow ?? 'keep-first-rows';
  const streamedTextRows = options.streamedTextRows ?? STREAMED_TEXT_ROWS;
  const finish = (read: QueryResult): QueryResult => {
    const result = { columns: read.columns, rows: read.rows, truncated: read.truncated };
    return overflow === 'drop-rows' && result.truncated ? { ...result, rows: [] } : result;
  };
  // Most results are small: streamed, they cost one statement. Only a long one with text
  // switches to the temp table, running the query once more there.
  const result =
    options.materialize === true ? await connection.run(sql) : await streamQuery(connection, sql, checkpoint);
  const types = result.columnTypes();
  const text = types.flatMap((type, index) => (type.typeId === DuckDBTypeId.VARCHAR ? [index] : []));
  // The stored result is read with typed arrays in the machine's byte order, DuckDB's own,
  // assuming little-endian row ids and list entries.
  const mayStore =
    text.length > 0 &&
    maxRows > streamedTextRows &&
    result.statementType === StatementType.SELECT &&
    endianness() === 'LE';
  const streamed = await readDuckDbResult(result, {
    maxRows,
    ...(mayStore ? { stopAfterRows: streamedTextRows } : {}),
  });
  if (!streamed.stopped) return finish(streamed);
  checkpoint?.();
  if (await isPlainSelect(connection, sql)) {
    checkpoint?.();
    const columns = streamed.columns;
    const read = await readThroughTable({ connection, sql, maxRows, overflow, checkpoint, columns, text });
    if (read !== undefined) return read;
  }
  checkpoint?.();
  return finish(await readDuckDbResult(await streamQuery(connection, sql, checkpoint), { maxRows }));
}

/**
 * `connection.stream` splits the text into statements first, a round trip of its own; one
 * statement prepares directly. Several statements (or SQL that does not prepare) go the
 * usual way, which runs them or reports the error as always. An interrupt that lands while
 * the statement is prepared is forgotten when it starts to run: `checkpoint` looks in between.
 */
export async function streamQuery(
  connection: DuckDBConnection,
  sql: string,
  checkpoint: (() => void) | undefined,
): Promise<DuckDBResult> {
  let prepared: DuckDBPreparedStatement;
  try {
    prepared = await connection.prepare(sql);
  } catch {
    checkpoint?.();
    return connection.stream(sql);
  }
  try {
    checkpoint?.();
    return await prepared.stream();
  } finally {
    prepared.destroySync();
  }
}

interface TextReadPlan {
  /** Names and types as the query spells them (a temp table would rename duplicates). */
  columns: ColumnInfo[];
  /** Indexes of the VARCHAR columns. */
  text: number[];
}

/**
 * Asks DuckDB's parser whether `sql` is one SELECT that is not SHOW, DESCRIBE or SUMMARIZE
 * (those prepare as SELECTs too), and whether the engine keeps insertion order, which the temp
 * table relies on to hold the rows in the query's order.
 */
async function isPlainSelect(connection: DuckDBConnection, sql: string): Promise<boolean> {
  try {
    const [setting] = await runSmallQuery(connection, "SELECT current_setting('preserve_insertion_order')");
    if (setting?.[0] !== true) return false;
    const tree = (await parseDuckDbSql(connection, sql)) as {
      error?: boolean;
      statements?: { node?: { type?: string; from_table?: { type?: string } } }[];
    };
    const node = tree.statements?.length === 1 ? tree.statements[0]?.node : undefined;
    return tree.error !== true && node !== undefined && node.from_table?.type !== 'SHOW_REF';
  } catch {
    return false;
  }
}

/**
 * Materializes the result in a temp table and reads it back; undefined when the query cannot
 * be wrapped (a trailing comment after its semicolon), so the caller streams it instead.
 */
async function readThroughTable(
  options: TextReadPlan & {
    connection: DuckDBConnection;
    sql: string;
    maxRows: number;
    overflow: DuckDbOverflow;
    checkpoint: (() => void) | undefined;
  },
): Promise<QueryResult | undefined> {
  const { connection, columns, text, maxRows, checkpoint } = options;
  // Stored columns are c0, c1…: duplicate names and a column named rowid stay harmless. The
  // SQL prepared as one complete SELECT, so as a subquery it stays that SELECT.
  const aliases = columns.map((_, index) => `c${index}`).join(', ');
  const limit = Number.isFinite(maxRows) ? ` LIMIT ${maxRows + 1}` : '';
  let create: DuckDBPreparedStatement;
  try {
    create = await connection.prepare(
      `CREATE OR REPLACE TEMP TABLE ${TABLE_NAME} AS SELECT * FROM ${asSubquery(options.sql)} AS answer(${aliases})${limit}`,
    );
  } catch {
    return undefined;
  }
  try {
    const created = await create.runAndReadAll();
    const stored = Number(created.getRows()[0]?.[0]);
    const count = Math.min(stored, maxRows);
    const truncated = stored > maxRows;
    if (truncated && options.overflow === 'drop-rows') return { columns, rows: [], truncated };
    checkpoint?.();
    const rows = await readStoredRows({
      connection,
      table: TABLE,
      width: columns.length,
      text,
      count,
      checkpoint,
    });
    return { columns, rows, truncated };
  } finally {
    create.destroySync();
    // A failed drop (after an interrupt) is harmless: the next read replaces the table.
    await connection.run(`DROP TABLE IF EXISTS ${TABLE}`).catch(() => undefined);
  }
}

/**
 * Reads the first `count` rows of a stored result: a table whose columns are c0, c1…, filled
 * in the order of its rows by one CREATE TABLE AS (here, or an answer file's, answer-file.ts)
 * in an engine that keeps insertion order. `text` lists its VARCHAR columns.
 */
export async function readStoredRows(options: {
  connection: DuckDBConnection;
  /** The table's name, qualified and quoted as needed. */
  table: string;
  width: number;
  text: readonly number[];
  count: number;
  checkpoint?: (() => void) | undefined;
}): Promise<CellValue[][]> {
  const { connection, table, width, text, count, checkpoint } = options;
  const rows: CellValue[][] = new Array(count);
  for (let row = 0; row < count; row++) rows[row] = new Array<CellValue>(width);
  const all = Array.from({ length: width }, (_, index) => index);
  if (count > GROUP_ROWS) {
    const other = all.filter((index) => !text.includes(index));
    if (other.length > 0) {
      await readStoredColumns({ connection, table, columns: other, rows });
      checkpoint?.();
    }
    if (text.length > 0) await readStoredText({ connection, table, columns: text, rows, checkpoint });
  } else if (count > 0) {
    // Within one group, reading the text value by value costs less than grouping it.
    await readStoredColumns({ connection, table, columns: all, rows });
  }
  return rows;
}

/**
 * Reads columns of the stored result into `rows` with the column readers. A plain scan returns
 * the rows in insertion order (isPlainSelect checked that the engine keeps it), which the row
 * ids read alongside confirm; sorting by rowid would cost more than the read.
 */
async function readStoredColumns(options: {
  connection: DuckDBConnection;
  table: string;
  columns: readonly number[];
  rows: CellValue[][];
}): Promise<void> {
  const { connection, table, columns, rows } = options;
  const list = columns.map((index) => `c${index}`).join(', ');
  const result = await connection.stream(`SELECT ${list}, rowid FROM ${table} WHERE rowid < ${rows.length}`);
  const readers = result.columnTypes().slice(0, columns.length).map(duckDbColumnReader);
  let offset = 0;
  for (;;) {
    const chunk = await result.fetchChunk();
    if (chunk === null || chunk.rowCount === 0) break;
    const count = chunk.rowCount;
    const ids = int64Words(duckdb.data_chunk_get_vector(chunk.chunk, columns.length), count);
    for (let r = 0; r < count; r++) {
      if (wordsNumber(ids, r) !== offset + r) {
        throw new Error(`DuckDB returned the stored result out of order (row ${offset + r})`);
      }
    }
    readChunkColumns({ chunk, readers, rows, offset, count, targets: columns });
    offset += count;
  }
}

/**
 * Reads text columns of the stored result into `rows`, one JSON array per group of rows. Each
 * group also lists its row ids in the same order as its values (both lists are built from the
 * same rows by one aggregation), so the values are placed by id and no sort is needed.
 * The rows are grouped one slice of `SLICE_ROWS` at a time: DuckDB keeps the memory of an
 * aggregation's peak, and grouping a million rows at once left hundreds of MB behind.
 */
async function readStoredText(options: {
  connection: DuckDBConnection;
  table: string;
  columns: readonly number[];
  rows: CellValue[][];
  checkpoint: (() => void) | undefined;
}): Promise<void> {
  const { rows, checkpoint } = options;
  for (let start = 0; start < rows.length; start += SLICE_ROWS) {
    if (start > 0) checkpoint?.();
    await readStoredTextSlice({ ...options, start, end: Math.min(rows.length, start + SLICE_ROWS) });
  }
}

async function readStoredTextSlice(options: {
  connection: DuckDBConnection;
  table: string;
  columns: readonly number[];
  rows: CellValue[][];
  start: number;
  end: number;
}): Promise<void> {
  const { connection, table, columns, rows, start, end } = options;
  const lists = columns.map((index) => `to_json(list(c${index}::VARCHAR))`).join(', ');
  const result = await connection.stream(
    `SELECT ${lists}, list(rowid) FROM ${table} WHERE rowid >= ${start} AND rowid < ${end} GROUP BY rowid // ${GROUP_ROWS}`,
  );
  const readers = result.columnTypes().slice(0, columns.length).map(duckDbColumnReader);
  for (;;) {
    const chunk = await result.fetchChunk();
    if (chunk === null || chunk.rowCount === 0) break;
    const groups: CellValue[][] = Array.from({ length: chunk.rowCount }, () => []);
    readChunkColumns({ chunk, readers, rows: groups, offset: 0, count: chunk.rowCount });
    const idList = duckdb.data_chunk_get_vector(chunk.chunk, columns.length);
    // list_entry_t per group: uint64 offset, uint64 length.
    const entries = int64Words(idList, 2 * chunk.rowCount);
    const ids = int64Words(duckdb.list_vector_get_child(idList), duckdb.list_vector_get_size(idList));
    for (let g = 0; g < chunk.rowCount; g++) {
      const first = wordsNumber(entries, 2 * g);
      const length = wordsNumber(entries, 2 * g + 1);
      for (let k = 0; k < columns.length; k++) {
        const values = JSON.parse(groups[g]![k] as string) as (string | null)[];
        if (values.length !== length) throw new Error('DuckDB grouped the stored text unevenly');
        const column = columns[k]!;
        for (let i = 0; i < length; i++) rows[wordsNumber(ids, first + i)]![column] = values[i] ?? null;
      }
    }
  }
}

/** The 32-bit halves of `count` int64 values of a vector (row ids, list offsets and lengths). */
function int64Words(vector: duckdb.Vector, count: number): Int32Array {
  const data = duckdb.vector_get_data(vector, 8 * count);
  return new Int32Array(data.buffer, data.byteOffset, 2 * count);
}

/** Value `index` of int64 halves; non-negative and below 2^53 here (ids, offsets, lengths). */
function wordsNumber(words: Int32Array, index: number): number {
  return words[2 * index + 1]! * 4294967296 + (words[2 * index]! >>> 0);
}
