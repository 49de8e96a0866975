/**
 * BigQuery's REST rows (`{f: [{v}]}`, every scalar as text) as `CellValue`s, read with the
 * result schema: the library's own parsing is skipped, since it turns INT64 into lossy
 * numbers and NUMERIC into Big objects.
 */
import { bytesCell, floatCell, integerTextCell, type JsonValue, timestampTextCell } from '../cell-value.js';
import type { CellValue } from '../database.js';

/** A field of `schema.fields` in a BigQuery API response (TableFieldSchema). */
export interface BigQueryField {
  name: string;
  type: string;
  mode?: string;
  fields?: BigQueryField[];
  precision?: string;
  scale?: string;
  maxLength?: string;
}

/** A cell as the API sends it: `{v}` holding text, null, an array of cells, or a row `{f}`. */
export interface BigQueryCell {
  v: unknown;
}

/** The legacy names the API uses in result schemas, as GoogleSQL spells them. */
const TYPE_NAMES: Record<string, string> = {
  INTEGER: 'INT64',
  FLOAT: 'FLOAT64',
  BOOLEAN: 'BOOL',
  RECORD: 'STRUCT',
};

/** The GoogleSQL spelling of a field's type: INT64, NUMERIC(10, 2), ARRAY<STRING>, STRUCT<a INT64>. */
export function bigQueryTypeName(field: BigQueryField): string {
  const base = TYPE_NAMES[field.type] ?? field.type;
  let name = base;
  if (base === 'STRUCT') {
    name = `STRUCT<${(field.fields ?? []).map((child) => `${child.name} ${bigQueryTypeName(child)}`).join(', ')}>`;
  } else if (field.precision !== undefined) {
    name = `${base}(${field.precision}${field.scale === undefined ? '' : `, ${field.scale}`})`;
  } else if (field.maxLength !== undefined) {
    name = `${base}(${field.maxLength})`;
  }
  return field.mode === 'REPEATED' ? `ARRAY<${name}>` : name;
}

/** One cell of a result row. */
export function bigQueryCell(field: BigQueryField, cell: BigQueryCell | undefined): CellValue {
  const value = cell?.v ?? null;
  if (value === null) return null;
  if (field.mode === 'REPEATED' || (TYPE_NAMES[field.type] ?? field.type) === 'STRUCT') {
    return JSON.stringify(nestedValue(field, value));
  }
  return scalarCell(field, String(value));
}

function nestedValue(field: BigQueryField, value: unknown): JsonValue {
  if (value === null) return null;
  if (field.mode === 'REPEATED') {
    const element = { ...field, mode: 'NULLABLE' };
    return (value as BigQueryCell[]).map((item) => nestedValue(element, item.v ?? null));
  }
  if ((TYPE_NAMES[field.type] ?? field.type) === 'STRUCT') {
    const cells = (value as { f: BigQueryCell[] }).f;
    const record: { [key: string]: JsonValue } = {};
    (field.fields ?? []).forEach((child, index) => {
      record[child.name] = nestedValue(child, cells[index]?.v ?? null);
    });
    return record;
  }
  return scalarCell(field, String(value));
}

function scalarCell(field: BigQueryField, text: string): CellValue {
  switch (TYPE_NAMES[field.type] ?? field.type) {
    case 'INT64':
      return integerTextCell(text);
    case 'FLOAT64':
      return floatCell(Number(text));
    case 'BOOL':
      return text.toLowerCase() === 'true';
    case 'BYTES':
      return bytesCell(Buffer.from(text, 'base64'));
    case 'DATETIME':
      return timestampTextCell(text);
    case 'TIMESTAMP':
      return timestampCell(text);
    case 'NUMERIC':
    case 'BIGNUMERIC':
      return field.scale === undefined ? text : padScale(text, Number(field.scale));
    default:
      // STRING, DATE, TIME, JSON, GEOGRAPHY, INTERVAL and RANGE as BigQuery spells them.
      return text;
  }
}

/**
 * NUMERIC text ('12.5', BigQuery drops trailing zeros) at the scale of a parameterized type
 * ('12.50' for NUMERIC(5, 2)); text that is not plain decimal stays as it is.
 */
function padScale(text: string, scale: number): string {
  const match = /^(-?\d+)(?:\.(\d*))?$/.exec(text);
  if (match === null || scale <= 0) return text;
  const fraction = match[2] ?? '';
  return fraction.length >= scale ? text : `${match[1]}.${fraction.padEnd(scale, '0')}`;
}

const MICROS_PER_SECOND = 1_000_000n;

/**
 * A TIMESTAMP as ISO text in UTC ('2024-01-02T01:04:05.123456Z'), from the int64 microseconds
 * nao asks for (`formatOptions.useInt64Timestamp`) or the float seconds of older responses
 * ('1.704157445123456E9'), read as exact decimal text so no microsecond is lost.
 */
export function timestampCell(text: string): string {
  const micros = /^-?\d+$/.test(text) ? BigInt(text) : secondsToMicros(text);
  if (micros === undefined) return text;
  let seconds = micros / MICROS_PER_SECOND;
  let fraction = micros % MICROS_PER_SECOND;
  if (fraction < 0n) {
    fraction += MICROS_PER_SECOND;
    seconds -= 1n;
  }
  const whole = new Date(Number(seconds) * 1000).toISOString().slice(0, 19);
  return fraction === 0n ? `${whole}Z` : `${whole}.${fraction.toString().padStart(6, '0')}Z`;
}

function secondsToMicros(text: string): bigint | undefined {
  const match = /^(-?)(\d+)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (match === null) return undefined;
  const [, sign, integer, fraction = '', exponent = '0'] = match;
  // digits × 10^(exponent − fraction digits) seconds, times 10^6 for microseconds.
  const shift = Number(exponent) - fraction.length + 6;
  const digits = BigInt(`${integer}${fraction}`);
  const micros = shift >= 0 ? digits * 10n ** BigInt(shift) : digits / 10n ** BigInt(-shift);
  return sign === '-' ? -micros : micros;
}
