import { floatCell, integerTextCell, timestampTextCell } from '../cell-value.js';
import type { CellValue } from '../database.js';

/**
 * PostgreSQL text-format values → `CellValue`, by type OID. Applied to the raw text of each
 * field, so nothing goes through pg's process-wide type parsers (which turn int8 and numeric
 * into lossy numbers and timestamps into millisecond Dates). The session runs with
 * DateStyle=ISO, TimeZone=UTC, IntervalStyle=postgres, extra_float_digits=1 (see
 * postgres-database.ts), which fixes the text these converters read.
 */
export type PostgresCellConverter = (text: string) => CellValue;

const OID = {
  bool: 16,
  int8: 20,
  int2: 21,
  int4: 23,
  oid: 26,
  float4: 700,
  float8: 701,
  timestamp: 1114,
  timestamptz: 1184,
} as const;

const identity: PostgresCellConverter = (text) => text;

/**
 * The converter for a column of type `oid`. Types without a JSON-native value (numeric, date,
 * time, interval, uuid, json, bytea as '\x…' hex, arrays as '{…}') keep PostgreSQL's text.
 */
export function postgresCellConverter(oid: number): PostgresCellConverter {
  switch (oid) {
    case OID.bool:
      return (text) => text === 't';
    case OID.int2:
    case OID.int4:
    case OID.oid:
      return (text) => Number(text);
    case OID.int8:
      return integerTextCell;
    case OID.float4:
    case OID.float8:
      // float4 text is already its shortest round-trip form ('0.1').
      return (text) => floatCell(Number(text));
    case OID.timestamp:
    case OID.timestamptz:
      return (text) => timestampTextCell(text);
    default:
      return identity;
  }
}
