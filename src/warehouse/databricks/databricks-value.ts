/**
 * Databricks result values → `CellValue` (rules in database.ts). The driver is asked for exact
 * numbers (`preserveBigNumericPrecision`: BIGINT as bigint, DECIMAL as its text) and for no
 * native Arrow types, so timestamps arrive as the warehouse's text at full precision, in the
 * session's time zone (UTC, set by nao), and nested values as JSON it has already parsed.
 */
import {
  bytesCell,
  float32Cell,
  floatCell,
  integerCell,
  integerTextCell,
  timestampTextCell,
} from '../cell-value.js';
import type { CellValue } from '../database.js';

/** TTypeId of TCLIService (the generated enum of the driver, by value). */
export const TYPE_IDS = {
  BOOLEAN: 0,
  TINYINT: 1,
  SMALLINT: 2,
  INT: 3,
  BIGINT: 4,
  FLOAT: 5,
  DOUBLE: 6,
  STRING: 7,
  TIMESTAMP: 8,
  BINARY: 9,
  ARRAY: 10,
  MAP: 11,
  STRUCT: 12,
  UNION: 13,
  USER_DEFINED: 14,
  DECIMAL: 15,
  NULL: 16,
  DATE: 17,
  VARCHAR: 18,
  CHAR: 19,
  INTERVAL_YEAR_MONTH: 20,
  INTERVAL_DAY_TIME: 21,
} as const;

const TYPE_NAMES: Record<number, string> = {
  ...Object.fromEntries(Object.entries(TYPE_IDS).map(([name, id]) => [id, name])),
  [TYPE_IDS.NULL]: 'VOID',
  [TYPE_IDS.INTERVAL_YEAR_MONTH]: 'INTERVAL YEAR TO MONTH',
  [TYPE_IDS.INTERVAL_DAY_TIME]: 'INTERVAL DAY TO SECOND',
};

/** The column type as Databricks SQL spells it; DECIMAL with its precision and scale. */
export function databricksTypeName(typeId: number, precision?: number, scale?: number): string {
  if (typeId === TYPE_IDS.DECIMAL && precision !== undefined) return `DECIMAL(${precision},${scale ?? 0})`;
  return TYPE_NAMES[typeId] ?? `type ${typeId}`;
}

export type DatabricksCellConverter = (value: unknown) => CellValue;

/** The converter of one column, picked once from its type id; a value it cannot place keeps its text. */
export function databricksCellConverter(typeId: number): DatabricksCellConverter {
  const convert = converterOf(typeId);
  return (value) => (value === null || value === undefined ? null : convert(value));
}

function converterOf(typeId: number): (value: unknown) => CellValue {
  switch (typeId) {
    case TYPE_IDS.BOOLEAN:
      return (value) => (typeof value === 'boolean' ? value : String(value));
    case TYPE_IDS.TINYINT:
    case TYPE_IDS.SMALLINT:
    case TYPE_IDS.INT:
    case TYPE_IDS.BIGINT:
      return integerValue;
    case TYPE_IDS.FLOAT:
      return (value) => (typeof value === 'number' ? float32Cell(value) : String(value));
    case TYPE_IDS.DOUBLE:
      return (value) => (typeof value === 'number' ? floatCell(value) : String(value));
    case TYPE_IDS.DECIMAL:
      // The exact text; a driver without the precision option would hand a lossy number.
      return (value) => String(value);
    case TYPE_IDS.DATE:
      return dateValue;
    case TYPE_IDS.TIMESTAMP:
      return timestampValue;
    case TYPE_IDS.BINARY:
      return (value) => (value instanceof Uint8Array ? bytesCell(value) : String(value));
    case TYPE_IDS.ARRAY:
    case TYPE_IDS.MAP:
    case TYPE_IDS.STRUCT:
      return (value) => (typeof value === 'string' ? value : JSON.stringify(value, jsonSafe));
    default:
      return (value) => (typeof value === 'string' ? value : String(value));
  }
}

function integerValue(value: unknown): CellValue {
  if (typeof value === 'bigint') return integerCell(value);
  if (typeof value === 'number') return value;
  return integerTextCell(String(value));
}

function dateValue(value: unknown): CellValue {
  // Arrow's Date32 reaches the driver's rows as a Date or as milliseconds, by Arrow version.
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'number') return new Date(value).toISOString().slice(0, 10);
  return String(value);
}

function timestampValue(value: unknown): CellValue {
  if (value instanceof Date) return value.toISOString();
  // Databricks TIMESTAMP is an instant, written in the session time zone, which nao sets to UTC.
  const text = String(value);
  const iso = timestampTextCell(`${text}Z`);
  // Text that is no such timestamp (BC years) is kept as the warehouse wrote it.
  return iso === `${text}Z` ? text : iso;
}

function jsonSafe(_key: string, value: unknown): unknown {
  if (typeof value === 'bigint') return integerCell(value);
  if (typeof value === 'number' && !Number.isFinite(value)) return floatCell(value);
  if (value instanceof Uint8Array) return bytesCell(value);
  return value;
}
