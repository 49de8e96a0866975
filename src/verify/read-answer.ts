/**
 * Runs a checked extraction query and reads its rows as CellValues.
 *
 * Reading text through node-api costs a native call and an ArrayBuffer per value longer than
 * 12 bytes, which made a million-row answer take seconds, mostly in the garbage collector.
 * So when the answer has text columns it is first materialized in a temp table, its other
 * columns are read the usual way, and each text column is read as one JSON array per 2,048
 * rows (a single native read and a JSON.parse per group).
 */
import { type DuckDBConnection, DuckDBTypeId } from '@duckdb/node-api';
import { type CellValue, type ColumnInfo, readDuckDbResult } from '../warehouse/index.js';
import { fillColumns } from './cell-values.js';
import { quoteIdentifier } from './load-tables.js';

const ANSWER_TABLE = '__nao_answer';
const GROUP_ROWS = 2048;

export interface AnswerRows {
  columns: ColumnInfo[];
  rows: CellValue[][];
  /** More than `maxRows` rows existed; `rows` then holds none. */
  truncated: boolean;
}

export async function readAnswer(options: {
  connection: DuckDBConnection;
  sql: string;
  maxRows: number;
}): Promise<AnswerRows> {
  const { connection, sql, maxRows } = options;
  // Preparing binds the query without running it: names and types of the answer as the
  // query spells them (a temp table would rename duplicates).
  const prepared = await connection.prepare(sql);
  const columns: ColumnInfo[] = [];
  const text: number[] = [];
  try {
    for (let index = 0; index < prepared.columnCount; index++) {
      const type = prepared.columnType(index);
      columns.push({ name: prepared.columnName(index), type: type.toString() });
      if (type.typeId === DuckDBTypeId.VARCHAR) text.push(index);
    }
  } finally {
    prepared.destroySync();
  }
  // A column named rowid would hide the temp table's row order.
  if (text.length === 0 || columns.some((column) => column.name.toLowerCase() === 'rowid')) {
    const result = await readDuckDbResult(await connection.stream(sql), { maxRows });
    return { columns, rows: result.rows, truncated: result.truncated };
  }

  const table = quoteIdentifier(ANSWER_TABLE);
  // `sql` passed the safety check as one complete SELECT statement, so prefixing it keeps it
  // one statement; a newline ends a trailing `--` comment.
  await connection.run(`CREATE OR REPLACE TEMP TABLE ${table} AS ${sql}\n`);
  try {
    const counted = await connection.runAndReadAll(`SELECT count(*) FROM ${table}`);
    const count = Number(counted.getRows()[0]?.[0]);
    if (count > maxRows) return { columns, rows: [], truncated: true };

    const described = await connection.runAndReadAll(`SELECT * FROM ${table} LIMIT 0`);
    const stored = described.columnNames().map(quoteIdentifier);
    if (stored.length !== columns.length) {
      throw new Error(`the answer has ${columns.length} columns but ${stored.length} were stored`);
    }
    const rows: CellValue[][] = Array.from({ length: count }, () => new Array<CellValue>(columns.length));

    const other = columns.map((_, index) => index).filter((index) => !text.includes(index));
    if (other.length > 0) {
      const list = other.map((index) => stored[index]).join(', ');
      const result = await connection.stream(`SELECT ${list} FROM ${table} ORDER BY rowid`);
      await fillColumns({ result, rows, targets: other });
    }

    const lists = text.map((index) => `to_json(list(${stored[index]} ORDER BY rowid))`).join(', ');
    const groups = await connection.stream(
      // Positional GROUP BY: an answer column named like the alias would win over it.
      `SELECT rowid // ${GROUP_ROWS}, ${lists} FROM ${table} GROUP BY 1 ORDER BY 1`,
    );
    for (;;) {
      const chunk = await groups.fetchChunk();
      if (chunk === null || chunk.rowCount === 0) break;
      const groupVector = chunk.getColumnVector(0);
      for (let k = 0; k < text.length; k++) {
        const vector = chunk.getColumnVector(k + 1);
        const column = text[k]!;
        for (let g = 0; g < chunk.rowCount; g++) {
          const start = Number(groupVector.getItem(g)) * GROUP_ROWS;
          const values = JSON.parse(String(vector.getItem(g))) as (string | null)[];
          for (let i = 0; i < values.length; i++) rows[start + i]![column] = values[i] ?? null;
        }
      }
    }
    return { columns, rows, truncated: false };
  } finally {
    // A failed drop (after an interrupt) is harmless: the next answer replaces the table.
    await connection.run(`DROP TABLE IF EXISTS ${table}`).catch(() => undefined);
  }
}
