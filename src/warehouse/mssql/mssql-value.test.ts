import { describe, expect, it } from 'vitest';
import { mssqlCellConverter, mssqlTypeName, type TdsColumn } from './mssql-value.js';

const column = (name: string, more: Partial<TdsColumn> = {}): TdsColumn => ({
  colName: 'v',
  type: { name },
  ...more,
});

/** A Date as tedious makes it for DATETIME2/TIME: the milliseconds, and the rest of the second hidden beside. */
function tdsDate(iso: string, nanosecondsDelta: number): Date {
  const date = new Date(iso);
  Object.defineProperty(date, 'nanosecondsDelta', { enumerable: false, value: nanosecondsDelta });
  return date;
}

describe('mssqlTypeName', () => {
  it.each<[TdsColumn, string]>([
    [column('IntN', { dataLength: 8 }), 'bigint'],
    [column('IntN', { dataLength: 1 }), 'tinyint'],
    [column('FloatN', { dataLength: 4 }), 'real'],
    [column('FloatN', { dataLength: 8 }), 'float'],
    [column('NumericN', { precision: 38, scale: 10 }), 'numeric(38,10)'],
    [column('NVarChar', { dataLength: 0xffff }), 'nvarchar(max)'],
    [column('NVarChar', { dataLength: 80 }), 'nvarchar(40)'],
    [column('VarChar', { dataLength: 12 }), 'varchar(12)'],
    [column('MoneyN', { dataLength: 8 }), 'money'],
    [column('DateTimeN', { dataLength: 4 }), 'smalldatetime'],
    [column('Time', { scale: 3 }), 'time(3)'],
    [column('UniqueIdentifier'), 'uniqueidentifier'],
  ])('%j is %s', (metadata, expected) => {
    expect(mssqlTypeName(metadata)).toBe(expected);
  });
});

describe('mssqlCellConverter', () => {
  it.each<[string, TdsColumn, unknown, unknown]>([
    ['bigint text past 2^53', column('IntN', { dataLength: 8 }), '9007199254740993', '9007199254740993'],
    ['bigint text that fits', column('IntN', { dataLength: 8 }), '-42', -42],
    [
      'exact decimal text (mssql-exact-decimals.ts)',
      column('DecimalN', { precision: 38, scale: 10 }),
      '-1234567890123456789012345678.0123456789',
      '-1234567890123456789012345678.0123456789',
    ],
    ['exact money text', column('MoneyN', { dataLength: 8 }), '922337203685477.5807', '922337203685477.5807'],
    // tedious' own doubles, should the exact decoder be missing:
    ['a decimal at its scale', column('DecimalN', { precision: 5, scale: 2 }), 12.5, '12.50'],
    [
      'a 15-digit decimal, exact',
      column('DecimalN', { precision: 15, scale: 5 }),
      1234567890.12345,
      '1234567890.12345',
    ],
    // Past 15 digits tedious' double has already rounded: nao says so by giving the double's text.
    [
      'a decimal the driver rounded',
      column('DecimalN', { precision: 38, scale: 10 }),
      Number('1234567890123456789012345678.0123456789'),
      '1.2345678901234569e+27',
    ],
    ['money', column('MoneyN', { dataLength: 8 }), 922337203.5807, '922337203.5807'],
    ['real', column('FloatN', { dataLength: 4 }), Math.fround(0.1), 0.1],
    ['binary', column('VarBinary', { dataLength: 4 }), Buffer.from([0xab, 0]), '\\xab00'],
    [
      'datetime (1/300 s)',
      column('DateTimeN', { dataLength: 8 }),
      new Date('2024-01-02T03:04:05.997Z'),
      '2024-01-02T03:04:05.997',
    ],
    [
      'datetimeoffset in UTC',
      column('DateTimeOffset', { scale: 7 }),
      tdsDate('2024-01-02T01:04:05.123Z', 0.0004567),
      '2024-01-02T01:04:05.1234567Z',
    ],
    ['time', column('Time', { scale: 7 }), tdsDate('1970-01-01T03:04:05.123Z', 0.0004), '03:04:05.1234000'],
    ['time on the second', column('Time', { scale: 3 }), tdsDate('1970-01-01T03:04:05.000Z', 0), '03:04:05'],
    [
      'uniqueidentifier',
      column('UniqueIdentifier'),
      'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11',
      'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11',
    ],
    ['NULL', column('DecimalN', { precision: 5, scale: 2 }), null, null],
  ])('%s', (_label, metadata, value, expected) => {
    expect(mssqlCellConverter(metadata)(value)).toEqual(expected);
  });
});
