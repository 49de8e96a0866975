/**
 * Reads sandbox results as `CellValue`s with the warehouse layer's own DuckDB converter, so
 * extracted rows read exactly like reference rows read from a warehouse.
 */
import { type DuckDBDateValue, type DuckDBResult, type DuckDBType, DuckDBTypeId } from '@duckdb/node-api';
import { type CellValue, type DuckDbCellConverter, duckDbCellConverter } from '../warehouse/index.js';

/** Distinct dates remembered per column; beyond that they are converted each time. */
const DATE_CACHE_LIMIT = 100_000;

/**
 * The warehouse converter of one column; for DATE columns its text is reused per day, since
 * dates repeat a lot and a million fresh strings cost more in garbage collection than to make.
 */
function converterFor(type: DuckDBType): DuckDbCellConverter {
  const convert = duckDbCellConverter(type);
  if (type.typeId !== DuckDBTypeId.DATE) return convert;
  const cache = new Map<number, CellValue>();
  return (value) => {
    const days = (value as DuckDBDateValue).days;
    let cell = cache.get(days);
    if (cell === undefined) {
      cell = convert(value);
      if (cache.size < DATE_CACHE_LIMIT) cache.set(days, cell);
    }
    return cell;
  };
}

/**
 * Reads every row of `result` into existing rows: column `k` of the result goes to position
 * `targets[k]` of each row, so several reads can fill one set of rows without copies.
 */
export async function fillColumns(options: {
  result: DuckDBResult;
  rows: CellValue[][];
  targets: readonly number[];
}): Promise<void> {
  const { result, rows, targets } = options;
  const converters = result.columnTypes().map(converterFor);
  let offset = 0;
  for (;;) {
    const chunk = await result.fetchChunk();
    if (chunk === null || chunk.rowCount === 0) break;
    const count = Math.min(chunk.rowCount, rows.length - offset);
    for (let c = 0; c < converters.length; c++) {
      const vector = chunk.getColumnVector(c);
      const convert = converters[c]!;
      const target = targets[c]!;
      for (let r = 0; r < count; r++) {
        const item = vector.getItem(r);
        rows[offset + r]![target] = item === null ? null : convert(item);
      }
    }
    offset += chunk.rowCount;
  }
}
