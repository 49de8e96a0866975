/**
 * The tokens of a tabular result (MS-TDS 2.2.7) the fake sends, and how a DuckDB column is
 * described and encoded as SQL Server would send the matching type: INTN, BITN, FLTN,
 * DECIMALN, NVARCHAR, BIGVARBINARY, DATEN, DATETIME2N, DATETIMEOFFSETN.
 */
import { type DuckDBType, DuckDBTypeId, type DuckDBValue } from '@duckdb/node-api';

const TOKEN = {
  COLMETADATA: 0x81,
  ERROR: 0xaa,
  INFO: 0xab,
  LOGINACK: 0xad,
  ROW: 0xd1,
  ENVCHANGE: 0xe3,
  DONE: 0xfd,
} as const;

export const DONE_STATUS = { FINAL: 0x00, MORE: 0x01, ERROR: 0x02, COUNT: 0x10, ATTENTION: 0x20 } as const;

/** Latin1_General_CI_AS: LCID 0x0409 with its sort flags, as SQL Server sends it. */
const COLLATION = Buffer.from([0x09, 0x04, 0xd0, 0x00, 0x34]);

function utf16(text: string): Buffer {
  return Buffer.from(text, 'utf16le');
}

/** B_VARCHAR: a one-byte count of UTF-16 code units, then the text. */
function bVarchar(text: string): Buffer {
  return Buffer.concat([Buffer.from([text.length]), utf16(text)]);
}

/** US_VARCHAR: a two-byte count of UTF-16 code units, then the text. */
function usVarchar(text: string): Buffer {
  const length = Buffer.alloc(2);
  length.writeUInt16LE(text.length);
  return Buffer.concat([length, utf16(text)]);
}

function withLength(token: number, body: Buffer): Buffer {
  const header = Buffer.alloc(3);
  header[0] = token;
  header.writeUInt16LE(body.length, 1);
  return Buffer.concat([header, body]);
}

export function done(status: number, rowCount = 0): Buffer {
  const buffer = Buffer.alloc(13);
  buffer[0] = TOKEN.DONE;
  buffer.writeUInt16LE(status, 1);
  buffer.writeUInt16LE(0xc1, 3);
  buffer.writeBigUInt64LE(BigInt(rowCount), 5);
  return buffer;
}

/** ERROR (or INFO) token: number, state, class (severity) and message, as SQL Server reports them. */
export function errorToken(options: {
  number: number;
  state?: number;
  severity: number;
  message: string;
}): Buffer {
  const head = Buffer.alloc(6);
  head.writeInt32LE(options.number, 0);
  head[4] = options.state ?? 1;
  head[5] = options.severity;
  const line = Buffer.alloc(4);
  line.writeInt32LE(1);
  const body = Buffer.concat([
    head,
    usVarchar(options.message),
    bVarchar('nao-fake-tds'),
    bVarchar(''),
    line,
  ]);
  return withLength(options.severity > 10 ? TOKEN.ERROR : TOKEN.INFO, body);
}

export function envChangeDatabase(database: string): Buffer {
  return withLength(
    TOKEN.ENVCHANGE,
    Buffer.concat([Buffer.from([1]), bVarchar(database), bVarchar('master')]),
  );
}

export function envChangePacketSize(size: number): Buffer {
  return withLength(
    TOKEN.ENVCHANGE,
    Buffer.concat([Buffer.from([4]), bVarchar(String(size)), bVarchar('4096')]),
  );
}

export function envChangeCollation(): Buffer {
  return withLength(
    TOKEN.ENVCHANGE,
    Buffer.concat([Buffer.from([7, COLLATION.length]), COLLATION, Buffer.from([0])]),
  );
}

/** LOGINACK for TDS 7.4 from "Microsoft SQL Server" 16.0. */
export function loginAck(): Buffer {
  const version = Buffer.alloc(4);
  version.writeUInt32BE(0x74000004);
  return withLength(
    TOKEN.LOGINACK,
    Buffer.concat([
      Buffer.from([1]),
      version,
      bVarchar('Microsoft SQL Server'),
      Buffer.from([16, 0, 0x10, 0x00]),
    ]),
  );
}

/** How one result column goes over the wire: its TYPE_INFO and each value's bytes. */
export interface ColumnCodec {
  typeInfo: Buffer;
  encode(value: DuckDBValue): Buffer;
}

const NVARCHAR_BYTES = 8000;
const DAYS_FROM_0001_TO_1970 = 719_162;

function nullable(length: number, write: (buffer: Buffer) => void): Buffer {
  const buffer = Buffer.alloc(1 + length);
  buffer[0] = length;
  write(buffer);
  return buffer;
}

function intN(bytes: 1 | 2 | 4 | 8): ColumnCodec {
  return {
    typeInfo: Buffer.from([0x26, bytes]),
    encode: (value) => {
      if (value === null) return Buffer.from([0]);
      return nullable(bytes, (buffer) => {
        if (bytes === 1) buffer.writeUInt8(Number(value), 1);
        else if (bytes === 2) buffer.writeInt16LE(Number(value), 1);
        else if (bytes === 4) buffer.writeInt32LE(Number(value), 1);
        else buffer.writeBigInt64LE(BigInt(value as bigint | number), 1);
      });
    },
  };
}

/** Bytes of a DECIMALN value by precision (MS-TDS 2.2.5.5.1.3). */
function decimalBytes(precision: number): number {
  if (precision <= 9) return 5;
  if (precision <= 19) return 9;
  if (precision <= 28) return 13;
  return 17;
}

function decimalN(precision: number, scale: number): ColumnCodec {
  const length = decimalBytes(precision);
  return {
    typeInfo: Buffer.from([0x6a, length, precision, scale]),
    encode: (value) => {
      if (value === null) return Buffer.from([0]);
      const unscaled = (value as { value: bigint }).value;
      const buffer = Buffer.alloc(1 + length);
      buffer[0] = length;
      buffer[1] = unscaled < 0n ? 0 : 1;
      let magnitude = unscaled < 0n ? -unscaled : unscaled;
      for (let index = 2; index < 1 + length; index++) {
        buffer[index] = Number(magnitude & 0xffn);
        magnitude >>= 8n;
      }
      return buffer;
    },
  };
}

/** Time since midnight in units of 10^-scale s, in the 3, 4 or 5 bytes of that scale. */
function timeBytes(unitsOfDay: bigint, scale: number): Buffer {
  const length = scale <= 2 ? 3 : scale <= 4 ? 4 : 5;
  const buffer = Buffer.alloc(length);
  let rest = unitsOfDay;
  for (let index = 0; index < length; index++) {
    buffer[index] = Number(rest & 0xffn);
    rest >>= 8n;
  }
  return buffer;
}

function dateBytes(daysSince1970: number): Buffer {
  const buffer = Buffer.alloc(3);
  buffer.writeUIntLE(daysSince1970 + DAYS_FROM_0001_TO_1970, 0, 3);
  return buffer;
}

/** DATETIME2N (or DATETIMEOFFSETN, in UTC) from nanoseconds since 1970 at `scale` digits. */
function dateTime(options: {
  offset: boolean;
  scale: number;
  nanos: (value: DuckDBValue) => bigint;
}): ColumnCodec {
  const { offset, scale } = options;
  const nanosPerUnit = 10n ** BigInt(9 - scale);
  return {
    typeInfo: Buffer.from([offset ? 0x2b : 0x2a, scale]),
    encode: (value) => {
      if (value === null) return Buffer.from([0]);
      const nanos = options.nanos(value);
      const day = 86_400_000_000_000n;
      const days = nanos >= 0n ? nanos / day : (nanos - day + 1n) / day;
      const ofDay = nanos - days * day;
      const parts = [timeBytes(ofDay / nanosPerUnit, scale), dateBytes(Number(days))];
      if (offset) parts.push(Buffer.alloc(2));
      const body = Buffer.concat(parts);
      return Buffer.concat([Buffer.from([body.length]), body]);
    },
  };
}

function variableBytes(typeInfo: Buffer, bytesOf: (value: DuckDBValue) => Buffer): ColumnCodec {
  return {
    typeInfo,
    encode: (value) => {
      const length = Buffer.alloc(2);
      if (value === null) {
        length.writeUInt16LE(0xffff);
        return length;
      }
      const bytes = bytesOf(value).subarray(0, NVARCHAR_BYTES);
      length.writeUInt16LE(bytes.length);
      return Buffer.concat([length, bytes]);
    },
  };
}

function maxLength(token: number, withCollation: boolean): Buffer {
  const buffer = Buffer.alloc(3);
  buffer[0] = token;
  buffer.writeUInt16LE(NVARCHAR_BYTES, 1);
  return withCollation ? Buffer.concat([buffer, COLLATION]) : buffer;
}

const nvarchar = variableBytes(maxLength(0xe7, true), (value) => utf16(String(value)));

/** The codec of a DuckDB column: the SQL Server type a server would send for it. */
export function columnCodec(type: DuckDBType): ColumnCodec {
  switch (type.typeId) {
    case DuckDBTypeId.BOOLEAN:
      return {
        typeInfo: Buffer.from([0x68, 1]),
        encode: (value) => (value === null ? Buffer.from([0]) : Buffer.from([1, value ? 1 : 0])),
      };
    case DuckDBTypeId.TINYINT:
    case DuckDBTypeId.UTINYINT:
      return intN(1);
    case DuckDBTypeId.SMALLINT:
      return intN(2);
    case DuckDBTypeId.INTEGER:
    case DuckDBTypeId.USMALLINT:
      return intN(4);
    case DuckDBTypeId.BIGINT:
    case DuckDBTypeId.UINTEGER:
    case DuckDBTypeId.HUGEINT:
      return intN(8);
    case DuckDBTypeId.FLOAT:
    case DuckDBTypeId.DOUBLE: {
      const bytes = type.typeId === DuckDBTypeId.FLOAT ? 4 : 8;
      return {
        typeInfo: Buffer.from([0x6d, bytes]),
        encode: (value) => {
          if (value === null) return Buffer.from([0]);
          return nullable(bytes, (buffer) => {
            if (bytes === 4) buffer.writeFloatLE(Number(value), 1);
            else buffer.writeDoubleLE(Number(value), 1);
          });
        },
      };
    }
    case DuckDBTypeId.DECIMAL: {
      const { width, scale } = type as unknown as { width: number; scale: number };
      return decimalN(width, scale);
    }
    case DuckDBTypeId.DATE:
      return {
        typeInfo: Buffer.from([0x28]),
        encode: (value) =>
          value === null
            ? Buffer.from([0])
            : Buffer.concat([Buffer.from([3]), dateBytes((value as { days: number }).days)]),
      };
    case DuckDBTypeId.TIMESTAMP_S:
      return dateTime({
        offset: false,
        scale: 0,
        nanos: (value) => (value as { seconds: bigint }).seconds * 1_000_000_000n,
      });
    case DuckDBTypeId.TIMESTAMP_MS:
      return dateTime({
        offset: false,
        scale: 3,
        nanos: (value) => (value as { millis: bigint }).millis * 1_000_000n,
      });
    case DuckDBTypeId.TIMESTAMP:
      return dateTime({
        offset: false,
        scale: 6,
        nanos: (value) => (value as { micros: bigint }).micros * 1000n,
      });
    case DuckDBTypeId.TIMESTAMP_NS:
      return dateTime({ offset: false, scale: 7, nanos: (value) => (value as { nanos: bigint }).nanos });
    case DuckDBTypeId.TIMESTAMP_TZ:
      return dateTime({
        offset: true,
        scale: 6,
        nanos: (value) => (value as { micros: bigint }).micros * 1000n,
      });
    case DuckDBTypeId.BLOB:
      return variableBytes(maxLength(0xa5, false), (value) =>
        Buffer.from((value as { bytes: Uint8Array }).bytes),
      );
    default:
      return nvarchar;
  }
}

export function colMetadata(names: string[], codecs: ColumnCodec[]): Buffer {
  const count = Buffer.alloc(3);
  count[0] = TOKEN.COLMETADATA;
  count.writeUInt16LE(names.length, 1);
  const columns = names.map((name, index) => {
    // UserType 0, flags: nullable (0x01) and updatable unknown (0x08).
    const head = Buffer.from([0, 0, 0, 0, 0x09, 0]);
    return Buffer.concat([head, codecs[index]!.typeInfo, bVarchar(name)]);
  });
  return Buffer.concat([count, ...columns]);
}

export function row(values: DuckDBValue[], codecs: ColumnCodec[]): Buffer {
  return Buffer.concat([
    Buffer.from([TOKEN.ROW]),
    ...values.map((value, index) => codecs[index]!.encode(value)),
  ]);
}
