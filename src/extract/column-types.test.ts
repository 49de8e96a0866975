import { describe, expect, it } from 'vitest';
import type { CellValue } from '../warehouse/index.js';
import {
  declaredFamily,
  parseDate,
  parseTimestamp,
  parseTimestampTz,
  planColumn,
  scaledDecimal,
  sqlType,
} from './column-types.js';

const column = (...values: CellValue[]) => ({ rows: values.map((value) => [value]), index: 0 });

describe('declaredFamily', () => {
  it.each([
    ['BIGINT', 'integer'],
    ['int unsigned', 'integer'],
    ['int4', 'integer'],
    ['UBIGINT', 'integer'],
    ['double precision', 'float'],
    ['REAL', 'float'],
    ['DECIMAL(38,10)', 'decimal'],
    ['numeric', 'decimal'],
    ['date', 'date'],
    ['TIMESTAMP', 'timestamp'],
    ['timestamp without time zone', 'timestamp'],
    ['timestamp(3) with time zone', 'timestamptz'],
    ['TIMESTAMP WITH TIME ZONE', 'timestamptz'],
    ['datetime', 'timestamp'],
    ['character varying(255)', 'text'],
    ['VARCHAR', 'text'],
    ['uuid', 'text'],
    ['INTEGER[]', 'text'],
    ['STRUCT(a INTEGER)', 'text'],
    ['boolean', 'boolean'],
  ])('%s → %s', (name, family) => {
    expect(declaredFamily(name)?.family).toBe(family);
  });

  it.each(['', '   ', 'mystery_type'])('%j says nothing', (name) => {
    expect(declaredFamily(name)).toBeNull();
  });

  it('reads precision and scale', () => {
    expect(declaredFamily('NUMERIC(12, 3)')).toEqual({ family: 'decimal', precision: 12, scale: 3 });
    expect(declaredFamily('DECIMAL(9)')).toEqual({ family: 'decimal', precision: 9, scale: 0 });
    expect(declaredFamily('numeric')).toEqual({ family: 'decimal', precision: null, scale: null });
  });
});

describe('planColumn', () => {
  it.each([
    ['declared BIGINT', 'BIGINT', column(1, null, '9223372036854775807'), 'BIGINT'],
    ['declared BIGINT with small values stays BIGINT', 'int8', column(1, 2), 'BIGINT'],
    ['declared INTEGER', 'INTEGER', column(1, null, -2147483648), 'INTEGER'],
    ['declared INTEGER past 32 bits (unsigned)', 'int unsigned', column(4294967295), 'BIGINT'],
    ['integers past int64', 'BIGINT', column('9223372036854775808', 1), 'HUGEINT'],
    ['an integral float past int64', 'BIGINT', column(1, 1e20), 'HUGEINT'],
    ['an integral float at -2^63', '', column(1, -(2 ** 63)), 'BIGINT'],
    ['an integral float at 2^63', '', column(1, 2 ** 63), 'HUGEINT'],
    [
      'declared DECIMAL within its precision',
      'DECIMAL(38,10)',
      column('1.0000000001', null),
      'DECIMAL(38,10)',
    ],
    ['NUMERIC without precision', 'numeric', column('1.5', '-22.125', 7), 'DECIMAL(38,3)'],
    ['DECIMAL values wider than declared', 'DECIMAL(4,2)', column('12345.6'), 'DECIMAL(38,1)'],
    [
      'decimals wider than 38 digits stay exact text',
      'numeric',
      column(`${'9'.repeat(30)}.${'1'.repeat(10)}`),
      'VARCHAR',
    ],
    ['declared DATE', 'date', column('2024-02-29', null), 'DATE'],
    [
      'declared TIMESTAMP',
      'timestamp',
      column('2024-01-01T10:00:00.123456', '2024-01-01 10:00:00'),
      'TIMESTAMP',
    ],
    [
      'declared TIMESTAMPTZ',
      'timestamptz',
      column('2024-01-01T10:00:00Z', '2024-01-01T10:00:00+02:00'),
      'TIMESTAMPTZ',
    ],
    ['declared DOUBLE', 'DOUBLE', column(1.5, 2, Number.NaN), 'DOUBLE'],
    [
      'declared DOUBLE with NaN and infinities as text',
      'float8',
      column(1.5, 'NaN', 'Infinity', '-Infinity'),
      'DOUBLE',
    ],
    ['unknown type, floats and NaN as text', '', column(1.5, 'NaN'), 'DOUBLE'],
    ['declared text', 'TEXT', column('a', null), 'VARCHAR'],
    ['all nulls of an unknown type', '', column(null, null), 'VARCHAR'],
    ['empty column of a known type', 'DATE', column(), 'DATE'],
    ['unknown type, booleans', '', column(true, false, null), 'BOOLEAN'],
    ['unknown type, integers', '', column(1, 2, null), 'BIGINT'],
    ['unknown type, floats', '', column(1, 2.5), 'DOUBLE'],
    ['unknown type, integers and a big integer', '', column(1, '12345678901234567890'), 'HUGEINT'],
    ['declared INTEGER holding a float (SQLite)', 'INTEGER', column(1, 1.5), 'DOUBLE'],
    [
      'declared INTEGER holding a big integer as text (SQLite)',
      'INTEGER',
      column(1, '9223372036854775807'),
      'BIGINT',
    ],
    ['declared DECIMAL holding floats', 'DECIMAL(10,2)', column(0.1, 0.2), 'DOUBLE'],
  ])('%s', (_label, declared, values, expected) => {
    const plan = planColumn(declared, values);
    expect(plan === null ? null : sqlType(plan)).toBe(expected);
  });

  it.each([
    ['text of unknown type (DuckDB infers it)', '', column('2024-01-01', 'x')],
    ['declared INTEGER holding text (SQLite)', 'INTEGER', column(1, 'abc')],
    ['numbers mixed with words', '', column(1, 'abc', 2.5)],
    ['booleans mixed with numbers', '', column(true, 1)],
    ['declared DATE holding a non-date', 'date', column('2024-02-30')],
    ['declared TIMESTAMPTZ without zone', 'timestamptz', column('2024-01-01T10:00:00')],
    ['integral floats past int128', 'BIGINT', column(1, 1e40)],
  ])('%s falls back to inference', (_label, declared, values) => {
    expect(planColumn(declared, values)).toBeNull();
  });

  it('considers every row, not a sample', () => {
    const rows: CellValue[][] = Array.from({ length: 50_000 }, () => [null]);
    rows.push(['not a number']);
    expect(planColumn('BIGINT', { rows, index: 0 })).toBeNull();
  });
});

describe('value parsing', () => {
  it.each([
    ['2024-02-29', 19782],
    ['1970-01-01', 0],
    ['2023-02-29', null],
    ['2024-13-01', null],
    ['2024-1-01', null],
    ['0000-01-01', null],
    ['2024-01-01T00:00:00', null],
  ])('date %s', (text, days) => {
    expect(parseDate(text)).toBe(days);
  });

  it.each([
    ['1970-01-01T00:00:00', 0],
    ['1970-01-01 00:00:00.000001', 1],
    ['1970-01-01T00:00:01.5', 1_500_000],
    ['1969-12-31T23:59:59.999999', -1],
    // Past ±285 years of 1970 the micros are no longer exact as a number.
    ['2255-06-05T23:47:34.740991', 9007199254740991],
    ['2255-06-05T23:47:34.740992', 9007199254740992n],
    ['9999-12-31T23:59:59.999999', 253402300799999999n],
    ['1970-01-01T24:00:00', null],
    ['1970-01-01T00:00:00.1234567', null],
    ['1970-01-01T00:00:00Z', null],
  ])('timestamp %s', (text, micros) => {
    expect(parseTimestamp(text)).toBe(micros);
  });

  it.each([
    ['1970-01-01T00:00:00Z', 0],
    ['1970-01-01T02:00:00+02:00', 0],
    ['1970-01-01T02:00:00+0200', 0],
    ['1970-01-01T02:00:00+02', 0],
    ['1969-12-31T19:00:00.25-05:00', 250_000],
    ['1970-01-01T00:53:28+00:53:28', 0],
    // The offset takes a number past 2^53: the UTC instant is computed with BigInts.
    ['2255-06-05T23:47:34.740991-01:00', 9007202854740991n],
    ['9999-12-31T23:59:59.999999+15:00', 253402246799999999n],
    ['1970-01-01T00:00:00', null],
    ['1970-01-01T00:00:00+25:00', null],
    ['1970-01-01T00:00:00+01:00:6', null],
  ])('timestamptz %s', (text, micros) => {
    expect(parseTimestampTz(text)).toBe(micros);
  });

  it.each([
    ['12.5', 3, 12500],
    ['-0.05', 2, -5],
    ['-0.00', 2, 0],
    ['.5', 1, 5],
    ['7', 2, 700],
    [42, 1, 420],
    ['999999999999999', 0, 999999999999999],
    ['9999999999999999', 0, 9999999999999999n],
    ['0000000000000001.5', 1, 15n],
    [9007199254740991, 2, 900719925474099100n],
    [-9007199254740991, 0, -9007199254740991],
    ['1234567890123456789012345678.0123456789', 10, 12345678901234567890123456780123456789n],
  ] as const)('decimal %j at scale %i', (text, scale, scaled) => {
    expect(scaledDecimal(text, scale)).toBe(scaled);
  });
});
