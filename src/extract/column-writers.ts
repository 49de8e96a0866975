/**
 * Writes one column of row-major results into a DuckDB data chunk's vector, for the typed
 * half of the sandbox load.
 *
 * node-api's `vector.setItem` wants a value object per DATE, DECIMAL or TIMESTAMP, a BigInt
 * per BIGINT, updates validity with BigInt operations and keeps a per-row cache, which made a
 * million rows cost most of a second. Here fixed-width values are written into a typed array
 * that is copied into the vector with one native call, and nulls into a validity mask built
 * with 32-bit words, copied likewise. Text still takes one native call per value: the vector's
 * string heap belongs to DuckDB, and `vector_assign_string_element` is the only way to fill it.
 *
 * `vector_get_data` cannot be written through: the bindings are built without external
 * buffers, so it returns a copy. Values are converted by column-types.ts's rules, the ones
 * `planColumn` checks them with.
 */
import { endianness } from 'node:os';
import duckdb from '@duckdb/node-bindings';
import { NaoError } from '../errors/index.js';
import type { CellValue } from '../warehouse/index.js';
import {
  doubleValue,
  duckdbType,
  type LoadType,
  parseDate,
  parseTimestamp,
  parseTimestampTz,
  scaledDecimal,
} from './column-types.js';

/** Rows of one data chunk: DuckDB's vector size. */
export const CHUNK_ROWS = duckdb.vector_size();

/** Where one column's values go: `rows[start + r][index]` into row `r` of `vector`, for `r < count`. */
export interface ColumnSlice {
  vector: duckdb.Vector;
  rows: readonly (readonly CellValue[])[];
  /** The column's position in the rows. */
  index: number;
  start: number;
  /** At most `CHUNK_ROWS`. */
  count: number;
}

/**
 * Fills one vector of a freshly reset data chunk. False when a value is not one the column's
 * type takes (a declared type that lied): the vector is then unusable, and the load is
 * planned again.
 */
export type ColumnWriter = (slice: ColumnSlice) => boolean;

/**
 * The writer of one column, picked once from its load type. It owns scratch buffers of one
 * chunk, so it serves one column of one load at a time. `promised`: the type is the declared
 * one, unchecked (`promisedType`), so the writer checks each value as `planColumn` would;
 * otherwise `planColumn` chose it and every value fits.
 */
export function columnWriter(type: LoadType, options: { promised: boolean }): ColumnWriter {
  const nulls = new NullMask();
  switch (type.kind) {
    case 'BOOLEAN':
      return fixedWidth(1, nulls, booleans);
    case 'INTEGER':
      return fixedWidth(4, nulls, int32s);
    case 'BIGINT':
      return fixedWidth(8, nulls, int64s);
    case 'HUGEINT':
      return fixedWidth(16, nulls, int128s);
    case 'DOUBLE':
      return fixedWidth(8, nulls, doubles);
    case 'DATE':
      return fixedWidth(4, nulls, dates);
    case 'TIMESTAMP':
      return fixedWidth(8, nulls, (buffer) => timestamps(buffer, parseTimestamp));
    case 'TIMESTAMPTZ':
      return fixedWidth(8, nulls, (buffer) => timestamps(buffer, parseTimestampTz));
    case 'DECIMAL':
      return decimalWriter(type, nulls);
    case 'VARCHAR':
      return textWriter(nulls, options.promised);
  }
}

/**
 * Validity of one chunk: bit `r` of 64-bit word `r / 64` is set when row `r` holds a value.
 * Built as 32-bit words so no BigInt is needed; which half of a 64-bit word comes first in
 * memory follows the machine's byte order, as DuckDB's own words do.
 */
class NullMask {
  private readonly words = new Uint32Array(2 * Math.ceil(CHUNK_ROWS / 64));
  private any = false;
  private static readonly SWAP_HALVES = endianness() === 'LE' ? 0 : 1;

  /** Starts a chunk: every row valid. */
  clear(): void {
    this.any = false;
  }

  set(row: number): void {
    if (!this.any) {
      this.words.fill(0xffffffff);
      this.any = true;
    }
    const word = ((row >>> 6) << 1) | (((row >>> 5) & 1) ^ NullMask.SWAP_HALVES);
    this.words[word]! &= ~(1 << (row & 31));
  }

  /** Copies the mask into the vector; a chunk without nulls keeps its all-valid default. */
  flush(vector: duckdb.Vector, count: number): void {
    if (!this.any) return;
    duckdb.vector_ensure_validity_writable(vector);
    duckdb.copy_data_to_vector_validity(vector, 0, this.words.buffer, 0, Math.ceil(count / 64) * 8);
  }
}

/**
 * Writes the non-null values of a slice into scratch memory and marks the nulls; false at
 * the first value the type does not take.
 */
type Fill = (slice: ColumnSlice, nulls: NullMask) => boolean;

/**
 * A column of `width`-byte values: `makeFill` gets the scratch buffer of one chunk (its typed
 * views are made once), the filled bytes are then copied into the vector in one call.
 */
function fixedWidth(width: number, nulls: NullMask, makeFill: (buffer: ArrayBuffer) => Fill): ColumnWriter {
  const buffer = new ArrayBuffer(width * CHUNK_ROWS);
  const fill = makeFill(buffer);
  return (slice) => {
    nulls.clear();
    if (!fill(slice, nulls)) return false;
    duckdb.copy_data_to_vector(slice.vector, 0, buffer, 0, width * slice.count);
    nulls.flush(slice.vector, slice.count);
    return true;
  };
}

function booleans(buffer: ArrayBuffer): Fill {
  // A C++ bool is one byte on every platform DuckDB ships for; refuse rather than guess.
  if (duckdb.sizeof_bool !== 1) {
    throw new NaoError({
      code: 'SANDBOX_UNSUPPORTED_PLATFORM',
      message: `DuckDB's BOOLEAN takes ${duckdb.sizeof_bool} bytes on this platform; nao's sandbox loader writes one-byte booleans.`,
    });
  }
  const values = new Uint8Array(buffer);
  return ({ rows, index, start, count }, nulls) => {
    for (let r = 0; r < count; r++) {
      const value = rows[start + r]![index];
      if (value === null || value === undefined) nulls.set(r);
      else if (typeof value === 'boolean') values[r] = value ? 1 : 0;
      else return false;
    }
    return true;
  };
}

function int32s(buffer: ArrayBuffer): Fill {
  const values = new Int32Array(buffer);
  return ({ rows, index, start, count }, nulls) => {
    for (let r = 0; r < count; r++) {
      const value = rows[start + r]![index];
      if (value === null || value === undefined) nulls.set(r);
      else values[r] = value as number;
    }
    return true;
  };
}

function doubles(buffer: ArrayBuffer): Fill {
  const values = new Float64Array(buffer);
  return ({ rows, index, start, count }, nulls) => {
    for (let r = 0; r < count; r++) {
      const value = rows[start + r]![index];
      if (value === null || value === undefined) {
        nulls.set(r);
        continue;
      }
      const float = typeof value === 'number' ? value : doubleValue(value);
      if (float === undefined) return false;
      values[r] = float;
    }
    return true;
  };
}

/** Distinct days remembered per DATE column; beyond that each is parsed every time. */
const DAY_CACHE_LIMIT = 100_000;

/** DATE: days since the epoch. Days repeat a lot, and a lookup costs less than a parse. */
function dates(buffer: ArrayBuffer): Fill {
  const values = new Int32Array(buffer);
  const days = new Map<string, number>();
  return ({ rows, index, start, count }, nulls) => {
    for (let r = 0; r < count; r++) {
      const value = rows[start + r]![index];
      if (value === null || value === undefined) {
        nulls.set(r);
        continue;
      }
      if (typeof value !== 'string') return false;
      let day = days.get(value);
      if (day === undefined) {
        const parsed = parseDate(value);
        if (parsed === null) return false;
        day = parsed;
        if (days.size < DAY_CACHE_LIMIT) days.set(value, day);
      }
      values[r] = day;
    }
    return true;
  };
}

/** Integer text short enough to be exact as a double ('-' and 14 digits, or 15 digits). */
const SAFE_INTEGER_TEXT = 15;

/** An integer value of a BIGINT or HUGEINT column as a number where exact, else a BigInt. */
function integerValue(value: string | number): number | bigint {
  if (typeof value === 'number') return value;
  return value.length <= SAFE_INTEGER_TEXT ? Number(value) : BigInt(value);
}

/**
 * 64-bit integers are written as two 32-bit halves, so a number needs no BigInt; the half at
 * the lower address is the low one on little-endian machines.
 */
const LOW = endianness() === 'LE' ? 0 : 1;
const HIGH = 1 - LOW;
const TWO_32 = 2 ** 32;
const TWO_63 = 2 ** 63;

/** Writes integral `value` (within int64) as element `element` of an array of int64 halves. */
function setInt64(words: Int32Array, element: number, value: number): void {
  // Exact for every integral double: the division is by a power of two.
  const high = Math.floor(value / TWO_32);
  words[2 * element + LOW] = value - high * TWO_32;
  words[2 * element + HIGH] = high;
}

function int64s(buffer: ArrayBuffer): Fill {
  const words = new Int32Array(buffer);
  const wide = new BigInt64Array(buffer);
  return ({ rows, index, start, count }, nulls) => {
    for (let r = 0; r < count; r++) {
      const value = rows[start + r]![index];
      if (value === null || value === undefined) {
        nulls.set(r);
        continue;
      }
      const integer = integerValue(value as string | number);
      if (typeof integer === 'number') setInt64(words, r, integer);
      else wide[r] = integer;
    }
    return true;
  };
}

/**
 * DuckDB's hugeint_t is `{ uint64 lower; int64 upper; }`: the low 64 bits first, each half in
 * the machine's byte order.
 */
function setInt128(words: Int32Array, halves: BigInt64Array, element: number, value: number | bigint): void {
  if (typeof value === 'number' && value >= -TWO_63 && value < TWO_63) {
    setInt64(words, 2 * element, value);
    // The upper half only repeats the sign: all ones or all zeros, whatever the byte order.
    const sign = value < 0 ? -1 : 0;
    words[4 * element + 2] = sign;
    words[4 * element + 3] = sign;
  } else {
    const big = BigInt(value);
    halves[2 * element] = BigInt.asIntN(64, big);
    halves[2 * element + 1] = big >> 64n;
  }
}

function int128s(buffer: ArrayBuffer): Fill {
  const words = new Int32Array(buffer);
  const halves = new BigInt64Array(buffer);
  return ({ rows, index, start, count }, nulls) => {
    for (let r = 0; r < count; r++) {
      const value = rows[start + r]![index];
      if (value === null || value === undefined) nulls.set(r);
      else setInt128(words, halves, r, integerValue(value as string | number));
    }
    return true;
  };
}

function timestamps(buffer: ArrayBuffer, parse: (text: string) => number | bigint | null): Fill {
  const words = new Int32Array(buffer);
  const wide = new BigInt64Array(buffer);
  return ({ rows, index, start, count }, nulls) => {
    for (let r = 0; r < count; r++) {
      const value = rows[start + r]![index];
      if (value === null || value === undefined) {
        nulls.set(r);
        continue;
      }
      const micros = typeof value === 'string' ? parse(value) : null;
      if (micros === null) return false;
      if (typeof micros === 'number') setInt64(words, r, micros);
      else wide[r] = micros;
    }
    return true;
  };
}

/**
 * DECIMAL is stored as its unscaled integer in a width DuckDB picks from the precision
 * (int16 up to 4 digits, int32 up to 9, int64 up to 18, else int128); DuckDB is asked.
 */
function decimalWriter(type: LoadType & { kind: 'DECIMAL' }, nulls: NullMask): ColumnWriter {
  const { scale } = type;
  const storage = duckdb.decimal_internal_type(duckdbType(type).toLogicalType().logical_type);
  switch (storage) {
    case duckdb.Type.SMALLINT:
    case duckdb.Type.INTEGER: {
      const Values = storage === duckdb.Type.SMALLINT ? Int16Array : Int32Array;
      return fixedWidth(Values.BYTES_PER_ELEMENT, nulls, (buffer) => {
        const values = new Values(buffer);
        return ({ rows, index, start, count }, nulls) => {
          for (let r = 0; r < count; r++) {
            const value = rows[start + r]![index];
            if (value === null || value === undefined) {
              nulls.set(r);
              continue;
            }
            // At most 9 significant digits; only leading zeros make text a BigInt.
            const scaled = scaledDecimal(value as string | number, scale);
            values[r] = typeof scaled === 'number' ? scaled : Number(scaled);
          }
          return true;
        };
      });
    }
    case duckdb.Type.BIGINT:
      return fixedWidth(8, nulls, (buffer) => {
        const words = new Int32Array(buffer);
        const wide = new BigInt64Array(buffer);
        return ({ rows, index, start, count }, nulls) => {
          for (let r = 0; r < count; r++) {
            const value = rows[start + r]![index];
            if (value === null || value === undefined) {
              nulls.set(r);
              continue;
            }
            const scaled = scaledDecimal(value as string | number, scale);
            if (typeof scaled === 'number') setInt64(words, r, scaled);
            else wide[r] = scaled;
          }
          return true;
        };
      });
    case duckdb.Type.HUGEINT:
      return fixedWidth(16, nulls, (buffer) => {
        const words = new Int32Array(buffer);
        const halves = new BigInt64Array(buffer);
        return ({ rows, index, start, count }, nulls) => {
          for (let r = 0; r < count; r++) {
            const value = rows[start + r]![index];
            if (value === null || value === undefined) nulls.set(r);
            else setInt128(words, halves, r, scaledDecimal(value as string | number, scale));
          }
          return true;
        };
      });
    default:
      throw new NaoError({
        code: 'SANDBOX_UNSUPPORTED_PLATFORM',
        message: `DuckDB stores DECIMAL(${type.width},${type.scale}) as type ${storage}, which nao's sandbox loader cannot write.`,
      });
  }
}

/**
 * VARCHAR: one native call per value copies it into the vector's string heap. Only a planned
 * column holds numbers: decimals too wide for DECIMAL, kept as their text.
 */
function textWriter(nulls: NullMask, promised: boolean): ColumnWriter {
  return ({ vector, rows, index, start, count }) => {
    nulls.clear();
    for (let r = 0; r < count; r++) {
      const value = rows[start + r]![index];
      if (value === null || value === undefined) nulls.set(r);
      else if (typeof value === 'string') duckdb.vector_assign_string_element(vector, r, value);
      else if (promised) return false;
      else duckdb.vector_assign_string_element(vector, r, String(value));
    }
    nulls.flush(vector, count);
    return true;
  };
}
