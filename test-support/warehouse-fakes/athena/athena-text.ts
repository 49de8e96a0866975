/**
 * A DuckDB value as Athena writes it in a result's VarCharValue: Trino's text of the value
 * (decimals with their scale, 'NaN'/'Infinity' for doubles, the shortest text of a float,
 * timestamps 'YYYY-MM-DD HH:MM:SS.ffffff' at their precision, zoned ones in UTC with ' UTC'),
 * varbinary as hex bytes separated by spaces ('61 62 00 ff').
 */
import { DuckDBTypeId, type DuckDBValue } from '@duckdb/node-api';
import { trinoJsonValue } from '../trino/trino-json-value.js';

export function athenaText(value: DuckDBValue, typeId: DuckDBTypeId): string {
  if (typeId === DuckDBTypeId.BLOB) {
    return Array.from((value as unknown as { bytes: Uint8Array }).bytes, (byte) =>
      byte.toString(16).padStart(2, '0'),
    ).join(' ');
  }
  const json = trinoJsonValue(value, typeId);
  return typeof json === 'string' ? json : String(json);
}
