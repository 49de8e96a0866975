/**
 * Runs a checked extraction query and reads its rows as CellValues, through the warehouse
 * layer's DuckDB reader, so extracted rows read exactly like reference rows read from a
 * warehouse. An answer longer than the sandbox allows is refused whole: its rows are not read.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { type CellValue, type ColumnInfo, readDuckDbQuery } from '../warehouse/index.js';

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
  /**
   * Called between the statements of the read; throwing stops it. An interrupt that arrives
   * between two statements is otherwise lost.
   */
  checkpoint?: () => void;
  /** Run the answer to completion first (see `readDuckDbQuery`); for engines sized for small data. */
  materialize?: boolean;
}): Promise<AnswerRows> {
  const { connection, sql, maxRows, checkpoint, materialize } = options;
  return readDuckDbQuery({
    connection,
    sql,
    maxRows,
    overflow: 'drop-rows',
    ...(checkpoint === undefined ? {} : { checkpoint }),
    ...(materialize === undefined ? {} : { materialize }),
  });
}
