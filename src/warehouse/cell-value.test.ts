import { describe, expect, it } from 'vitest';
import {
  bytesCell,
  float32Cell,
  floatCell,
  integerCell,
  integerTextCell,
  timestampTextCell,
  zoneOffsetMs,
} from './cell-value.js';

describe('integerCell', () => {
  it.each<[bigint, number | string]>([
    [0n, 0],
    [9007199254740991n, 9007199254740991],
    [-9007199254740991n, -9007199254740991],
    [9007199254740992n, '9007199254740992'],
    [-9007199254740992n, '-9007199254740992'],
    [9223372036854775807n, '9223372036854775807'],
    [-9223372036854775808n, '-9223372036854775808'],
    [170141183460469231731687303715884105727n, '170141183460469231731687303715884105727'],
  ])('%s → %j', (value, expected) => {
    expect(integerCell(value)).toBe(expected);
  });
});

describe('integerTextCell', () => {
  it.each<[string, number | string]>([
    ['42', 42],
    ['-7', -7],
    ['999999999999999', 999999999999999],
    ['9007199254740991', 9007199254740991],
    ['9007199254740993', '9007199254740993'],
    ['9223372036854775807', '9223372036854775807'],
    ['18446744073709551615', '18446744073709551615'],
    ['12.50', '12.50'],
    ['not a number', 'not a number'],
  ])('%s → %j', (text, expected) => {
    expect(integerTextCell(text)).toBe(expected);
  });
});

describe('floatCell and float32Cell', () => {
  it.each<[number, number | string]>([
    [1.5, 1.5],
    [Number.NaN, 'NaN'],
    [Number.POSITIVE_INFINITY, 'Infinity'],
    [Number.NEGATIVE_INFINITY, '-Infinity'],
    [-0.000001, -0.000001],
  ])('floatCell(%s) → %j', (value, expected) => {
    expect(floatCell(value)).toBe(expected);
  });

  it.each<[number, number | string]>([
    [Math.fround(0.1), 0.1],
    [Math.fround(1.234567), 1.234567],
    [Math.fround(16777217), 16777216],
    [Math.fround(3.4028234663852886e38), 3.4028235e38],
    [Math.fround(1.4e-45), 1e-45],
    [0, 0],
    [Number.NaN, 'NaN'],
  ])('float32Cell(%s) → %j', (value, expected) => {
    expect(float32Cell(value)).toBe(expected);
    if (typeof expected === 'number') expect(Math.fround(expected)).toBe(Math.fround(value));
  });
});

describe('bytesCell', () => {
  it.each<[number[], string]>([
    [[], '\\x'],
    [[0x61, 0x62, 0x00, 0xff], '\\x616200ff'],
  ])('%j → %s', (bytes, expected) => {
    expect(bytesCell(Uint8Array.from(bytes))).toBe(expected);
  });
});

describe('timestampTextCell', () => {
  it.each<[string, string]>([
    ['2024-01-02 03:04:05.123456', '2024-01-02T03:04:05.123456'],
    ['2024-01-02 03:04:05.5', '2024-01-02T03:04:05.500000'],
    ['2024-01-02 03:04:05.500000', '2024-01-02T03:04:05.500000'],
    ['2024-01-02 03:04:05.000000', '2024-01-02T03:04:05'],
    ['2024-01-02 03:04:05', '2024-01-02T03:04:05'],
    ['2024-01-02T03:04:05', '2024-01-02T03:04:05'],
    ['2024-01-02 01:04:05.123456+00', '2024-01-02T01:04:05.123456Z'],
    ['2024-01-02 01:04:05+00:00', '2024-01-02T01:04:05Z'],
    ['2024-01-02 01:04:05Z', '2024-01-02T01:04:05Z'],
    ['2024-01-02 01:04:05+05:30', '2024-01-02T01:04:05+05:30'],
    ['2024-01-02 01:04:05-08', '2024-01-02T01:04:05-08:00'],
    ['1850-01-01 00:00:00+00:09:21', '1850-01-01T00:00:00+00:09:21'],
    ['0044-03-15 12:00:00 BC', '0044-03-15 12:00:00 BC'],
    ['infinity', 'infinity'],
    ['-infinity', '-infinity'],
    ['0000-00-00 00:00:00', '0000-00-00 00:00:00'],
    ['2024-13-01 00:00:00', '2024-13-01 00:00:00'],
    ['', ''],
  ])('%s → %s', (text, expected) => {
    expect(timestampTextCell(text)).toBe(expected);
  });

  it('pads the fraction to the precision of the type', () => {
    expect(timestampTextCell('2024-01-02 03:04:05.12', 3)).toBe('2024-01-02T03:04:05.120');
    expect(timestampTextCell('2024-01-02 03:04:05.123456789', 6)).toBe('2024-01-02T03:04:05.123456789');
  });
});

describe('zoneOffsetMs', () => {
  const hour = 3_600_000;
  it('reads UTC and fixed offsets without a time zone database', () => {
    expect(zoneOffsetMs('UTC', 0)).toBe(0);
    expect(zoneOffsetMs('+05:30', 0)).toBe(5.5 * hour);
    expect(zoneOffsetMs('-0800', 0)).toBe(-8 * hour);
  });

  it('gives an IANA zone its offset at the wall-clock time, on each side of a DST change', () => {
    expect(zoneOffsetMs('Europe/Berlin', Date.UTC(2024, 0, 15, 12))).toBe(hour);
    expect(zoneOffsetMs('Europe/Berlin', Date.UTC(2024, 6, 15, 12))).toBe(2 * hour);
    // 03:30 on 2024-03-31 comes just after Berlin's clocks jump from 02:00 to 03:00.
    expect(zoneOffsetMs('Europe/Berlin', Date.UTC(2024, 2, 31, 3, 30))).toBe(2 * hour);
  });

  it('is undefined for a zone it does not know', () => {
    expect(zoneOffsetMs('Mars/Olympus_Mons', 0)).toBeUndefined();
  });
});
