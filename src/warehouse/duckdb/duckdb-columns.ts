/**
 * Reads the columns of DuckDB data chunks straight from the vectors' memory into `CellValue`
 * rows, for the warehouse and the extraction sandbox alike.
 *
 * node-api's `vector.getItem` tests validity with BigInt operations, builds an object per
 * DATE, DECIMAL or TIMESTAMP value and calls into native code for every text longer than 12
 * bytes, which made a million-row column cost 0.2–1.4 s. Here the common types are read from
 * typed arrays over the vector data and the validity mask byte by byte; each value still goes
 * through the one conversion rule of duckdb-value.ts / cell-value.ts, so the cells are exactly
 * those of `duckDbCellConverter`. Every other type is read through node-api and that converter.
 */
import { endianness } from 'node:os';
import { type DuckDBDataChunk, type DuckDBType, DuckDBTypeId } from '@duckdb/node-api';
import duckdb from '@duckdb/node-bindings';
import { float32Cell, floatCell, integerCell } from '../cell-value.js';
import type { CellValue } from '../database.js';
import {
  dateCell,
  decimalText,
  duckDbCellConverter,
  TIMESTAMP_UNITS,
  type TimestampUnit,
  timestampCell,
} from './duckdb-value.js';

/** Where one column of one chunk goes: `rows[offset + r][target]` for the chunk's rows `r < count`. */
export interface ColumnSlice {
  chunk: DuckDBDataChunk;
  /** The column's index in the chunk. */
  column: number;
  rows: CellValue[][];
  offset: number;
  /** Rows read, from the chunk's first; at most its row count. */
  count: number;
  target: number;
}

/** Writes the cells of one column of a chunk into existing rows. */
export type DuckDbColumnReader = (slice: ColumnSlice) => void;

/**
 * The reader of one column, picked once from its type. Readers of DATE columns remember the
 * text of each day (up to a bound), so a column's rows of one day share one string.
 */
export function duckDbColumnReader(type: DuckDBType): DuckDbColumnReader {
  return fastReader(type) ?? genericReader(type);
}

/**
 * Reads `count` rows of every column of `chunk` with `readers` (one per column) into
 * `rows[offset + r]`, column `k` at position `targets[k]`.
 */
export function readChunkColumns(options: {
  chunk: DuckDBDataChunk;
  readers: readonly DuckDbColumnReader[];
  rows: CellValue[][];
  offset: number;
  count: number;
  /** Position in the rows of each column; the column's own index when absent. */
  targets?: readonly number[];
}): void {
  const { chunk, readers, rows, offset, count, targets } = options;
  for (let column = 0; column < readers.length; column++) {
    readers[column]!({ chunk, column, rows, offset, count, target: targets?.[column] ?? column });
  }
}

function genericReader(type: DuckDBType): DuckDbColumnReader {
  const convert = duckDbCellConverter(type);
  return ({ chunk, column, rows, offset, count, target }) => {
    const vector = chunk.getColumnVector(column);
    for (let r = 0; r < count; r++) {
      const item = vector.getItem(r);
      rows[offset + r]![target] = item === null ? null : convert(item);
    }
  };
}

/** Reads the raw data of a flat vector; `validity` is null when every row is valid. */
type RawRead = (data: VectorData, validity: Uint8Array | null, slice: ColumnSlice) => void;

/** Vector memory, owned by DuckDB and never shared between threads. */
type VectorData = Uint8Array<ArrayBuffer>;

// The typed arrays below read the vectors in the machine's byte order, which is DuckDB's.
// Bytes of the validity mask are read in ascending order, which is only the bit order of its
// uint64 words on a little-endian machine; elsewhere everything takes the generic path.
const LITTLE_ENDIAN = endianness() === 'LE';

function fastReader(type: DuckDBType): DuckDbColumnReader | undefined {
  if (!LITTLE_ENDIAN) return undefined;
  switch (type.typeId) {
    case DuckDBTypeId.BOOLEAN:
      return duckdb.sizeof_bool === 1 ? raw(1, readBoolean) : undefined;
    case DuckDBTypeId.TINYINT:
      return raw(1, numbers(Int8Array));
    case DuckDBTypeId.SMALLINT:
      return raw(2, numbers(Int16Array));
    case DuckDBTypeId.INTEGER:
      return raw(4, readInt32);
    case DuckDBTypeId.UTINYINT:
      return raw(1, numbers(Uint8Array));
    case DuckDBTypeId.USMALLINT:
      return raw(2, numbers(Uint16Array));
    case DuckDBTypeId.UINTEGER:
      return raw(4, numbers(Uint32Array));
    case DuckDBTypeId.BIGINT:
      return raw(8, readBigInt);
    case DuckDBTypeId.UBIGINT:
      return raw(8, readUBigInt);
    case DuckDBTypeId.HUGEINT:
      return raw(
        16,
        int128Reader((value) => (typeof value === 'number' ? value : integerCell(value))),
      );
    case DuckDBTypeId.FLOAT:
      return raw(4, readFloat);
    case DuckDBTypeId.DOUBLE:
      return raw(8, readDouble);
    case DuckDBTypeId.DATE:
      return raw(4, dateReader());
    case DuckDBTypeId.VARCHAR:
      return raw(16, readVarChar);
    case DuckDBTypeId.DECIMAL:
      return decimalReader(type);
    case DuckDBTypeId.TIMESTAMP_S:
      return raw(8, timestampReader(TIMESTAMP_UNITS.TIMESTAMP_S));
    case DuckDBTypeId.TIMESTAMP_MS:
      return raw(8, timestampReader(TIMESTAMP_UNITS.TIMESTAMP_MS));
    case DuckDBTypeId.TIMESTAMP:
      return raw(8, timestampReader(TIMESTAMP_UNITS.TIMESTAMP));
    case DuckDBTypeId.TIMESTAMP_TZ:
      return raw(8, timestampReader(TIMESTAMP_UNITS.TIMESTAMP_TZ));
    case DuckDBTypeId.TIMESTAMP_NS:
      return raw(8, timestampReader(TIMESTAMP_UNITS.TIMESTAMP_NS));
    default:
      return undefined;
  }
}

/**
 * Hands the data and validity of a column to `read`. Result chunks hold flat vectors (node-api
 * reads them the same way), so row `r` is element `r` of the data.
 */
function raw(width: number, read: RawRead): DuckDbColumnReader {
  return (slice) => {
    if (slice.count === 0) return;
    const vector = duckdb.data_chunk_get_vector(slice.chunk.chunk, slice.column);
    const data = duckdb.vector_get_data(vector, slice.count * width) as VectorData;
    const validity = duckdb.vector_get_validity(vector, Math.ceil(slice.count / 64) * 8) ?? null;
    read(data, validity, slice);
  };
}

function valid(validity: Uint8Array | null, row: number): boolean {
  return validity === null || (validity[row >> 3]! & (1 << (row & 7))) !== 0;
}

type NumberArray =
  | typeof Int8Array
  | typeof Uint8Array
  | typeof Int16Array
  | typeof Uint16Array
  | typeof Uint32Array;

/** Small integer types: the number itself. */
function numbers(Values: NumberArray): RawRead {
  return (data, validity, { rows, offset, count, target }) => {
    const values = new Values(data.buffer, data.byteOffset, count);
    for (let r = 0; r < count; r++) rows[offset + r]![target] = valid(validity, r) ? values[r]! : null;
  };
}

// INTEGER has a loop of its own: the shared one above sees five array types and is slower.
const readInt32: RawRead = (data, validity, { rows, offset, count, target }) => {
  const values = new Int32Array(data.buffer, data.byteOffset, count);
  for (let r = 0; r < count; r++) rows[offset + r]![target] = valid(validity, r) ? values[r]! : null;
};

const readBoolean: RawRead = (data, validity, { rows, offset, count, target }) => {
  for (let r = 0; r < count; r++) rows[offset + r]![target] = valid(validity, r) ? data[r] !== 0 : null;
};

const readDouble: RawRead = (data, validity, { rows, offset, count, target }) => {
  const values = new Float64Array(data.buffer, data.byteOffset, count);
  for (let r = 0; r < count; r++)
    rows[offset + r]![target] = valid(validity, r) ? floatCell(values[r]!) : null;
};

const readFloat: RawRead = (data, validity, { rows, offset, count, target }) => {
  const values = new Float32Array(data.buffer, data.byteOffset, count);
  for (let r = 0; r < count; r++)
    rows[offset + r]![target] = valid(validity, r) ? float32Cell(values[r]!) : null;
};

const TWO_32 = 4294967296;
/** int64 values with a high word in [-2^21, 2^21) lie in [-2^53, 2^53): exact as doubles. */
const HIGH_SAFE = 2097152;

/**
 * The signed 64-bit integer of two 32-bit halves as a number when it is a safe integer
 * (|n| <= 2^53-1), else undefined: the caller then reads it as a BigInt, which is far slower.
 */
function safeInt64(low: number, high: number): number | undefined {
  if (high < -HIGH_SAFE || high >= HIGH_SAFE) return undefined;
  const value = high * TWO_32 + (low >>> 0);
  return value >= -Number.MAX_SAFE_INTEGER ? value : undefined;
}

const readBigInt: RawRead = (data, validity, { rows, offset, count, target }) => {
  const words = new Int32Array(data.buffer, data.byteOffset, 2 * count);
  let wide: BigInt64Array | undefined;
  for (let r = 0; r < count; r++) {
    let cell: CellValue = null;
    if (valid(validity, r)) {
      const value = safeInt64(words[2 * r]!, words[2 * r + 1]!);
      if (value !== undefined) cell = value;
      else {
        wide ??= new BigInt64Array(data.buffer, data.byteOffset, count);
        cell = integerCell(wide[r]!);
      }
    }
    rows[offset + r]![target] = cell;
  }
};

const readUBigInt: RawRead = (data, validity, { rows, offset, count, target }) => {
  const words = new Uint32Array(data.buffer, data.byteOffset, 2 * count);
  let wide: BigUint64Array | undefined;
  for (let r = 0; r < count; r++) {
    let cell: CellValue = null;
    if (valid(validity, r)) {
      const high = words[2 * r + 1]!;
      if (high < HIGH_SAFE) cell = high * TWO_32 + words[2 * r]!;
      else {
        wide ??= new BigUint64Array(data.buffer, data.byteOffset, count);
        cell = integerCell(wide[r]!);
      }
    }
    rows[offset + r]![target] = cell;
  }
};

/**
 * 128-bit integers (HUGEINT, wide DECIMAL) go to `cell` as a number when they are safe
 * integers, else as a BigInt; most values are small, so BigInts stay rare.
 */
function int128Reader(cell: (value: bigint | number) => CellValue): RawRead {
  return (data, validity, { rows, offset, count, target }) => {
    const words = new Int32Array(data.buffer, data.byteOffset, 4 * count);
    let halves: BigUint64Array | undefined;
    for (let r = 0; r < count; r++) {
      if (!valid(validity, r)) {
        rows[offset + r]![target] = null;
        continue;
      }
      const high = words[4 * r + 1]!;
      const upper = words[4 * r + 3]!;
      let value: bigint | number | undefined;
      // When the upper 64 bits only repeat the sign of the lower 64, the value is that int64.
      if ((upper === 0 || upper === -1) && words[4 * r + 2] === upper && high >> 31 === upper) {
        value = safeInt64(words[4 * r]!, high);
      }
      if (value === undefined) {
        halves ??= new BigUint64Array(data.buffer, data.byteOffset, 2 * count);
        value = (BigInt.asIntN(64, halves[2 * r + 1]!) << 64n) | halves[2 * r]!;
      }
      rows[offset + r]![target] = cell(value);
    }
  };
}

/** DECIMAL's storage follows its width: int16 up to 4 digits, int32 up to 9, int64 up to 18, else int128. */
function decimalReader(type: DuckDBType): DuckDbColumnReader | undefined {
  const logical = type.toLogicalType().logical_type;
  const scale = duckdb.decimal_scale(logical);
  const text = (value: bigint | number) => decimalText(value, scale);
  switch (duckdb.decimal_internal_type(logical)) {
    case duckdb.Type.SMALLINT:
      return raw(2, smallDecimals(Int16Array, scale));
    case duckdb.Type.INTEGER:
      return raw(4, smallDecimals(Int32Array, scale));
    case duckdb.Type.BIGINT:
      return raw(8, (data, validity, { rows, offset, count, target }) => {
        const words = new Int32Array(data.buffer, data.byteOffset, 2 * count);
        let wide: BigInt64Array | undefined;
        for (let r = 0; r < count; r++) {
          if (!valid(validity, r)) {
            rows[offset + r]![target] = null;
            continue;
          }
          let value: bigint | number | undefined = safeInt64(words[2 * r]!, words[2 * r + 1]!);
          if (value === undefined) {
            wide ??= new BigInt64Array(data.buffer, data.byteOffset, count);
            value = wide[r]!;
          }
          rows[offset + r]![target] = text(value);
        }
      });
    case duckdb.Type.HUGEINT:
      return raw(16, int128Reader(text));
    default:
      return undefined;
  }
}

function smallDecimals(Values: typeof Int16Array | typeof Int32Array, scale: number): RawRead {
  return (data, validity, { rows, offset, count, target }) => {
    const values = new Values(data.buffer, data.byteOffset, count);
    for (let r = 0; r < count; r++) {
      rows[offset + r]![target] = valid(validity, r) ? decimalText(values[r]!, scale) : null;
    }
  };
}

/** Distinct days remembered per DATE column; beyond that their text is made each time. */
const DAY_CACHE_LIMIT = 100_000;

/**
 * DATE columns: dates repeat a lot, and a million fresh strings cost more in garbage
 * collection than to make, so the reader keeps one string per day.
 */
function dateReader(): RawRead {
  const days = new Map<number, string>();
  return (data, validity, { rows, offset, count, target }) => {
    const values = new Int32Array(data.buffer, data.byteOffset, count);
    for (let r = 0; r < count; r++) {
      if (!valid(validity, r)) {
        rows[offset + r]![target] = null;
        continue;
      }
      const day = values[r]!;
      let text = days.get(day);
      if (text === undefined) {
        text = dateCell(day);
        if (days.size < DAY_CACHE_LIMIT) days.set(day, text);
      }
      rows[offset + r]![target] = text;
    }
  };
}

function timestampReader(unit: TimestampUnit): RawRead {
  return (data, validity, { rows, offset, count, target }) => {
    const words = new Int32Array(data.buffer, data.byteOffset, 2 * count);
    let wide: BigInt64Array | undefined;
    for (let r = 0; r < count; r++) {
      if (!valid(validity, r)) {
        rows[offset + r]![target] = null;
        continue;
      }
      let ticks: bigint | number | undefined = safeInt64(words[2 * r]!, words[2 * r + 1]!);
      if (ticks === undefined) {
        wide ??= new BigInt64Array(data.buffer, data.byteOffset, count);
        ticks = wide[r]!;
      }
      rows[offset + r]![target] = timestampCell(ticks, unit);
    }
  };
}

/**
 * VARCHAR: each value is a 16-byte string_t, its length in the first 4 bytes. Up to 12 bytes
 * the text is inline after the length; longer text lies elsewhere and is fetched through its
 * pointer (bytes 8–15) by one native call per value.
 */
const readVarChar: RawRead = (data, validity, { rows, offset, count, target }) => {
  const lengths = new Uint32Array(data.buffer, data.byteOffset, 4 * count);
  const bytes = Buffer.from(data.buffer, data.byteOffset, 16 * count);
  for (let r = 0; r < count; r++) {
    let cell: CellValue = null;
    if (valid(validity, r)) {
      const length = lengths[4 * r]!;
      const start = 16 * r + 4;
      if (length === 0) cell = '';
      else if (length <= 12) cell = bytes.toString('utf8', start, start + length);
      else {
        const text = duckdb.get_data_from_pointer(data.buffer, data.byteOffset + start + 4, length);
        cell = Buffer.from(text.buffer, text.byteOffset, text.byteLength).toString('utf8');
      }
    }
    rows[offset + r]![target] = cell;
  }
};
