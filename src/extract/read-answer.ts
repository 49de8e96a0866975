/**
 * Runs a checked extraction query and reads its rows as CellValues, through the warehouse
 * layer's DuckDB reader, so extracted rows read exactly like reference rows read from a
 * warehouse. An answer longer than the sandbox allows is refused whole: its rows are not read.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { readDuckDbQuery } from '../warehouse/duckdb/index.js';

/** More than `maxRows` rows sets `truncated`, and `rows` then holds none. */
export function readAnswer(options: {
  connection: DuckDBConnection;
  sql: string;
  maxRows: number;
  /**
   * Called between the statements of the read; throwing stops it. An interrupt that arrives
   * between two statements is otherwise lost.
   */
  checkpoint?: () => void;
}): ReturnType<typeof readDuckDbQuery> {
  return readDuckDbQuery({ ...options, overflow: 'drop-rows' });
}
