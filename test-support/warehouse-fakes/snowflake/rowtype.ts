/**
 * DuckDB result columns as Snowflake describes them in a query response (`rowtype`) and their
 * values as its JSON result format spells them (`rowset`): every value a string — FIXED as its
 * exact digits, BOOLEAN as 1/0, DATE as days since 1970-01-01, TIMESTAMP_NTZ as epoch seconds
 * with `scale` fraction digits, TIMESTAMP_TZ as that plus the offset in minutes + 1440, BINARY
 * as upper-case hex.
 */
import {
  type DuckDBBlobValue,
  type DuckDBDateValue,
  type DuckDBDecimalValue,
  type DuckDBTimestampMillisecondsValue,
  type DuckDBTimestampNanosecondsValue,
  type DuckDBTimestampSecondsValue,
  type DuckDBTimestampTZValue,
  type DuckDBTimestampValue,
  type DuckDBType,
  DuckDBTypeId,
  type DuckDBValue,
} from '@duckdb/node-api';

export interface RowType {
  name: string;
  database: string;
  schema: string;
  table: string;
  type: string;
  precision: number | null;
  scale: number | null;
  length: number | null;
  byteLength: number | null;
  nullable: boolean;
  collation: null;
}

type Encoder = (value: DuckDBValue) => string;

interface ColumnCodec {
  type: string;
  precision?: number;
  scale?: number;
  length?: number;
  encode: Encoder;
}

const INTEGER_TYPES = new Set([
  DuckDBTypeId.TINYINT,
  DuckDBTypeId.SMALLINT,
  DuckDBTypeId.INTEGER,
  DuckDBTypeId.BIGINT,
  DuckDBTypeId.HUGEINT,
  DuckDBTypeId.UTINYINT,
  DuckDBTypeId.USMALLINT,
  DuckDBTypeId.UINTEGER,
  DuckDBTypeId.UBIGINT,
  DuckDBTypeId.UHUGEINT,
]);

function encodeFloat(value: DuckDBValue): string {
  const number = value as number;
  if (Number.isNaN(number)) return 'NaN';
  if (number === Number.POSITIVE_INFINITY) return 'inf';
  if (number === Number.NEGATIVE_INFINITY) return '-inf';
  return String(number);
}

/** `units` since the epoch as seconds with `scale` fraction digits, `unitsPerSecond` a power of ten. */
function epochSeconds(units: bigint, unitsPerSecond: bigint, scale: number): string {
  const seconds = units / unitsPerSecond - (units % unitsPerSecond < 0n ? 1n : 0n);
  const fraction = units - seconds * unitsPerSecond;
  if (scale === 0) return String(seconds);
  const digits = String(fraction).padStart(String(unitsPerSecond).length - 1, '0');
  return `${seconds}.${digits.padEnd(scale, '0').slice(0, scale)}`;
}

function codecOf(type: DuckDBType): ColumnCodec {
  const id = type.typeId;
  if (INTEGER_TYPES.has(id)) return { type: 'fixed', precision: 38, scale: 0, encode: String };
  switch (id) {
    case DuckDBTypeId.DECIMAL: {
      const { width, scale } = type as unknown as { width: number; scale: number };
      return {
        type: 'fixed',
        precision: width,
        scale,
        encode: (value) => (value as DuckDBDecimalValue).toString(),
      };
    }
    // Snowflake's FLOAT is always double precision.
    case DuckDBTypeId.FLOAT:
    case DuckDBTypeId.DOUBLE:
      return { type: 'real', encode: encodeFloat };
    case DuckDBTypeId.BOOLEAN:
      return { type: 'boolean', encode: (value) => (value ? '1' : '0') };
    case DuckDBTypeId.DATE:
      return { type: 'date', encode: (value) => String((value as DuckDBDateValue).days) };
    case DuckDBTypeId.TIMESTAMP_S:
      return {
        type: 'timestamp_ntz',
        scale: 0,
        encode: (value) => String((value as DuckDBTimestampSecondsValue).seconds),
      };
    case DuckDBTypeId.TIMESTAMP_MS:
      return {
        type: 'timestamp_ntz',
        scale: 3,
        encode: (value) => epochSeconds((value as DuckDBTimestampMillisecondsValue).millis, 1000n, 3),
      };
    case DuckDBTypeId.TIMESTAMP:
      return {
        type: 'timestamp_ntz',
        scale: 6,
        encode: (value) => epochSeconds((value as DuckDBTimestampValue).micros, 1_000_000n, 6),
      };
    case DuckDBTypeId.TIMESTAMP_NS:
      return {
        type: 'timestamp_ntz',
        scale: 9,
        encode: (value) => epochSeconds((value as DuckDBTimestampNanosecondsValue).nanos, 1_000_000_000n, 9),
      };
    // DuckDB keeps the instant only, so the fake reports every zoned value at offset +00:00.
    case DuckDBTypeId.TIMESTAMP_TZ:
      return {
        type: 'timestamp_tz',
        scale: 6,
        encode: (value) => `${epochSeconds((value as DuckDBTimestampTZValue).micros, 1_000_000n, 6)} 1440`,
      };
    case DuckDBTypeId.BLOB:
      return {
        type: 'binary',
        length: 8_388_608,
        encode: (value) =>
          Buffer.from((value as DuckDBBlobValue).bytes)
            .toString('hex')
            .toUpperCase(),
      };
    case DuckDBTypeId.VARCHAR:
      return { type: 'text', length: 16_777_216, encode: (value) => value as string };
    default:
      return { type: 'text', length: 16_777_216, encode: (value) => String(value) };
  }
}

export interface ResultCodec {
  rowtype: RowType[];
  encodeRow(row: DuckDBValue[]): (string | null)[];
}

export function resultCodec(options: {
  names: string[];
  types: DuckDBType[];
  database: string;
  schema: string;
}): ResultCodec {
  const codecs = options.types.map(codecOf);
  const rowtype = codecs.map(
    (codec, index): RowType => ({
      name: options.names[index] ?? `C${index}`,
      database: options.database,
      schema: options.schema,
      table: '',
      type: codec.type,
      precision: codec.precision ?? null,
      scale: codec.scale ?? null,
      length: codec.length ?? null,
      byteLength: codec.length === undefined ? null : codec.length * 4,
      nullable: true,
      collation: null,
    }),
  );
  return {
    rowtype,
    encodeRow: (row) => row.map((value, index) => (value === null ? null : codecs[index]!.encode(value))),
  };
}

/** The `rowtype` of what a statement that returns no rows of its own answers (DDL, SCL, TCL). */
export const STATUS_ROWTYPE: RowType[] = [
  {
    name: 'status',
    database: '',
    schema: '',
    table: '',
    type: 'text',
    precision: null,
    scale: null,
    length: 16_777_216,
    byteLength: 16_777_216,
    nullable: true,
    collation: null,
  },
];
