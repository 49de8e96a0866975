import { describe, expect, it } from 'vitest';
import { type BigQueryField, bigQueryCell, bigQueryTypeName, timestampCell } from './bigquery-value.js';

const field = (type: string, extra: Partial<BigQueryField> = {}): BigQueryField => ({
  name: 'v',
  type,
  mode: 'NULLABLE',
  ...extra,
});

describe('bigQueryCell', () => {
  it.each([
    ['INTEGER', '42', 42],
    ['INT64', '9007199254740993', '9007199254740993'],
    ['INTEGER', '-9223372036854775808', '-9223372036854775808'],
    ['NUMERIC', '12.5', '12.5'],
    ['BIGNUMERIC', '1234567890123456789012345678.0123456789', '1234567890123456789012345678.0123456789'],
    ['FLOAT', '0.1', 0.1],
    ['FLOAT64', 'NaN', 'NaN'],
    ['FLOAT', 'Infinity', 'Infinity'],
    ['FLOAT', '-Infinity', '-Infinity'],
    ['BOOLEAN', 'true', true],
    ['BOOL', 'false', false],
    ['STRING', 'héllo 😀', 'héllo 😀'],
    ['BYTES', 'YWIA/w==', '\\x616200ff'],
    ['DATE', '2024-01-02', '2024-01-02'],
    ['DATETIME', '2024-01-02T03:04:05.123456', '2024-01-02T03:04:05.123456'],
    ['DATETIME', '2024-01-02T03:04:05', '2024-01-02T03:04:05'],
    ['DATETIME', '2024-01-02T03:04:05.5', '2024-01-02T03:04:05.500000'],
    ['TIMESTAMP', '1704157445123456', '2024-01-02T01:04:05.123456Z'],
    ['TIME', '03:04:05.123456', '03:04:05.123456'],
  ])('%s %j → %j', (type, text, expected) => {
    expect(bigQueryCell(field(type), { v: text })).toEqual(expected);
  });

  it('pads NUMERIC to the scale of a parameterized type, exactly', () => {
    const money = field('NUMERIC', { precision: '5', scale: '2' });
    expect(bigQueryCell(money, { v: '12.5' })).toBe('12.50');
    expect(bigQueryCell(money, { v: '-3' })).toBe('-3.00');
    expect(bigQueryCell(money, { v: '0.25' })).toBe('0.25');
    expect(bigQueryCell(field('BIGNUMERIC', { precision: '40', scale: '0' }), { v: '7' })).toBe('7');
  });

  it('keeps NULL of any type', () => {
    expect(bigQueryCell(field('INTEGER'), { v: null })).toBeNull();
    expect(bigQueryCell(field('STRING', { mode: 'REPEATED' }), { v: null })).toBeNull();
  });

  it('gives arrays and structs as JSON text, their values lossless', () => {
    const struct = field('RECORD', {
      fields: [field('INTEGER', { name: 'big' }), field('TIMESTAMP', { name: 'at' })],
    });
    expect(bigQueryCell(struct, { v: { f: [{ v: '9007199254740993' }, { v: '0' }] } })).toBe(
      '{"big":"9007199254740993","at":"1970-01-01T00:00:00Z"}',
    );
    expect(bigQueryCell(field('INTEGER', { mode: 'REPEATED' }), { v: [{ v: '1' }, { v: '2' }] })).toBe(
      '[1,2]',
    );
  });
});

describe('timestampCell', () => {
  it.each([
    ['1704157445000000', '2024-01-02T01:04:05Z'],
    ['-1', '1969-12-31T23:59:59.999999Z'],
    ['1.704157445123456E9', '2024-01-02T01:04:05.123456Z'],
    ['1704157445.5', '2024-01-02T01:04:05.500000Z'],
  ])('%s → %s', (text, expected) => {
    expect(timestampCell(text)).toBe(expected);
  });
});

describe('bigQueryTypeName', () => {
  it.each([
    [field('INTEGER'), 'INT64'],
    [field('FLOAT'), 'FLOAT64'],
    [field('BOOLEAN'), 'BOOL'],
    [field('NUMERIC', { precision: '10', scale: '2' }), 'NUMERIC(10, 2)'],
    [field('STRING', { maxLength: '8' }), 'STRING(8)'],
    [field('STRING', { mode: 'REPEATED' }), 'ARRAY<STRING>'],
    [field('RECORD', { fields: [field('INTEGER', { name: 'a' })] }), 'STRUCT<a INT64>'],
  ])('%j is %s', (input, expected) => {
    expect(bigQueryTypeName(input)).toBe(expected);
  });
});
