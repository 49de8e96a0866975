/**
 * DuckDB result columns as a Databricks SQL warehouse describes and sends them over
 * TCLIService: a TTableSchema of TTypeIds (DECIMAL with precision and scale), and Arrow IPC
 * batches laid out as the warehouse does for a client that asks for no native Arrow types
 * (decimals, timestamps and nested values as text; DATE as Date32, BINARY as bytes).
 * Timestamps are written in UTC, the only session time zone the fake serves.
 */
import {
  DuckDBBlobValue,
  DuckDBDateValue,
  DuckDBTimestampTZValue,
  DuckDBTimestampValue,
  type DuckDBType,
  DuckDBTypeId,
  type DuckDBValue,
} from '@duckdb/node-api';
import { arrow, Int64, ttypes } from './driver-modules.js';

const { TTypeId } = ttypes;

export interface ColumnEncoding {
  name: string;
  typeId: number;
  precision?: number;
  scale?: number;
  // biome-ignore lint/suspicious/noExplicitAny: an apache-arrow DataType.
  arrowType: any;
  encode(value: DuckDBValue): unknown;
}

export function columnEncoding(name: string, type: DuckDBType): ColumnEncoding {
  const column = (typeId: number, arrowType: unknown, encode: (value: DuckDBValue) => unknown) => ({
    name,
    typeId,
    arrowType,
    encode,
  });
  switch (type.typeId) {
    case DuckDBTypeId.BOOLEAN:
      return column(TTypeId.BOOLEAN_TYPE, new arrow.Bool(), (value) => value);
    case DuckDBTypeId.TINYINT:
      return column(TTypeId.TINYINT_TYPE, new arrow.Int8(), (value) => value);
    case DuckDBTypeId.SMALLINT:
      return column(TTypeId.SMALLINT_TYPE, new arrow.Int16(), (value) => value);
    case DuckDBTypeId.INTEGER:
      return column(TTypeId.INT_TYPE, new arrow.Int32(), (value) => value);
    case DuckDBTypeId.BIGINT:
    case DuckDBTypeId.HUGEINT:
    case DuckDBTypeId.UINTEGER:
      return column(TTypeId.BIGINT_TYPE, new arrow.Int64(), (value) => BigInt(value as bigint | number));
    case DuckDBTypeId.FLOAT:
      return column(TTypeId.FLOAT_TYPE, new arrow.Float32(), (value) => value);
    case DuckDBTypeId.DOUBLE:
      return column(TTypeId.DOUBLE_TYPE, new arrow.Float64(), (value) => value);
    case DuckDBTypeId.DECIMAL: {
      const { width, scale } = type as unknown as { width: number; scale: number };
      return {
        ...column(TTypeId.DECIMAL_TYPE, new arrow.Utf8(), (value) => String(value)),
        precision: width,
        scale,
      };
    }
    case DuckDBTypeId.DATE:
      return column(TTypeId.DATE_TYPE, new arrow.DateDay(), (value) =>
        value instanceof DuckDBDateValue ? new Date(value.days * 86_400_000) : value,
      );
    case DuckDBTypeId.TIMESTAMP:
    case DuckDBTypeId.TIMESTAMP_TZ:
      return column(TTypeId.TIMESTAMP_TYPE, new arrow.Utf8(), (value) =>
        value instanceof DuckDBTimestampValue || value instanceof DuckDBTimestampTZValue
          ? utcText(value.micros)
          : String(value),
      );
    case DuckDBTypeId.BLOB:
      return column(TTypeId.BINARY_TYPE, new arrow.Binary(), (value) =>
        value instanceof DuckDBBlobValue ? value.bytes : value,
      );
    case DuckDBTypeId.LIST:
    case DuckDBTypeId.ARRAY:
      return column(TTypeId.ARRAY_TYPE, new arrow.Utf8(), (value) => String(value));
    case DuckDBTypeId.STRUCT:
      return column(TTypeId.STRUCT_TYPE, new arrow.Utf8(), (value) => String(value));
    case DuckDBTypeId.MAP:
      return column(TTypeId.MAP_TYPE, new arrow.Utf8(), (value) => String(value));
    default:
      return column(TTypeId.STRING_TYPE, new arrow.Utf8(), (value) => String(value));
  }
}

/** Spark's text of a timestamp: 'YYYY-MM-DD HH:MM:SS' and the fraction without its final zeros. */
function utcText(micros: bigint): string {
  const seconds = micros / 1_000_000n - (micros % 1_000_000n < 0n ? 1n : 0n);
  const fraction = micros - seconds * 1_000_000n;
  const text = new Date(Number(seconds) * 1000).toISOString().slice(0, 19).replace('T', ' ');
  const digits = fraction.toString().padStart(6, '0').replace(/0+$/, '');
  return digits === '' ? text : `${text}.${digits}`;
}

/** The TTableSchema of the result, positions from 1. */
export function tableSchema(columns: readonly ColumnEncoding[]): unknown {
  return new ttypes.TTableSchema({
    columns: columns.map(
      (column, index) =>
        new ttypes.TColumnDesc({
          columnName: column.name,
          position: index + 1,
          typeDesc: new ttypes.TTypeDesc({
            types: [
              new ttypes.TTypeEntry({
                primitiveEntry: new ttypes.TPrimitiveTypeEntry({
                  type: column.typeId,
                  ...(column.precision === undefined
                    ? {}
                    : {
                        typeQualifiers: new ttypes.TTypeQualifiers({
                          qualifiers: {
                            precision: new ttypes.TTypeQualifierValue({ i32Value: column.precision }),
                            scale: new ttypes.TTypeQualifierValue({ i32Value: column.scale }),
                          },
                        }),
                      }),
                }),
              }),
            ],
          }),
        }),
    ),
  });
}

function arrowSchemaOf(columns: readonly ColumnEncoding[]) {
  return new arrow.Schema(columns.map((column) => new arrow.Field(column.name, column.arrowType, true)));
}

const END_OF_STREAM_BYTES = 8;

/** The Arrow IPC schema message the warehouse sends with the result set metadata. */
export function arrowSchemaMessage(columns: readonly ColumnEncoding[]): Buffer {
  const stream: Uint8Array = arrow.tableToIPC(new arrow.Table(arrowSchemaOf(columns)), 'stream');
  return Buffer.from(stream.subarray(0, stream.length - END_OF_STREAM_BYTES));
}

/** One TSparkArrowBatch of `rows` (already encoded per column), as the IPC record batch message alone. */
export function arrowBatch(columns: readonly ColumnEncoding[], rows: readonly unknown[][]): unknown {
  const schema = arrowSchemaOf(columns);
  const children = columns.map(
    (column, index) =>
      arrow.vectorFromArray(
        rows.map((row) => row[index] ?? null),
        column.arrowType,
      ).data[0],
  );
  const data = arrow.makeData({
    type: new arrow.Struct(schema.fields),
    length: rows.length,
    nullCount: 0,
    children,
  });
  const batch = new arrow.RecordBatch(schema, data);
  const stream: Uint8Array = arrow.tableToIPC(new arrow.Table([batch]), 'stream');
  const schemaLength = arrowSchemaMessage(columns).length;
  return new ttypes.TSparkArrowBatch({
    batch: Buffer.from(stream.subarray(schemaLength, stream.length - END_OF_STREAM_BYTES)),
    rowCount: new Int64(rows.length),
  });
}
