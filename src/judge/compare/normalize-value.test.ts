import { describe, expect, it } from 'vitest';
import { type NormalizedValue, normalizeValue, valuesEqual } from './normalize-value.js';

describe('normalizeValue', () => {
  it.each<[unknown, NormalizedValue]>([
    [null, { kind: 'null' }],
    [undefined, { kind: 'null' }],
    [true, { kind: 'boolean', value: true }],
    [false, { kind: 'boolean', value: false }],
    [1, { kind: 'number', value: 1, exact: '1' }],
    [1.0, { kind: 'number', value: 1, exact: '1' }],
    [-0, { kind: 'number', value: 0, exact: '0' }],
    ['1.50', { kind: 'number', value: 1.5, exact: '1.5' }],
    ['9223372036854775807', { kind: 'number', value: 2 ** 63, exact: '9223372036854775807' }],
    ['$1,234.50', { kind: 'number', value: 1234.5, exact: '1234.5' }],
    [Number.NaN, { kind: 'nan' }],
    ['NaN', { kind: 'nan' }],
    [Infinity, { kind: 'number', value: Infinity, exact: 'Infinity' }],
    ['-Infinity', { kind: 'number', value: -Infinity, exact: '-Infinity' }],
    ['2024-01-02', { kind: 'temporal', iso: '2024-01-02T00:00:00Z' }],
    ['2024-01-02T01:00:00+01:00', { kind: 'temporal', iso: '2024-01-02T00:00:00Z' }],
    ['2024-01-02 00:00:00.000001', { kind: 'temporal', iso: '2024-01-02T00:00:00.000001Z' }],
    ['1969-12-31T23:59:59.5', { kind: 'temporal', iso: '1969-12-31T23:59:59.5Z' }],
    [new Date('2024-01-02T00:00:00.250Z'), { kind: 'temporal', iso: '2024-01-02T00:00:00.25Z' }],
    ['12:30:00', { kind: 'text', value: '12:30:00' }],
    ['', { kind: 'text', value: '' }],
    ['NULL', { kind: 'text', value: 'NULL' }],
    ['true', { kind: 'text', value: 'true' }],
    ['abc1', { kind: 'text', value: 'abc1' }],
    ['007', { kind: 'text', value: '007' }],
    ['12.50 %', { kind: 'text', value: '12.5%' }],
    ['Cafe\u0301', { kind: 'text', value: 'Caf\u00e9' }],
    [{ a: 1 }, { kind: 'text', value: '{"a":1}' }],
  ])('reads %j', (value, expected) => {
    expect(normalizeValue(value)).toEqual(expected);
  });

  it.each<[unknown, number, string]>([
    [2.675, 2, '2.68'],
    [1.005, 2, '1.01'],
    [-2.675, 2, '-2.68'],
    [0.125, 2, '0.13'],
    [0.1 + 0.2, 2, '0.3'],
    [2.5, 0, '3'],
    [-2.5, 0, '-3'],
    [-0.001, 2, '0'],
    [1.234, 2, '1.23'],
    [1.235, 2, '1.24'],
    ['1.2345', 3, '1.235'],
    ['123456789012345678.125', 2, '123456789012345678.13'],
    [123456789012.345, 2, '123456789012.35'],
    [1e-7, 2, '0'],
    [0.3, 20, '0.3'],
    [1.23456789e-25, 30, '0.000000000000000000000000123457'],
    [1.2345678901234567e19, 2, '12345678901234567000'],
  ])(
    'rounds %s to %i decimals as %s (half away from zero, on the printed digits)',
    (value, decimals, exact) => {
      expect(normalizeValue(value, { decimals })).toMatchObject({ kind: 'number', exact });
    },
  );

  it('reads a bigint exactly', () => {
    expect(normalizeValue(12345678901234567890n)).toEqual({
      kind: 'number',
      value: 12345678901234567000,
      exact: '12345678901234567890',
    });
    expect(valuesEqual(12345678901234567890n, '12345678901234567890')).toBe(true);
    expect(valuesEqual(12345678901234567891n, '12345678901234567890')).toBe(false);
  });

  it('reads Postgres and DuckDB infinite dates as dates when the column type says so', () => {
    expect(normalizeValue('infinity', { type: 'DATE' })).toEqual({ kind: 'temporal', iso: 'infinity' });
    expect(normalizeValue('-infinity', { type: 'timestamp with time zone' })).toEqual({
      kind: 'temporal',
      iso: '-infinity',
    });
    expect(normalizeValue('infinity')).toEqual({ kind: 'number', value: Infinity, exact: 'Infinity' });
  });

  it('never reads a numeric column as dates', () => {
    expect(normalizeValue('2024-01-02', { type: 'DECIMAL(18,2)' })).toEqual({
      kind: 'text',
      value: '2024-01-02',
    });
  });
});

describe('valuesEqual', () => {
  it.each<[unknown, unknown, boolean]>([
    [1, 1.0, true],
    [1, '1', true],
    ['1.50', 1.5, true],
    ['1.5000000000000000000001', 1.5, false],
    ['9223372036854775807', '9223372036854775807', true],
    ['9223372036854775807', '9223372036854775806', false],
    ['9007199254740993', 9007199254740992, false],
    ['52,123,123', 52123123, true],
    ['1.234', 1234, false],
    ['1.234', 1.234, true],
    ['1,234', 1234, true],
    ['1.234,5', 1234.5, true],
    ['1,234.5', 1234.5, true],
    ['1 234,5', 1234.5, true],
    ['(1,234)', -1234, true],
    ['12%', 12, false],
    ['12%', 0.12, false],
    ['12%', '12.0%', true],
    ['abc1', 1, false],
    [null, null, true],
    [null, 0, false],
    [null, '', false],
    [null, 'NULL', false],
    [undefined, null, true],
    [Number.NaN, Number.NaN, true],
    [Number.NaN, 'NaN', true],
    [Number.NaN, null, false],
    [true, 'true', false],
    [true, 1, false],
    [false, 0, false],
    [true, true, true],
    ['2024-01-02', '2024-01-02T00:00:00', true],
    ['2024-01-02', '2024-01-02 00:00:00', true],
    ['2024-01-02T01:00:00+01:00', '2024-01-02T00:00:00Z', true],
    ['2024-01-02T00:00:00', '2024-01-02T00:00:00Z', true],
    ['2024-01-02 00:00:00.000001', '2024-01-02 00:00:00', false],
    ['2024-01-02 00:00:00.100', '2024-01-02 00:00:00.1', true],
    ['2024-01-02 00:00:00.1234567891', '2024-01-02 00:00:00.1234567892', false],
    ['2024-01-02', 'Jan 2, 2024', false],
    ['2024-01-02', 1704153600, false],
    ['Caf\u00e9', 'Cafe\u0301', true],
    ['café', 'Café', false],
    ['abc', 'abc ', false],
    ['\u{1F600}', '\u{1F600}', true],
    [-0, 0, true],
    [Infinity, 'Infinity', true],
    [Infinity, '1e400', false],
  ])('%j = %j: %s', (a, b, equal) => {
    expect(valuesEqual(a, b)).toBe(equal);
    expect(valuesEqual(b, a)).toBe(equal);
  });
});
