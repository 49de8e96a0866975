/**
 * DuckDB results as BigQuery's REST API shapes them: `schema.fields` with the legacy type
 * names result schemas use (INTEGER, FLOAT, BOOLEAN, RECORD), rows as `{f: [{v}]}` with every
 * scalar as text, NUMERIC without trailing zeros, BYTES in base64, TIMESTAMP in int64
 * microseconds (`formatOptions.useInt64Timestamp`) or float seconds.
 */
import {
  DuckDBBlobValue,
  DuckDBDateValue,
  DuckDBDecimalValue,
  type DuckDBListValue,
  type DuckDBStructValue,
  DuckDBTimestampTZValue,
  DuckDBTimestampValue,
  type DuckDBType,
  DuckDBTypeId,
  type DuckDBValue,
} from '@duckdb/node-api';

export interface RestField {
  name: string;
  type: string;
  mode: 'NULLABLE' | 'REPEATED';
  fields?: RestField[];
}

export interface RestCell {
  v: string | null | RestCell[] | { f: RestCell[] };
}

const INTEGERS = new Set([
  DuckDBTypeId.TINYINT,
  DuckDBTypeId.SMALLINT,
  DuckDBTypeId.INTEGER,
  DuckDBTypeId.BIGINT,
  DuckDBTypeId.UTINYINT,
  DuckDBTypeId.USMALLINT,
  DuckDBTypeId.UINTEGER,
]);

export function restField(name: string, type: DuckDBType): RestField {
  if (type.typeId === DuckDBTypeId.LIST) return { ...restField(name, type.valueType), mode: 'REPEATED' };
  if (type.typeId === DuckDBTypeId.STRUCT) {
    return {
      name,
      type: 'RECORD',
      mode: 'NULLABLE',
      fields: type.entryNames.map((entry, index) => restField(entry, type.entryTypes[index]!)),
    };
  }
  return { name, type: scalarType(type), mode: 'NULLABLE' };
}

function scalarType(type: DuckDBType): string {
  if (INTEGERS.has(type.typeId)) return 'INTEGER';
  switch (type.typeId) {
    case DuckDBTypeId.BOOLEAN:
      return 'BOOLEAN';
    case DuckDBTypeId.FLOAT:
    case DuckDBTypeId.DOUBLE:
      return 'FLOAT';
    case DuckDBTypeId.DECIMAL:
      return type.scale <= 9 && type.width - type.scale <= 29 ? 'NUMERIC' : 'BIGNUMERIC';
    case DuckDBTypeId.HUGEINT:
    case DuckDBTypeId.UBIGINT:
      return 'BIGNUMERIC';
    case DuckDBTypeId.BLOB:
      return 'BYTES';
    case DuckDBTypeId.DATE:
      return 'DATE';
    case DuckDBTypeId.TIMESTAMP:
      return 'DATETIME';
    case DuckDBTypeId.TIMESTAMP_TZ:
      return 'TIMESTAMP';
    case DuckDBTypeId.TIME:
      return 'TIME';
    default:
      return 'STRING';
  }
}

export function restCell(field: RestField, value: DuckDBValue, int64Timestamps: boolean): RestCell {
  if (value === null) return { v: null };
  if (field.mode === 'REPEATED') {
    const element: RestField = { ...field, mode: 'NULLABLE' };
    return { v: (value as DuckDBListValue).items.map((item) => restCell(element, item, int64Timestamps)) };
  }
  if (field.type === 'RECORD') {
    const entries = Object.values((value as DuckDBStructValue).entries);
    return {
      v: { f: field.fields!.map((child, index) => restCell(child, entries[index] ?? null, int64Timestamps)) },
    };
  }
  return { v: scalarText(value, int64Timestamps) };
}

function scalarText(value: DuckDBValue, int64Timestamps: boolean): string {
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return Number.isNaN(value) ? 'NaN' : String(value);
  if (value instanceof DuckDBDecimalValue) return trimZeros(value.toString());
  if (value instanceof DuckDBBlobValue) return Buffer.from(value.bytes).toString('base64');
  if (value instanceof DuckDBDateValue) return value.toString();
  if (value instanceof DuckDBTimestampTZValue) {
    return int64Timestamps ? value.micros.toString() : microsAsFloatSeconds(value.micros);
  }
  if (value instanceof DuckDBTimestampValue) {
    const [date, time = '00:00:00'] = value.toString().split(' ');
    const [whole, fraction] = time.split('.');
    return fraction === undefined ? `${date}T${whole}` : `${date}T${whole}.${fraction.padEnd(6, '0')}`;
  }
  return String(value);
}

function trimZeros(text: string): string {
  return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
}

/** BigQuery's float-seconds spelling, e.g. 1.704157445123456E9. */
function microsAsFloatSeconds(micros: bigint): string {
  const seconds = (Number(micros) / 1e6).toExponential();
  const [mantissa, exponent] = seconds.split('e');
  return `${mantissa}E${Number(exponent)}`;
}
