import type { DuckDBResult } from '@duckdb/node-api';
import type { CellValue, QueryResult } from './database.js';
import { duckDbCellConverter } from './duckdb-value.js';

/**
 * Reads a DuckDB result chunk by chunk into `CellValue` rows, keeping at most `maxRows`;
 * on a streaming result the chunks past the cap are never computed. `truncated` says
 * whether more rows existed.
 */
export async function readDuckDbResult(
  result: DuckDBResult,
  options: { maxRows?: number } = {},
): Promise<QueryResult> {
  const maxRows = options.maxRows ?? Number.POSITIVE_INFINITY;
  const types = result.columnTypes();
  const converters = types.map(duckDbCellConverter);
  const columns = result.columnNames().map((name, index) => ({ name, type: types[index]!.toString() }));
  const rows: CellValue[][] = [];
  let truncated = false;
  while (!truncated) {
    const chunk = await result.fetchChunk();
    if (chunk === null || chunk.rowCount === 0) break;
    const take = Math.min(chunk.rowCount, maxRows - rows.length);
    if (take < chunk.rowCount) truncated = true;
    const start = rows.length;
    for (let row = 0; row < take; row++) rows.push(new Array<CellValue>(converters.length));
    for (let column = 0; column < converters.length; column++) {
      const vector = chunk.getColumnVector(column);
      const convert = converters[column]!;
      for (let row = 0; row < take; row++) {
        const item = vector.getItem(row);
        rows[start + row]![column] = item === null ? null : convert(item);
      }
    }
  }
  return { columns, rows, truncated };
}
