/**
 * A long answer travels from the pool worker to nao in a DuckDB database file, not over the
 * process channel: a million rows cost seconds to serialise, DuckDB copies them in a fraction
 * of that (`npm run bench extraction`). A short answer is sent as rows; a longer one is run
 * again straight into the file, capped one row past the row cap. A large job's answers go to
 * the file at once, and a loaded table returned whole (`SELECT * FROM query_x`) is read from
 * the load file itself, not copied.
 */
import { rm } from 'node:fs/promises';
import { type DuckDBConnection, DuckDBInstance, type DuckDBPreparedStatement } from '@duckdb/node-api';
import { streamQuery } from '../warehouse/duckdb/duckdb-query.js';
import { readDuckDbResult } from '../warehouse/duckdb/duckdb-result.js';
import { asSubquery } from '../warehouse/duckdb/duckdb-sql-text.js';
import {
  type CellValue,
  type ColumnInfo,
  parseDuckDbSql,
  quoteIdentifier,
  quoteLiteral,
  readStoredRows,
  runSmallQuery,
} from '../warehouse/index.js';
import { readAnswer } from './read-answer.js';

/** Rows of an answer sent over the channel at most; a longer one goes through a file. */
export const CHANNEL_ANSWER_ROWS = 16_384;

export type SandboxAnswer =
  | { kind: 'rows'; columns: ColumnInfo[]; rows: CellValue[][] }
  /** The answer is table `table` of database `file` (its columns in the answer's order), `rowCount` rows. */
  | { kind: 'file'; columns: ColumnInfo[]; file: string; table: string; rowCount: number }
  | { kind: 'too-many-rows' };

/**
 * Runs a checked extraction query in the worker. `file` is where a long answer is written: a
 * path in the folder the engine may write. `large` is for an engine of the job's own: its
 * answers go straight to the file, so that the query runs once (a query that sorts a million
 * rows would otherwise sort them twice, once to find its answer is long). `loaded` is the load
 * file a large job's tables are attached from, and `parsed` the safety check's parse of the SQL.
 */
export async function readSandboxAnswer(options: {
  connection: DuckDBConnection;
  sql: string;
  maxRows: number;
  checkpoint: () => void;
  file: string;
  large: boolean;
  loaded?: LoadFile | undefined;
  parsed: unknown;
}): Promise<SandboxAnswer> {
  const { connection, sql, maxRows, checkpoint, loaded } = options;
  // Whether the SQL can be wrapped as a subquery: once it could not, it is not tried again.
  let wrappable = true;
  if (options.large) {
    const columns = await describeAnswer(connection, sql);
    checkpoint();
    const whole =
      columns === null || loaded === undefined
        ? undefined
        : await loadedTableWhole({ ...options, loaded, columns });
    if (whole !== undefined) return whole;
    const written = columns === null ? undefined : await writeAnswerFile({ ...options, columns });
    if (written !== undefined) return written;
    wrappable = false;
  }
  const streamed = await readDuckDbResult(await streamQuery(connection, sql, checkpoint), {
    maxRows,
    stopAfterRows: CHANNEL_ANSWER_ROWS,
  });
  if (!streamed.stopped) {
    return streamed.truncated
      ? { kind: 'too-many-rows' }
      : { kind: 'rows', columns: streamed.columns, rows: streamed.rows };
  }
  checkpoint();
  const written = wrappable ? await writeAnswerFile({ ...options, columns: streamed.columns }) : undefined;
  if (written !== undefined) return written;
  // Not one SELECT that can be wrapped (a trailing comment…): read as before, as rows.
  const answer = await readAnswer({ connection, sql, maxRows, checkpoint });
  return answer.truncated
    ? { kind: 'too-many-rows' }
    : { kind: 'rows', columns: answer.columns, rows: answer.rows };
}

/** The answer's columns, as its prepared statement tells them; null for SQL that does not prepare alone. */
async function describeAnswer(connection: DuckDBConnection, sql: string): Promise<ColumnInfo[] | null> {
  let prepared: DuckDBPreparedStatement;
  try {
    prepared = await connection.prepare(sql);
  } catch {
    return null;
  }
  try {
    return Array.from({ length: prepared.columnCount }, (_, index) => ({
      name: prepared.columnName(index),
      type: prepared.columnType(index).toString(),
    }));
  } finally {
    prepared.destroySync();
  }
}

export interface LoadFile {
  /** The file, attached as `__nao_load`; each table is in its `main` schema, named by its id. */
  file: string;
  tableIds: readonly string[];
}

/**
 * The load file's table as the answer, when the SQL returns one of its tables whole, as it
 * stands: its parse (`parsed`) is the parse of `SELECT * FROM "<id>"`. Undefined for any other SQL.
 */
async function loadedTableWhole(options: {
  connection: DuckDBConnection;
  maxRows: number;
  loaded: LoadFile;
  columns: ColumnInfo[];
  parsed: unknown;
}): Promise<SandboxAnswer | undefined> {
  const { connection, loaded } = options;
  const tree = options.parsed as { statements?: { node?: { from_table?: { table_name?: unknown } } }[] };
  const id = loaded.tableIds.find((each) => each === tree.statements?.[0]?.node?.from_table?.table_name);
  if (id === undefined) return undefined;
  const plain = await parseDuckDbSql(connection, `SELECT * FROM ${quoteIdentifier(id)}`);
  if (JSON.stringify(tree, withoutPositions) !== JSON.stringify(plain, withoutPositions)) return undefined;
  const [count] = await runSmallQuery(connection, `SELECT count(*) FROM ${quoteIdentifier(id)}`);
  const rowCount = Number(count?.[0]);
  if (rowCount > options.maxRows) return { kind: 'too-many-rows' };
  return { kind: 'file', columns: options.columns, file: loaded.file, table: id, rowCount };
}

/** Where in the text each part stands is not what the query does. */
function withoutPositions(key: string, value: unknown): unknown {
  return key === 'query_location' ? undefined : value;
}

/**
 * Runs the query again straight into the answer file, capped one row past the row cap;
 * undefined when the SQL cannot be wrapped as a subquery.
 */
async function writeAnswerFile(options: {
  connection: DuckDBConnection;
  sql: string;
  maxRows: number;
  checkpoint: () => void;
  file: string;
  columns: ColumnInfo[];
}): Promise<SandboxAnswer | undefined> {
  const { connection, sql, maxRows, checkpoint, columns } = options;
  const aliases = columns.map((_, index) => `c${index}`).join(', ');
  const out = '__nao_answer_out';
  await connection.run(`ATTACH ${quoteLiteral(options.file)} AS ${out}`);
  let attached = true;
  let written = false;
  let create: DuckDBPreparedStatement | undefined;
  try {
    try {
      // The SQL prepared as one complete SELECT, so as a subquery it stays that SELECT.
      create = await connection.prepare(
        `CREATE TABLE ${out}.main.answer AS SELECT * FROM ${asSubquery(sql)} AS answer(${aliases}) LIMIT ${maxRows + 1}`,
      );
    } catch {
      return undefined;
    }
    checkpoint();
    const created = await create.runAndReadAll();
    const rowCount = Number(created.getRows()[0]?.[0]);
    if (rowCount > maxRows) return { kind: 'too-many-rows' };
    create.destroySync();
    create = undefined;
    await connection.run(`DETACH ${out}`);
    attached = false;
    written = true;
    return { kind: 'file', columns, file: options.file, table: 'answer', rowCount };
  } finally {
    create?.destroySync();
    if (attached) await connection.run(`DETACH ${out}`).catch(() => undefined);
    // An answer not sent takes its file with it.
    if (!written) await rm(options.file, { force: true });
  }
}

/** Reads an answer file in nao. */
export async function readAnswerFile(options: {
  file: string;
  table: string;
  columns: ColumnInfo[];
  rowCount: number;
  threads: number;
}): Promise<CellValue[][]> {
  const aliases = options.columns.map((_, index) => `c${index}`).join(', ');
  const instance = await DuckDBInstance.create(':memory:', {
    autoinstall_known_extensions: 'false',
    autoload_known_extensions: 'false',
    threads: String(options.threads),
  });
  try {
    const connection = await instance.connect();
    // As in the sandbox: TIMESTAMPTZ values read the same whatever the host's zone.
    await connection.run(
      `SET TimeZone = 'UTC'; ATTACH ${quoteLiteral(options.file)} AS __nao_answer (READ_ONLY)`,
    );
    const rows = await readStoredRows({
      connection,
      table: `__nao_answer.main.${quoteIdentifier(options.table)} AS answer(${aliases})`,
      width: options.columns.length,
      // The stored table has the answer's columns and types, as the process read them.
      text: options.columns.flatMap((column, index) => (column.type === 'VARCHAR' ? [index] : [])),
      count: options.rowCount,
    });
    connection.closeSync();
    return rows;
  } finally {
    instance.closeSync();
  }
}
