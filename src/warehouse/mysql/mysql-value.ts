import { bytesCell, floatCell, integerCell, integerTextCell, timestampTextCell } from '../cell-value.js';
import type { CellValue } from '../database.js';

/**
 * mysql2 values → `CellValue`. The pool reads BIGINT and DECIMAL as strings
 * (`supportBigNumbers`, `bigNumberStrings`, `decimalNumbers: false`), dates as the server's
 * text (`dateStrings`) and JSON as text (`jsonStrings`); binary columns and BIT arrive as Buffers.
 */

/** The metadata mysql2 gives for a result column. */
export interface MysqlField {
  name: string;
  columnType?: number;
  type?: number;
  flags?: number | string[];
  decimals?: number;
  columnLength?: number;
  characterSet?: number;
}

const T = {
  decimal: 0,
  tiny: 1,
  short: 2,
  long: 3,
  float: 4,
  double: 5,
  null: 6,
  timestamp: 7,
  longlong: 8,
  int24: 9,
  date: 10,
  time: 11,
  datetime: 12,
  year: 13,
  newdate: 14,
  varchar: 15,
  bit: 16,
  timestamp2: 17,
  datetime2: 18,
  time2: 19,
  json: 245,
  newdecimal: 246,
  enum: 247,
  set: 248,
  tinyBlob: 249,
  mediumBlob: 250,
  longBlob: 251,
  blob: 252,
  varString: 253,
  string: 254,
  geometry: 255,
} as const;

const UNSIGNED_FLAG = 32;
const ENUM_FLAG = 256;
const SET_FLAG = 2048;
const BINARY_CHARSET = 63;

function typeId(field: MysqlField): number {
  return field.columnType ?? field.type ?? -1;
}

function flagsOf(field: MysqlField): number {
  return typeof field.flags === 'number' ? field.flags : 0;
}

/** The column's type as MySQL would write it: BIGINT UNSIGNED, DECIMAL(38,10), DATETIME(6), VARBINARY… */
export function mysqlTypeName(field: MysqlField): string {
  const flags = flagsOf(field);
  const unsigned = (flags & UNSIGNED_FLAG) !== 0;
  const binary = field.characterSet === BINARY_CHARSET;
  const decimals = field.decimals ?? 0;
  // 31 is the protocol's "not fixed" marker (FLOAT/DOUBLE without a declared scale).
  const fraction = decimals > 0 && decimals < 31 ? `(${decimals})` : '';
  const integer = (name: string) => (unsigned ? `${name} UNSIGNED` : name);
  switch (typeId(field)) {
    case T.decimal:
    case T.newdecimal: {
      const length = field.columnLength ?? 0;
      const precision = length - (decimals > 0 ? 1 : 0) - (unsigned ? 0 : 1);
      return precision > 0 ? `DECIMAL(${precision},${decimals})` : 'DECIMAL';
    }
    case T.tiny:
      return integer('TINYINT');
    case T.short:
      return integer('SMALLINT');
    case T.int24:
      return integer('MEDIUMINT');
    case T.long:
      return integer('INT');
    case T.longlong:
      return integer('BIGINT');
    case T.float:
      return 'FLOAT';
    case T.double:
      return 'DOUBLE';
    case T.null:
      return 'NULL';
    case T.timestamp:
    case T.timestamp2:
      return `TIMESTAMP${fraction}`;
    case T.datetime:
    case T.datetime2:
      return `DATETIME${fraction}`;
    case T.time:
    case T.time2:
      return `TIME${fraction}`;
    case T.date:
    case T.newdate:
      return 'DATE';
    case T.year:
      return 'YEAR';
    case T.bit:
      return 'BIT';
    case T.json:
      return 'JSON';
    case T.enum:
      return 'ENUM';
    case T.set:
      return 'SET';
    case T.geometry:
      return 'GEOMETRY';
    case T.tinyBlob:
    case T.mediumBlob:
    case T.longBlob:
    case T.blob:
      return binary ? 'BLOB' : 'TEXT';
    case T.varchar:
    case T.varString:
      return binary ? 'VARBINARY' : 'VARCHAR';
    case T.string:
      if ((flags & ENUM_FLAG) !== 0) return 'ENUM';
      if ((flags & SET_FLAG) !== 0) return 'SET';
      return binary ? 'BINARY' : 'CHAR';
    default:
      return `TYPE ${typeId(field)}`;
  }
}

export type MysqlCellConverter = (value: unknown) => CellValue;

/** The converter for one column, picked from its metadata. */
export function mysqlCellConverter(field: MysqlField): MysqlCellConverter {
  switch (typeId(field)) {
    case T.longlong:
      return (value) => (typeof value === 'string' ? integerTextCell(value) : genericCell(value));
    case T.timestamp:
    case T.timestamp2:
    case T.datetime:
    case T.datetime2:
      return (value) => (typeof value === 'string' ? timestampTextCell(value) : genericCell(value));
    case T.bit:
      return (value) => (value instanceof Uint8Array ? bitCell(value) : genericCell(value));
    default:
      return genericCell;
  }
}

function genericCell(value: unknown): CellValue {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return floatCell(value);
    case 'bigint':
      return integerCell(value);
    case 'undefined':
      return null;
  }
  if (value === null) return null;
  if (value instanceof Uint8Array) return bytesCell(value);
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? String(value) : value.toISOString();
  // GEOMETRY, which mysql2 decodes into points and polygons.
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** BIT(n) is an unsigned big-endian integer. */
function bitCell(bytes: Uint8Array): number | string {
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) | BigInt(byte);
  return integerCell(value);
}
