import { describe, expect, it } from 'vitest';
import { type SnowflakeColumn, snowflakeCellConverter, snowflakeTypeName } from './snowflake-value.js';

function column(type: string, scale = 0, precision = 38): SnowflakeColumn {
  return { getName: () => 'v', getType: () => type, getScale: () => scale, getPrecision: () => precision };
}

/** A value as snowflake-sdk gives DATE and TIMESTAMP_* (a Date carrying the exact parts). */
function sfDate(epochSeconds: number, nanoSeconds: number, scale: number) {
  return Object.assign(new Date(epochSeconds * 1000 + Math.floor(nanoSeconds / 1e6)), {
    getEpochSeconds: () => epochSeconds,
    getNanoSeconds: () => nanoSeconds,
    getScale: () => scale,
  });
}

describe('snowflakeCellConverter', () => {
  it.each([
    ['an integer NUMBER', column('fixed'), '42', 42],
    ['an integer NUMBER beyond 2^53', column('fixed'), '9007199254740993', '9007199254740993'],
    ['a NUMBER with a scale keeps its digits', column('fixed', 2, 10), '12.50', '12.50'],
    ['FLOAT', column('real'), '0.1', 0.1],
    ["FLOAT 'inf'", column('real'), 'inf', 'Infinity'],
    ["FLOAT '-inf'", column('real'), '-inf', '-Infinity'],
    ['FLOAT NaN', column('real'), 'NaN', 'NaN'],
    ['BOOLEAN', column('boolean'), false, false],
    ['DATE', column('date'), sfDate(19724 * 86400, 0, 0), '2024-01-02'],
    [
      'TIMESTAMP_NTZ(9) to the nanosecond',
      column('timestamp_ntz', 9),
      sfDate(1704164645, 123456789, 9),
      '2024-01-02T03:04:05.123456789',
    ],
    [
      'TIMESTAMP_NTZ(3) on a whole second',
      column('timestamp_ntz', 3),
      sfDate(1704164645, 0, 3),
      '2024-01-02T03:04:05',
    ],
    [
      'TIMESTAMP_LTZ(6), in UTC',
      column('timestamp_ltz', 6),
      sfDate(1704157445, 500000000, 6),
      '2024-01-02T01:04:05.500000Z',
    ],
    ['BINARY', column('binary'), Buffer.from([0x61, 0x62, 0x00, 0xff]), '\\x616200ff'],
    ['VARIANT', column('variant'), { a: [1, 'x'] }, '{"a":[1,"x"]}'],
    ['TEXT', column('text'), 'héllo 😀', 'héllo 😀'],
  ])('%s', (_label, sdkColumn, value, expected) => {
    expect(snowflakeCellConverter(sdkColumn)(value)).toEqual(expected);
  });
});

describe('snowflakeTypeName', () => {
  it.each([
    [column('fixed', 2, 10), 'NUMBER(10,2)'],
    [column('real'), 'FLOAT'],
    [column('text'), 'VARCHAR'],
    [column('timestamp_tz', 9), 'TIMESTAMP_TZ(9)'],
    [column('variant'), 'VARIANT'],
  ])('%o → %s', (sdkColumn, expected) => {
    expect(snowflakeTypeName(sdkColumn)).toBe(expected);
  });
});
