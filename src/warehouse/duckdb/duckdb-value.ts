/**
 * DuckDB values → `CellValue` (rules in database.ts). Shared with the DuckDB sandbox of
 * `verify/`, so rows extracted there read exactly like rows read from the warehouse.
 */
import {
  DuckDBArrayValue,
  DuckDBBlobValue,
  DuckDBDateValue,
  DuckDBDecimalValue,
  DuckDBGeometryValue,
  DuckDBListValue,
  DuckDBMapValue,
  DuckDBStructValue,
  DuckDBTimestampMillisecondsValue,
  DuckDBTimestampNanosecondsValue,
  DuckDBTimestampSecondsValue,
  DuckDBTimestampTZValue,
  DuckDBTimestampValue,
  type DuckDBType,
  DuckDBTypeId,
  DuckDBUnionValue,
  type DuckDBValue,
  DuckDBVariantValue,
} from '@duckdb/node-api';
import { bytesCell, float32Cell, floatCell, integerCell, type JsonValue } from '../cell-value.js';
import type { CellValue } from '../database.js';

export type DuckDbCellConverter = (value: DuckDBValue) => CellValue;

/**
 * The converter of one column, picked once from its type so reading a column is a tight
 * loop. It never throws: a value it cannot place falls back to DuckDB's own text.
 */
export function duckDbCellConverter(type: DuckDBType): DuckDbCellConverter {
  switch (type.typeId) {
    case DuckDBTypeId.BOOLEAN:
    case DuckDBTypeId.TINYINT:
    case DuckDBTypeId.SMALLINT:
    case DuckDBTypeId.INTEGER:
    case DuckDBTypeId.UTINYINT:
    case DuckDBTypeId.USMALLINT:
    case DuckDBTypeId.UINTEGER:
    case DuckDBTypeId.VARCHAR:
      return (value) =>
        typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean' || value === null
          ? value
          : safeCell(value, type);
    case DuckDBTypeId.DOUBLE:
      return (value) => (typeof value === 'number' ? floatCell(value) : safeCell(value, type));
    case DuckDBTypeId.FLOAT:
      return (value) => (typeof value === 'number' ? float32Cell(value) : safeCell(value, type));
    case DuckDBTypeId.BIGINT:
    case DuckDBTypeId.UBIGINT:
    case DuckDBTypeId.HUGEINT:
    case DuckDBTypeId.UHUGEINT:
    case DuckDBTypeId.BIGNUM:
      return (value) => (typeof value === 'bigint' ? integerCell(value) : safeCell(value, type));
    default:
      return (value) => safeCell(value, type);
  }
}

function safeCell(value: DuckDBValue, type: DuckDBType | undefined): CellValue {
  try {
    return scalarCell(value, type);
  } catch {
    // A value class this code does not know yet (a newer DuckDB): its text beats a crash.
    return String(value);
  }
}

function scalarCell(value: DuckDBValue, type: DuckDBType | undefined): CellValue {
  switch (typeof value) {
    case 'boolean':
    case 'string':
      return value;
    case 'number':
      return type?.typeId === DuckDBTypeId.FLOAT ? float32Cell(value) : floatCell(value);
    case 'bigint':
      return integerCell(value);
  }
  if (value === null) return null;
  if (value instanceof DuckDBDecimalValue) return decimalText(value.value, value.scale);
  if (value instanceof DuckDBDateValue) return dateCell(value.days);
  if (value instanceof DuckDBTimestampValue) return timestampCell(value.micros, TIMESTAMP_UNITS.TIMESTAMP);
  if (value instanceof DuckDBTimestampTZValue) {
    return timestampCell(value.micros, TIMESTAMP_UNITS.TIMESTAMP_TZ);
  }
  if (value instanceof DuckDBTimestampSecondsValue) {
    return timestampCell(value.seconds, TIMESTAMP_UNITS.TIMESTAMP_S);
  }
  if (value instanceof DuckDBTimestampMillisecondsValue) {
    return timestampCell(value.millis, TIMESTAMP_UNITS.TIMESTAMP_MS);
  }
  if (value instanceof DuckDBTimestampNanosecondsValue) {
    return timestampCell(value.nanos, TIMESTAMP_UNITS.TIMESTAMP_NS);
  }
  if (value instanceof DuckDBBlobValue || value instanceof DuckDBGeometryValue) return bytesCell(value.bytes);
  if (value instanceof DuckDBUnionValue) return safeCell(value.value, unionMemberType(type, value.tag));
  if (value instanceof DuckDBVariantValue) return safeCell(value.value, value.type);
  if (
    value instanceof DuckDBListValue ||
    value instanceof DuckDBArrayValue ||
    value instanceof DuckDBStructValue ||
    value instanceof DuckDBMapValue
  ) {
    return JSON.stringify(jsonOf(value, type));
  }
  // TIME, TIME WITH TIME ZONE, TIME_NS, INTERVAL, UUID, BIT: DuckDB's text is the sensible form.
  return String(value);
}

/** A nested value as JSON, its leaves converted with the cell rules (big integers as text). */
function jsonOf(value: DuckDBValue, type: DuckDBType | undefined): JsonValue {
  if (value instanceof DuckDBListValue || value instanceof DuckDBArrayValue) {
    const itemType =
      type?.typeId === DuckDBTypeId.LIST || type?.typeId === DuckDBTypeId.ARRAY ? type.valueType : undefined;
    return value.items.map((item) => jsonOf(item, itemType));
  }
  if (value instanceof DuckDBStructValue) {
    // A null prototype keeps a field named "__proto__" an ordinary key.
    const object: Record<string, JsonValue> = Object.create(null);
    for (const [key, item] of Object.entries(value.entries)) {
      object[key] = jsonOf(item, structEntryType(type, key));
    }
    return object;
  }
  if (value instanceof DuckDBMapValue) {
    const keyType = type?.typeId === DuckDBTypeId.MAP ? type.keyType : undefined;
    const valueType = type?.typeId === DuckDBTypeId.MAP ? type.valueType : undefined;
    const entries = value.entries.map((entry) => ({
      key: jsonOf(entry.key, keyType),
      value: jsonOf(entry.value, valueType),
    }));
    const object: Record<string, JsonValue> = Object.create(null);
    for (const entry of entries) {
      const key = entry.key;
      // Keys that are not text or numbers, or that collide once written as text, keep the entry list.
      if ((typeof key !== 'string' && typeof key !== 'number') || String(key) in object) return entries;
      object[String(key)] = entry.value;
    }
    return object;
  }
  if (value instanceof DuckDBUnionValue) return jsonOf(value.value, unionMemberType(type, value.tag));
  if (value instanceof DuckDBVariantValue) return jsonOf(value.value, value.type);
  return safeCell(value, type);
}

function structEntryType(type: DuckDBType | undefined, key: string): DuckDBType | undefined {
  if (type?.typeId !== DuckDBTypeId.STRUCT) return undefined;
  const index = type.entryIndexes[key];
  return index === undefined ? undefined : type.entryTypes[index];
}

function unionMemberType(type: DuckDBType | undefined, tag: string): DuckDBType | undefined {
  if (type?.typeId !== DuckDBTypeId.UNION) return undefined;
  const index = type.tagMemberIndexes[tag];
  return index === undefined ? undefined : type.memberTypes[index];
}

// DuckDB stores ±infinity dates and timestamps as the extreme values of their integer.
const DATE_INFINITY = 2147483647;
const TIMESTAMP_INFINITY = 9223372036854775807n;

/** A DATE held as days since 1970-01-01: 'YYYY-MM-DD', '±infinity', DuckDB's text outside years 1–9999. */
export function dateCell(days: number): string {
  if (days === DATE_INFINITY) return 'infinity';
  if (days === -DATE_INFINITY) return '-infinity';
  return dateText(days) ?? new DuckDBDateValue(days).toString();
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * Exact decimal text of `scaled / 10^scale` with all `scale` digits ('12.50'): one integer
 * to-string and a splice, where DuckDB's own toString divides BigInts. A number `scaled`
 * must be an integer of magnitude at most 2^53 (exact as a double).
 */
export function decimalText(scaled: bigint | number, scale: number): string {
  const negative = scaled < 0;
  let digits: string;
  if (typeof scaled === 'number') {
    digits = String(negative ? -scaled : scaled);
  } else {
    const magnitude = negative ? -scaled : scaled;
    digits = magnitude <= MAX_SAFE ? String(Number(magnitude)) : magnitude.toString();
  }
  if (scale > 0) {
    if (digits.length <= scale) digits = digits.padStart(scale + 1, '0');
    digits = `${digits.slice(0, digits.length - scale)}.${digits.slice(digits.length - scale)}`;
  }
  return negative ? `-${digits}` : digits;
}

/** How a timestamp type counts its ticks, and DuckDB's own text for years ISO cannot spell. */
export interface TimestampUnit {
  /** Fraction digits of one tick: 0 (seconds), 3, 6 or 9 (nanoseconds). */
  digits: 0 | 3 | 6 | 9;
  /** Time-zone type: its cells end in 'Z'. */
  zone: boolean;
  ticksPerSecond: number;
  engineText(ticks: bigint): string;
}

/** The timestamp types by DuckDB type name. */
export const TIMESTAMP_UNITS = {
  TIMESTAMP_S: {
    digits: 0,
    zone: false,
    ticksPerSecond: 1,
    engineText: (ticks) => new DuckDBTimestampSecondsValue(ticks).toString(),
  },
  TIMESTAMP_MS: {
    digits: 3,
    zone: false,
    ticksPerSecond: 1e3,
    engineText: (ticks) => new DuckDBTimestampMillisecondsValue(ticks).toString(),
  },
  TIMESTAMP: {
    digits: 6,
    zone: false,
    ticksPerSecond: 1e6,
    engineText: (ticks) => new DuckDBTimestampValue(ticks).toString(),
  },
  // DuckDB prints a TIMESTAMPTZ in the Node process's local offset; nao's cells are in UTC.
  TIMESTAMP_TZ: {
    digits: 6,
    zone: true,
    ticksPerSecond: 1e6,
    engineText: (ticks) => `${new DuckDBTimestampValue(ticks).toString()}+00`,
  },
  TIMESTAMP_NS: {
    digits: 9,
    zone: false,
    ticksPerSecond: 1e9,
    engineText: (ticks) => new DuckDBTimestampNanosecondsValue(ticks).toString(),
  },
} as const satisfies Record<string, TimestampUnit>;

/**
 * ISO text of a timestamp held as ticks since the epoch; the fraction has the type's full
 * precision when it is not zero. Years outside 1–9999 keep DuckDB's spelling ('… (BC)').
 * A number `ticks` must be a safe integer.
 */
export function timestampCell(ticks: bigint | number, unit: TimestampUnit): string {
  const { digits, zone } = unit;
  let days: number;
  let secondOfDay: number;
  let fraction: bigint | number;
  if (typeof ticks === 'bigint' && (ticks < -MAX_SAFE || ticks > MAX_SAFE)) {
    if (ticks === TIMESTAMP_INFINITY) return 'infinity';
    if (ticks === -TIMESTAMP_INFINITY) return '-infinity';
    const perSecond = 10n ** BigInt(digits);
    let seconds = ticks / perSecond;
    fraction = ticks % perSecond;
    if (fraction < 0n) {
      fraction += perSecond;
      seconds -= 1n;
    }
    let day = seconds / 86_400n;
    let rest = seconds % 86_400n;
    if (rest < 0n) {
      rest += 86_400n;
      day -= 1n;
    }
    days = Number(day);
    secondOfDay = Number(rest);
  } else {
    // Plain doubles are exact here (|ticks| < 2^53) and far cheaper than BigInt arithmetic.
    const perSecond = unit.ticksPerSecond;
    const whole = Number(ticks);
    const seconds = Math.floor(whole / perSecond);
    fraction = whole - seconds * perSecond;
    days = Math.floor(seconds / 86_400);
    secondOfDay = seconds - days * 86_400;
  }
  const date = dateText(days);
  if (date === undefined) return unit.engineText(BigInt(ticks));
  const time = `${pad(Math.floor(secondOfDay / 3600), 2)}:${pad(Math.floor(secondOfDay / 60) % 60, 2)}:${pad(secondOfDay % 60, 2)}`;
  const fractionPart = fraction === 0 || fraction === 0n ? '' : `.${String(fraction).padStart(digits, '0')}`;
  return `${date}T${time}${fractionPart}${zone ? 'Z' : ''}`;
}

let lastDays = Number.NaN;
let lastDate: string | undefined;

/** 'YYYY-MM-DD' of a day number, undefined outside years 1–9999; rows of one day share one string. */
function dateText(days: number): string | undefined {
  if (days !== lastDays) {
    const [year, month, day] = civilFromDays(days);
    lastDays = days;
    lastDate = year < 1 || year > 9999 ? undefined : `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
  }
  return lastDate;
}

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}

/** Days since 1970-01-01 → [year, month, day] in the proleptic Gregorian calendar (H. Hinnant). */
function civilFromDays(days: number): [number, number, number] {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const dayOfEra = z - era * 146097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36524) - Math.floor(dayOfEra / 146096)) /
      365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthIndex = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthIndex + 2) / 5) + 1;
  const month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9;
  return [yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day];
}
