import {
  type DuckDBConnection,
  DuckDBMaterializedResult,
  type DuckDBResult,
  type DuckDBValue,
} from '@duckdb/node-api';
import type { CellValue, QueryResult } from '../database.js';
import { duckDbColumnReader, readChunkColumns } from './duckdb-columns.js';

export interface DuckDbResultRead extends QueryResult {
  /** `stopAfterRows` ended the read while the result went on: `rows` is only its start. */
  stopped: boolean;
}

/**
 * Reads a DuckDB result chunk by chunk into `CellValue` rows, keeping at most `maxRows`;
 * on a streaming result the chunks past the cap are never computed. `truncated` says
 * whether more rows existed. With `stopAfterRows`, the read also stops (with `stopped`) once
 * that many rows were read and more follow, so the caller can read the rest another way.
 */
export async function readDuckDbResult(
  result: DuckDBResult,
  options: { maxRows?: number; stopAfterRows?: number } = {},
): Promise<DuckDbResultRead> {
  const maxRows = options.maxRows ?? Number.POSITIVE_INFINITY;
  const stopAfterRows = options.stopAfterRows ?? Number.POSITIVE_INFINITY;
  const types = result.columnTypes();
  const readers = types.map(duckDbColumnReader);
  const columns = result.columnNames().map((name, index) => ({ name, type: types[index]!.toString() }));
  const rows: CellValue[][] = [];
  let truncated = false;
  // A materialized result holds its chunks already: reading them costs no round trip each.
  const materialized = result instanceof DuckDBMaterializedResult ? result : null;
  let next = 0;
  while (!truncated) {
    const chunk =
      materialized === null
        ? await result.fetchChunk()
        : next < materialized.chunkCount
          ? materialized.getChunk(next++)
          : null;
    if (chunk === null || chunk.rowCount === 0) break;
    if (rows.length >= stopAfterRows) return { columns, rows, truncated: false, stopped: true };
    const count = Math.min(chunk.rowCount, maxRows - rows.length);
    if (count < chunk.rowCount) truncated = true;
    const offset = rows.length;
    for (let row = 0; row < count; row++) rows.push(new Array<CellValue>(readers.length));
    readChunkColumns({ chunk, readers, rows, offset, count });
  }
  return { columns, rows, truncated, stopped: false };
}

/**
 * Runs a statement with a small result (metadata, a count) and returns its raw values in one
 * round trip: `runAndReadAll` takes one per chunk and three more with parameters, and each
 * round trip waits for a busy event loop during a large suite.
 */
export async function runSmallQuery(connection: DuckDBConnection, sql: string): Promise<DuckDBValue[][]> {
  const result = await connection.run(sql);
  const rows: DuckDBValue[][] = [];
  for (let index = 0; index < result.chunkCount; index++) rows.push(...result.getChunk(index).getRows());
  return rows;
}
