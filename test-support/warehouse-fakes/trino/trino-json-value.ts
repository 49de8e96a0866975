/**
 * A DuckDB value as Trino's client protocol encodes it in `data`: integers as JSON numbers
 * (bigint too, written exactly by the server), decimals as exact text, doubles as numbers or
 * 'NaN'/'Infinity'/'-Infinity', reals as the shortest float text, timestamps as
 * 'YYYY-MM-DD HH:MM:SS.ffffff' at their precision (zoned ones in UTC, with ' UTC'), varbinary as
 * base64, arrays and rows as JSON arrays, maps as JSON objects.
 */
import { DuckDBTypeId, type DuckDBValue } from '@duckdb/node-api';

function nonFinite(value: number): number | string {
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? 'Infinity' : '-Infinity';
  return value;
}

function shortestFloat(value: number): number | string {
  if (!Number.isFinite(value)) return nonFinite(value);
  const single = Math.fround(value);
  for (let digits = 1; digits <= 9; digits++) {
    const candidate = Number(single.toPrecision(digits));
    if (Math.fround(candidate) === single) return candidate;
  }
  return single;
}

function timestampText(micros: bigint, fractionDigits: number): string {
  const seconds = micros / 1_000_000n - (micros % 1_000_000n < 0n ? 1n : 0n);
  const fraction = micros - seconds * 1_000_000n;
  const base = new Date(Number(seconds) * 1000).toISOString().slice(0, 19).replace('T', ' ');
  if (fractionDigits === 0) return base;
  return `${base}.${fraction.toString().padStart(6, '0').padEnd(9, '0').slice(0, fractionDigits)}`;
}

export function trinoJsonValue(value: DuckDBValue, typeId: DuckDBTypeId): unknown {
  if (value === null) return null;
  const object = value as unknown as Record<string, unknown>;
  switch (typeId) {
    case DuckDBTypeId.DOUBLE:
      return nonFinite(value as number);
    case DuckDBTypeId.FLOAT:
      return shortestFloat(value as number);
    case DuckDBTypeId.BIGINT:
    case DuckDBTypeId.HUGEINT:
      return value;
    case DuckDBTypeId.TIMESTAMP:
      return timestampText(object.micros as bigint, 6);
    case DuckDBTypeId.TIMESTAMP_TZ:
      return `${timestampText(object.micros as bigint, 6)} UTC`;
    case DuckDBTypeId.TIMESTAMP_MS:
      return timestampText((object.millis as bigint) * 1000n, 3);
    case DuckDBTypeId.TIMESTAMP_S:
      return timestampText((object.seconds as bigint) * 1_000_000n, 0);
    case DuckDBTypeId.BLOB:
      return Buffer.from(object.bytes as Uint8Array).toString('base64');
    case DuckDBTypeId.LIST:
    case DuckDBTypeId.ARRAY:
      return (object.items as DuckDBValue[]).map((item) =>
        typeof item === 'object' && item !== null ? String(item) : item,
      );
    default:
      return typeof value === 'object' ? String(value) : value;
  }
}
