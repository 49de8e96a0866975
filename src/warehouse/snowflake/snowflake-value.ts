import { bytesCell, floatCell, integerTextCell } from '../cell-value.js';
import type { CellValue } from '../database.js';

/**
 * snowflake-sdk values → `CellValue`. Statements run with `fetchAsString: ['Number']`, so FIXED
 * and REAL arrive as the account's exact text; DATE and TIMESTAMP_* arrive as the driver's
 * Dates, which also carry the epoch seconds, nanoseconds, scale and zone of the value, read
 * here so no precision is lost to JavaScript's milliseconds.
 */

/** What nao reads of a column of snowflake-sdk (its `Column`). */
export interface SnowflakeColumn {
  getName(): string;
  getType(): string;
  getScale(): number;
  getPrecision(): number;
}

/** The driver's Date of a DATE or TIMESTAMP_* value (SfTimestamp.toSfDate()). */
interface SfDate {
  getEpochSeconds(): number;
  getNanoSeconds(): number;
  getScale(): number;
}

type Converter = (value: unknown) => CellValue;

/** The column type as Snowflake spells it: NUMBER(38,0), TIMESTAMP_NTZ(9), VARCHAR… */
export function snowflakeTypeName(column: SnowflakeColumn): string {
  const type = column.getType().toLowerCase();
  switch (type) {
    case 'fixed':
      return `NUMBER(${column.getPrecision()},${column.getScale()})`;
    case 'real':
      return 'FLOAT';
    case 'text':
      return 'VARCHAR';
    case 'time':
    case 'timestamp_ntz':
    case 'timestamp_ltz':
    case 'timestamp_tz':
      return `${type.toUpperCase()}(${column.getScale()})`;
    default:
      return type.toUpperCase();
  }
}

export function snowflakeCellConverter(column: SnowflakeColumn): Converter {
  const type = column.getType().toLowerCase();
  switch (type) {
    case 'fixed':
      return column.getScale() > 0 ? (value) => String(value) : (value) => integerTextCell(String(value));
    case 'real':
      return (value) => realCell(String(value));
    case 'boolean':
      return (value) => Boolean(value);
    case 'date':
      return (value) => isoCell(value as SfDate, { time: false, zone: false });
    case 'timestamp_ntz':
      return (value) => isoCell(value as SfDate, { time: true, zone: false });
    // Values with a zone are given in UTC (the instant), as for every engine.
    case 'timestamp_ltz':
    case 'timestamp_tz':
      return (value) => isoCell(value as SfDate, { time: true, zone: true });
    case 'binary':
      return (value) => bytesCell(value as Uint8Array);
    case 'variant':
    case 'object':
    case 'array':
    case 'map':
      return (value) => (typeof value === 'string' ? value : JSON.stringify(value));
    default:
      return (value) => (typeof value === 'string' ? value : String(value));
  }
}

/** REAL text: 'NaN', 'inf' and '-inf' are Snowflake's spellings of the values JSON lacks. */
function realCell(text: string): CellValue {
  const lower = text.toLowerCase();
  if (lower === 'inf' || lower === 'infinity') return 'Infinity';
  if (lower === '-inf' || lower === '-infinity') return '-Infinity';
  return floatCell(Number(text));
}

function isoCell(value: SfDate, options: { time: boolean; zone: boolean }): string {
  const seconds = value.getEpochSeconds();
  const date = new Date(seconds * 1000);
  const year = date.getUTCFullYear();
  // Years ISO cannot spell in four digits keep the driver's own text.
  if (!Number.isFinite(date.getTime()) || year < 0 || year > 9999) return String(value);
  const iso = date.toISOString();
  if (!options.time) return iso.slice(0, 10);
  const nanos = value.getNanoSeconds();
  const scale = value.getScale();
  const fraction = nanos === 0 || scale === 0 ? '' : `.${String(nanos).padStart(9, '0').slice(0, scale)}`;
  return `${iso.slice(0, 19)}${fraction}${options.zone ? 'Z' : ''}`;
}
