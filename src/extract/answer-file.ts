/**
 * A large job's answer travels from the pool worker to nao in a DuckDB database file, not
 * over the process channel: a million rows cost seconds to serialise, DuckDB copies them in a
 * fraction of that (`npm run bench extraction`). The query runs once, straight into the file,
 * capped one row past the row cap; a loaded table returned whole (`SELECT * FROM query_x`,
 * the commonest answer) is read from the load file itself, not copied.
 */
import { rm } from 'node:fs/promises';
import { type DuckDBConnection, DuckDBInstance, type DuckDBPreparedStatement } from '@duckdb/node-api';
import {
  asSubquery,
  parseDuckDbSql,
  quoteIdentifier,
  quoteLiteral,
  readStoredRows,
  runSmallQuery,
} from '../warehouse/duckdb/index.js';
import type { CellValue, ColumnInfo } from '../warehouse/index.js';

/** The answer is table `table` of database `file` (its columns in the answer's order), `rowCount` rows. */
export interface AnswerFile {
  columns: ColumnInfo[];
  file: string;
  table: string;
  rowCount: number;
}

/**
 * Runs a checked extraction query in the worker into `file`, a path the engine may write;
 * undefined when the SQL is not one SELECT that prepares alone and can be wrapped as a
 * subquery (a trailing comment…): it is then read as rows.
 */
export async function writeAnswerFile(options: {
  connection: DuckDBConnection;
  sql: string;
  maxRows: number;
  checkpoint: () => void;
  file: string;
}): Promise<AnswerFile | 'too-many-rows' | undefined> {
  const { connection, sql, maxRows, checkpoint, file } = options;
  const columns = await describeAnswer(connection, sql);
  if (columns === null) return undefined;
  checkpoint();
  // Positional names: the answer's may repeat, or be empty.
  const aliases = columns.map((_, index) => `c${index}`).join(', ');
  const out = '__nao_answer_out';
  await connection.run(`ATTACH ${quoteLiteral(file)} AS ${out}`);
  let written = false;
  try {
    let create: DuckDBPreparedStatement;
    try {
      // The SQL prepared as one complete SELECT, so as a subquery it stays that SELECT.
      create = await connection.prepare(
        `CREATE TABLE ${out}.main.answer AS SELECT * FROM ${asSubquery(sql)} AS answer(${aliases}) LIMIT ${maxRows + 1}`,
      );
    } catch {
      return undefined;
    }
    let rowCount: number;
    try {
      checkpoint();
      rowCount = Number((await create.runAndReadAll()).getRows()[0]?.[0]);
    } finally {
      create.destroySync();
    }
    if (rowCount > maxRows) return 'too-many-rows';
    await connection.run(`DETACH ${out}`);
    written = true;
    return { columns, file, table: 'answer', rowCount };
  } finally {
    // An answer not sent takes its file with it.
    if (!written) {
      await connection.run(`DETACH ${out}`).catch(() => undefined);
      await rm(file, { force: true });
    }
  }
}

/**
 * The load file's table `id` as the answer when the SQL returns it whole, as it stands: its
 * parse (`parsed`, the safety check's) is the parse of `SELECT * FROM "<id>"`. Undefined for
 * any other SQL.
 */
export async function loadedTableWhole(options: {
  connection: DuckDBConnection;
  maxRows: number;
  loadFile: string;
  tableIds: readonly string[];
  parsed: unknown;
}): Promise<AnswerFile | 'too-many-rows' | undefined> {
  const { connection } = options;
  const tree = options.parsed as { statements?: { node?: { from_table?: { table_name?: unknown } } }[] };
  const id = options.tableIds.find((each) => each === tree.statements?.[0]?.node?.from_table?.table_name);
  if (id === undefined) return undefined;
  const plain = await parseDuckDbSql(connection, `SELECT * FROM ${quoteIdentifier(id)}`);
  if (JSON.stringify(tree, withoutPositions) !== JSON.stringify(plain, withoutPositions)) return undefined;
  const columns = await describeAnswer(connection, `SELECT * FROM ${quoteIdentifier(id)}`);
  if (columns === null) return undefined;
  const [count] = await runSmallQuery(connection, `SELECT count(*) FROM ${quoteIdentifier(id)}`);
  const rowCount = Number(count?.[0]);
  if (rowCount > options.maxRows) return 'too-many-rows';
  return { columns, file: options.loadFile, table: id, rowCount };
}

/** Where in the text each part stands is not what the query does. */
function withoutPositions(key: string, value: unknown): unknown {
  return key === 'query_location' ? undefined : value;
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

/** Reads an answer file in nao. */
export async function readAnswerFile(options: AnswerFile & { threads: number }): Promise<CellValue[][]> {
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
      // The stored table has the answer's columns and types, as the worker read them.
      text: options.columns.flatMap((column, index) => (column.type === 'VARCHAR' ? [index] : [])),
      count: options.rowCount,
    });
    connection.closeSync();
    return rows;
  } finally {
    instance.closeSync();
  }
}
