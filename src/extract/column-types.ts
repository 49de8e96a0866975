/**
 * Which DuckDB type a result column is loaded as. The warehouse reports each column's type
 * in its own spelling; the values follow the CellValue rules (exact text for big integers,
 * decimals, dates and timestamps). A column is loaded typed only when EVERY value fits the
 * type, so a lying declared type (SQLite's dynamic typing, a driver quirk) never loses data:
 * such columns fall back to inference over all their values.
 */
import {
  DECIMAL,
  DuckDBBigIntType,
  DuckDBBooleanType,
  DuckDBDateType,
  DuckDBDoubleType,
  DuckDBHugeIntType,
  DuckDBIntegerType,
  DuckDBTimestampType,
  DuckDBTimestampTZType,
  type DuckDBType,
  DuckDBVarCharType,
} from '@duckdb/node-api';
import type { CellValue } from '../warehouse/index.js';

export type LoadType =
  | { kind: 'BOOLEAN' }
  | { kind: 'INTEGER' }
  | { kind: 'BIGINT' }
  | { kind: 'HUGEINT' }
  | { kind: 'DOUBLE' }
  | { kind: 'DECIMAL'; width: number; scale: number }
  | { kind: 'DATE' }
  | { kind: 'TIMESTAMP' }
  | { kind: 'TIMESTAMPTZ' }
  | { kind: 'VARCHAR' };

/** What a declared engine type says about its values, before the values are checked. */
export type DeclaredFamily =
  | { family: 'boolean' }
  | { family: 'integer'; small: boolean }
  | { family: 'float' }
  | { family: 'decimal'; precision: number | null; scale: number | null }
  | { family: 'date' }
  | { family: 'timestamp' }
  | { family: 'timestamptz' }
  | { family: 'text' };

const FAMILY_BY_NAME: Record<string, DeclaredFamily['family']> = {};
function names(family: DeclaredFamily['family'], list: string): void {
  for (const name of list.split(',')) FAMILY_BY_NAME[name.trim()] = family;
}
names('boolean', 'boolean, bool, logical');
names(
  'integer',
  'tinyint, smallint, mediumint, int, integer, bigint, int1, int2, int4, int8, int16, int32, int64, int128, ' +
    'hugeint, uhugeint, ubigint, uinteger, usmallint, utinyint, uint8, uint16, uint32, uint64, uint128, ' +
    'serial, smallserial, bigserial, serial2, serial4, serial8, long, short, oid, year, bignum, varint',
);
names(
  'float',
  'real, float, float4, float8, float32, float64, double, double precision, binary_float, binary_double',
);
names('decimal', 'decimal, numeric, dec, number, fixed');
/** Integer types of 32 bits or fewer: loaded as INTEGER, so no BigInt per value. */
const SMALL_INTEGERS = new Set(
  'tinyint, smallint, mediumint, int, integer, int1, int2, int4, int32, serial, smallserial, serial2, serial4, short'
    .split(',')
    .map((name) => name.trim()),
);
names('date', 'date');
names(
  'timestamp',
  'timestamp, datetime, datetime2, smalldatetime, timestamp without time zone, timestamp_s, timestamp_ms, ' +
    'timestamp_us, timestamp_ns',
);
names('timestamptz', 'timestamptz, timestamp with time zone, timestamp_tz, datetimeoffset');
names(
  'text',
  'varchar, char, character, character varying, nvarchar, nchar, text, tinytext, mediumtext, longtext, string, ' +
    'bpchar, name, citext, uuid, json, jsonb, xml, enum, set, time, timetz, time with time zone, ' +
    'time without time zone, time_ns, interval, blob, bytea, binary, varbinary, tinyblob, mediumblob, longblob, ' +
    'bit, varbit, bit varying, inet, cidr, macaddr, macaddr8, money, tsvector, tsquery, struct, map, list, union, ' +
    'array, geometry, geography, point, line, polygon, user-defined, variant',
);

/**
 * Reads an engine's type name (`DECIMAL(38,10)`, `timestamp with time zone`, `int unsigned`,
 * `VARCHAR(255)`, `INTEGER[]`) into a family; `null` when the name says nothing usable.
 */
export function declaredFamily(typeName: string): DeclaredFamily | null {
  let name = typeName.trim().toLowerCase();
  if (name === '') return null;
  // Nested and array types only ever arrive as their text form.
  if (name.endsWith(']') || /^(struct|map|list|union|array)\b/.test(name)) return { family: 'text' };
  const params = /\(\s*(\d+)\s*(?:,\s*(-?\d+)\s*)?\)/.exec(name);
  name = name
    .replace(/\([^)]*\)/g, ' ')
    .replace(/\b(unsigned|signed|zerofill)\b/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (name === '') name = 'int'; // "SIGNED"/"UNSIGNED" alone (MySQL casts) are integers
  const family = FAMILY_BY_NAME[name];
  if (family === undefined) return null;
  if (family === 'integer') return { family, small: SMALL_INTEGERS.has(name) };
  if (family === 'decimal') {
    const precision = params?.[1] === undefined ? null : Number(params[1]);
    const scale = params === null ? null : params[2] === undefined ? 0 : Number(params[2]);
    return { family, precision, scale };
  }
  return { family } as DeclaredFamily;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const INT128_MIN = -(2n ** 127n);
const INT128_MAX = 2n ** 127n - 1n;
const TWO_63 = 2 ** 63;
const TWO_127 = 2 ** 127;
const DECIMAL_MAX_WIDTH = 38;

const INTEGER_TEXT = /^[+-]?\d+$/;
const DECIMAL_TEXT = /^([+-]?)(\d*)(?:\.(\d*))?$/;
/**
 * Chooses how a column is loaded: its declared type when every value fits it, otherwise the
 * narrowest type every value fits (booleans, integers, floats). `null` means the values are
 * strings of an unknown kind or a mix of kinds: DuckDB's own inference over every row decides.
 */
export function planColumn(declaredType: string, column: ColumnValues): LoadType | null {
  const declared = declaredFamily(declaredType);
  if (declared !== null) {
    const fitted = fitDeclared(declared, column);
    if (fitted !== null) return fitted;
  }
  return inferFromValues(column);
}

/** The values of one column, read in place from the row-major result. */
export interface ColumnValues {
  rows: readonly (readonly CellValue[])[];
  index: number;
}

function every(column: ColumnValues, test: (value: string | number | boolean) => boolean): boolean {
  const { rows, index } = column;
  for (let r = 0; r < rows.length; r++) {
    const value = rows[r]![index];
    if (value === null || value === undefined) continue;
    if (!test(value)) return false;
  }
  return true;
}

/** Load types whose declared promise is checked value by value. */
type PromisedKind = 'BOOLEAN' | 'DOUBLE' | 'DATE' | 'TIMESTAMP' | 'TIMESTAMPTZ' | 'VARCHAR';

/**
 * The type a declared family promises when the promise can be checked one value at a time
 * (booleans, floats, dates, timestamps, text); integers and decimals need every value to
 * pick their width.
 */
function promisedBy(declared: DeclaredFamily): { kind: PromisedKind } | null {
  switch (declared.family) {
    case 'boolean':
      return { kind: 'BOOLEAN' };
    case 'float':
      return { kind: 'DOUBLE' };
    case 'date':
      return { kind: 'DATE' };
    case 'timestamp':
      return { kind: 'TIMESTAMP' };
    case 'timestamptz':
      return { kind: 'TIMESTAMPTZ' };
    case 'text':
      return { kind: 'VARCHAR' };
    case 'integer':
    case 'decimal':
      return null;
  }
}

/**
 * What `planColumn` returns for a column of this declared type when every value keeps the
 * type's promise, for the types whose promise is checked value by value. The loader then
 * skips the planning pass: its column writers check each value as they write it (the same
 * rules as `takesValue`) and the column is planned only when one breaks the promise.
 */
export function promisedType(declaredType: string): LoadType | null {
  const declared = declaredFamily(declaredType);
  return declared === null ? null : promisedBy(declared);
}

/**
 * Every non-null value passes. One loop with a switch rather than `every` with a closure:
 * the hot checks run once per cell, and a closure call costs as much as the scan.
 */
function everyValue(column: ColumnValues, kind: PromisedKind): boolean {
  const { rows, index } = column;
  for (let r = 0; r < rows.length; r++) {
    const value = rows[r]![index];
    if (value !== null && value !== undefined && !takesValue(kind, value)) return false;
  }
  return true;
}

/** Whether a non-null value keeps the promise of its column's declared type. */
function takesValue(kind: PromisedKind, value: string | number | boolean): boolean {
  switch (kind) {
    case 'BOOLEAN':
      return typeof value === 'boolean';
    case 'DOUBLE':
      return doubleValue(value) !== undefined;
    case 'VARCHAR':
      return typeof value === 'string';
    case 'DATE':
      return typeof value === 'string' && parseDate(value) !== null;
    case 'TIMESTAMP':
      return typeof value === 'string' && parseTimestamp(value) !== null;
    case 'TIMESTAMPTZ':
      return typeof value === 'string' && parseTimestampTz(value) !== null;
  }
}

function fitDeclared(declared: DeclaredFamily, column: ColumnValues): LoadType | null {
  const promised = promisedBy(declared);
  if (promised !== null) return everyValue(column, promised.kind) ? promised : null;
  if (declared.family === 'decimal') return fitDecimal(declared, column);
  const fitted = fitIntegers(column);
  if (fitted === null) return null;
  if (fitted.huge) return { kind: 'HUGEINT' };
  return declared.family === 'integer' && declared.small && fitted.int32
    ? { kind: 'INTEGER' }
    : { kind: 'BIGINT' };
}

function inferFromValues(column: ColumnValues): LoadType | null {
  let sawBoolean = false;
  let sawNumber = false;
  let sawString = false;
  let allIntegers = true;
  let sawNonFinite = false;
  const { rows, index } = column;
  for (let r = 0; r < rows.length; r++) {
    const value = rows[r]![index];
    if (value === null || value === undefined) continue;
    if (typeof value === 'boolean') sawBoolean = true;
    else if (typeof value === 'number') {
      sawNumber = true;
      if (!Number.isInteger(value)) allIntegers = false;
    } else if (isNonFiniteText(value)) sawNonFinite = true;
    else sawString = true;
  }
  if (sawNonFinite) {
    // 'NaN' and '±Infinity' are how floats that JSON cannot hold arrive.
    return sawBoolean || sawString ? null : { kind: 'DOUBLE' };
  }
  if (!sawBoolean && !sawNumber && !sawString) return { kind: 'VARCHAR' };
  if (sawBoolean) return sawNumber || sawString ? null : { kind: 'BOOLEAN' };
  // Integers past 2^53 arrive as text next to plain numbers: still one integer column.
  if (sawNumber && allIntegers) return integerType(fitIntegers(column));
  if (sawNumber && !sawString) return { kind: 'DOUBLE' };
  return null;
}

function integerType(fitted: IntegerFit | null): LoadType | null {
  if (fitted === null) return null;
  return fitted.huge ? { kind: 'HUGEINT' } : { kind: 'BIGINT' };
}

interface IntegerFit {
  /** Some value lies outside int64. */
  huge: boolean;
  /** Every value is a number within int32. */
  int32: boolean;
}

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;
/** Integer text this short (sign included) lies within int64: |n| < 10^18 < 2^63. */
const INT64_TEXT_LENGTH = 18;

/** Whether every value is an integer (a number or integer text) within int128, in one pass. */
function fitIntegers(column: ColumnValues): IntegerFit | null {
  let huge = false;
  let int32 = true;
  const { rows, index } = column;
  for (let r = 0; r < rows.length; r++) {
    const value = rows[r]![index];
    if (value === null || value === undefined) continue;
    if (typeof value === 'number') {
      if (value >= INT32_MIN && value <= INT32_MAX && Number.isInteger(value)) continue;
      if (!Number.isInteger(value)) return null;
      int32 = false;
      // An integral float past 2^63 (1e20) is exact only in a HUGEINT.
      if (value < -TWO_127 || value >= TWO_127) return null;
      if (value < -TWO_63 || value >= TWO_63) huge = true;
      continue;
    }
    if (typeof value !== 'string' || !INTEGER_TEXT.test(value)) return null;
    int32 = false;
    if (value.length <= INT64_TEXT_LENGTH) continue;
    const big = BigInt(value);
    if (big < INT128_MIN || big > INT128_MAX) return null;
    if (big < INT64_MIN || big > INT64_MAX) huge = true;
  }
  return { huge, int32 };
}

function fitDecimal(
  declared: { precision: number | null; scale: number | null },
  column: ColumnValues,
): LoadType | null {
  let maxScale = 0;
  let maxIntegerDigits = 0;
  const fits = every(column, (value) => {
    if (typeof value === 'number') {
      // A fractional JS number was a float in the engine, not an exact decimal.
      if (!Number.isSafeInteger(value)) return false;
      maxIntegerDigits = Math.max(maxIntegerDigits, String(Math.abs(value)).length);
      return true;
    }
    if (typeof value !== 'string') return false;
    const parts = DECIMAL_TEXT.exec(value);
    if (parts === null || (parts[2] === '' && (parts[3] ?? '') === '')) return false;
    const integerDigits = (parts[2] ?? '').replace(/^0+/, '').length;
    const scale = (parts[3] ?? '').length;
    maxIntegerDigits = Math.max(maxIntegerDigits, integerDigits);
    maxScale = Math.max(maxScale, scale);
    return true;
  });
  if (!fits) return null;
  const { precision, scale } = declared;
  if (
    precision !== null &&
    scale !== null &&
    precision <= DECIMAL_MAX_WIDTH &&
    scale >= 0 &&
    scale <= precision &&
    maxScale <= scale &&
    maxIntegerDigits <= precision - scale
  ) {
    return { kind: 'DECIMAL', width: Math.max(precision, 1), scale };
  }
  if (maxIntegerDigits + maxScale <= DECIMAL_MAX_WIDTH) {
    return { kind: 'DECIMAL', width: DECIMAL_MAX_WIDTH, scale: maxScale };
  }
  // Wider than any DuckDB DECIMAL: exact text beats a rounded DOUBLE.
  return { kind: 'VARCHAR' };
}

const NON_FINITE: Record<string, number> = { NaN: Number.NaN, Infinity: Infinity, '-Infinity': -Infinity };

function isNonFiniteText(value: string | number | boolean): value is string {
  return typeof value === 'string' && Object.hasOwn(NON_FINITE, value);
}

/**
 * The float a DOUBLE column's value stands for: the number, or NaN and ±Infinity for their
 * text (how floats JSON cannot hold arrive); undefined for anything else.
 */
export function doubleValue(value: string | number | boolean): number | undefined {
  if (typeof value === 'number') return value;
  return isNonFiniteText(value) ? NON_FINITE[value] : undefined;
}

/** The SQL spelling of a load type, for CREATE TABLE. */
export function sqlType(type: LoadType): string {
  return type.kind === 'DECIMAL' ? `DECIMAL(${type.width},${type.scale})` : type.kind;
}

/** The node-api type of a load type, for data chunks. */
export function duckdbType(type: LoadType): DuckDBType {
  switch (type.kind) {
    case 'BOOLEAN':
      return DuckDBBooleanType.instance;
    case 'INTEGER':
      return DuckDBIntegerType.instance;
    case 'BIGINT':
      return DuckDBBigIntType.instance;
    case 'HUGEINT':
      return DuckDBHugeIntType.instance;
    case 'DOUBLE':
      return DuckDBDoubleType.instance;
    case 'DECIMAL':
      return DECIMAL(type.width, type.scale);
    case 'DATE':
      return DuckDBDateType.instance;
    case 'TIMESTAMP':
      return DuckDBTimestampType.instance;
    case 'TIMESTAMPTZ':
      return DuckDBTimestampTZType.instance;
    case 'VARCHAR':
      return DuckDBVarCharType.instance;
  }
}

/**
 * `"-12.5"` at scale 3 → -12500: a number when it is exact as one (up to 15 digits), else a
 * BigInt. The text was checked by `fitDecimal`; a number value is a safe integer.
 */
export function scaledDecimal(value: number | string, scale: number): number | bigint {
  if (typeof value === 'number') {
    const scaled = value * 10 ** scale;
    return Number.isSafeInteger(scaled) ? scaled : BigInt(value) * 10n ** BigInt(scale);
  }
  const parts = DECIMAL_TEXT.exec(value)!;
  const digits = `${parts[2] || '0'}${(parts[3] ?? '').padEnd(scale, '0')}`;
  const negative = parts[1] === '-';
  if (digits.length <= SAFE_DIGITS) {
    const magnitude = Number(digits);
    // -0 would be the same stored integer, but keep the result a plain 0.
    return negative && magnitude !== 0 ? -magnitude : magnitude;
  }
  const magnitude = BigInt(digits);
  return negative ? -magnitude : magnitude;
}

/** Decimal digits that always fit a double exactly (10^15 < 2^53). */
const SAFE_DIGITS = 15;

/** 'YYYY-MM-DD' → days since 1970-01-01, or null when it is not a real calendar date. */
export function parseDate(text: string): number | null {
  if (text.length !== 10) return null;
  return parseDatePart(text);
}

/**
 * ISO timestamp without a zone (`T` or space, up to 6 fraction digits) → microseconds since
 * the epoch: a number within ±285 years of 1970 (where it is exact), else a BigInt.
 */
export function parseTimestamp(text: string): number | bigint | null {
  const parsed = parseDateTime(text);
  return parsed !== null && parsed.end === text.length ? parsed.micros : null;
}

/**
 * ISO timestamp with `Z` or an offset (`+02`, `+0200`, `+02:00`, `+00:53:28`) → UTC
 * microseconds since the epoch, a number where exact as for `parseTimestamp`.
 */
export function parseTimestampTz(text: string): number | bigint | null {
  const parsed = parseDateTime(text);
  if (parsed === null) return null;
  const rest = text.slice(parsed.end);
  if (rest === 'Z' || rest === 'z') return parsed.micros;
  const sign = rest.charCodeAt(0);
  if (sign !== PLUS && sign !== MINUS) return null;
  let hours: number;
  let minutes = 0;
  let seconds = 0;
  if (rest.length === 3) hours = digitsAt(rest, 1, 2);
  else if (rest.length === 5) {
    hours = digitsAt(rest, 1, 2);
    minutes = digitsAt(rest, 3, 2);
  } else if ((rest.length === 6 || rest.length === 9) && rest.charCodeAt(3) === COLON) {
    hours = digitsAt(rest, 1, 2);
    minutes = digitsAt(rest, 4, 2);
    // Historical local-mean-time offsets carry seconds (+00:53:28).
    if (rest.length === 9) seconds = rest.charCodeAt(6) === COLON ? digitsAt(rest, 7, 2) : -1;
  } else return null;
  if (hours < 0 || minutes < 0 || seconds < 0 || hours > 15 || minutes > 59 || seconds > 59) return null;
  const offset = ((hours * 60 + minutes) * 60 + seconds) * 1_000_000;
  const { micros } = parsed;
  if (typeof micros === 'number') {
    const utc = sign === MINUS ? micros + offset : micros - offset;
    if (Number.isSafeInteger(utc)) return utc;
  }
  return sign === MINUS ? BigInt(micros) + BigInt(offset) : BigInt(micros) - BigInt(offset);
}

const MINUS = 45; // '-'
const PLUS = 43; // '+'
const COLON = 58; // ':'
const DOT = 46; // '.'
const SPACE = 32;
const LETTER_T = 84;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Parses `YYYY-MM-DD` at the start of `text` (character-wise: these run once per cell). */
function parseDatePart(text: string): number | null {
  if (text.charCodeAt(4) !== MINUS || text.charCodeAt(7) !== MINUS) return null;
  const year = digitsAt(text, 0, 4);
  const month = digitsAt(text, 5, 2);
  const day = digitsAt(text, 8, 2);
  if (year < 1 || month < 1 || month > 12 || day < 1) return null;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  if (day > DAYS_IN_MONTH[month - 1]! + (month === 2 && leap ? 1 : 0)) return null;
  return daysFromCivil(year, month, day);
}

function parseDateTime(text: string): { micros: number | bigint; end: number } | null {
  if (text.length < 19) return null;
  const days = parseDatePart(text);
  const separator = text.charCodeAt(10);
  if (days === null || (separator !== LETTER_T && separator !== SPACE)) return null;
  if (text.charCodeAt(13) !== COLON || text.charCodeAt(16) !== COLON) return null;
  const hours = digitsAt(text, 11, 2);
  const minutes = digitsAt(text, 14, 2);
  const seconds = digitsAt(text, 17, 2);
  if (hours < 0 || minutes < 0 || seconds < 0 || hours > 23 || minutes > 59 || seconds > 59) return null;
  let end = 19;
  let fraction = 0;
  if (text.charCodeAt(19) === DOT) {
    let digits = 0;
    end = 20;
    while (end < text.length) {
      const digit = text.charCodeAt(end) - 48;
      if (digit < 0 || digit > 9) break;
      fraction = fraction * 10 + digit;
      digits++;
      end++;
    }
    if (digits === 0 || digits > 6) return null;
    fraction *= 10 ** (6 - digits);
  }
  const micros = (days * 86_400 + hours * 3600 + minutes * 60 + seconds) * 1_000_000 + fraction;
  // Exact as a number within ±285 years of 1970; BigInt arithmetic beyond that.
  const exact = Number.isSafeInteger(micros)
    ? micros
    : BigInt(days) * 86_400_000_000n + BigInt((hours * 3600 + minutes * 60 + seconds) * 1_000_000 + fraction);
  return { micros: exact, end };
}

/** The non-negative integer written with `count` digits at `start`, or -1. */
function digitsAt(text: string, start: number, count: number): number {
  let value = 0;
  for (let i = start; i < start + count; i++) {
    const digit = text.charCodeAt(i) - 48;
    if (!(digit >= 0 && digit <= 9)) return -1;
    value = value * 10 + digit;
  }
  return value;
}

/** [year, month, day] → days since 1970-01-01 (H. Hinnant's days_from_civil). */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const mp = month > 2 ? month - 3 : month + 9;
  const doy = Math.floor((153 * mp + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}
