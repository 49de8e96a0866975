import { describe, expect, it } from 'vitest';
import { formatDecimal } from './decimal.js';
import { parseNumberText } from './parse-number.js';

/** The value as plain text, "12%" for percents, "NaN"/"±Infinity", or null for text. */
function read(text: string): string | null {
  const parsed = parseNumberText(text);
  if (parsed === null) return null;
  if (parsed.kind === 'nan') return 'NaN';
  if (parsed.kind === 'infinity') return parsed.negative ? '-Infinity' : 'Infinity';
  return `${formatDecimal(parsed.value)}${parsed.percent ? '%' : ''}`;
}

describe('parseNumberText', () => {
  it.each([
    // engine output
    ['42', '42'],
    ['-1.50', '-1.5'],
    ['+7', '7'],
    ['\u22127', '-7'],
    ['.5', '0.5'],
    ['1.5e-7', '0.00000015'],
    ['2E3', '2000'],
    ['0', '0'],
    ['-0', '0'],
    [' 42 ', '42'],
    ['NaN', 'NaN'],
    ['nan', 'NaN'],
    ['-inf', '-Infinity'],
    ['Infinity', 'Infinity'],
    ['INFINITY', 'Infinity'],
    // one separator: the rule from the module doc
    ['1,234', '1234'],
    ['1.234', '1.234'],
    ['12,345', '12345'],
    ['123,456', '123456'],
    ['1234,567', '1234.567'],
    ['0,234', '0.234'],
    ['12,5', '12.5'],
    ['1,23', '1.23'],
    ['1,2345', '1.2345'],
    // both separators
    ['1,234.5', '1234.5'],
    ['1.234,5', '1234.5'],
    ['52,123,123', '52123123'],
    ['1.234.567', '1234567'],
    ['1,234,567.891', '1234567.891'],
    ['12,34,567.8', '1234567.8'],
    ["1'234.50", '1234.5'],
    ['1’234', '1234'],
    ['1 234,5', '1234.5'],
    ['1 234.5', '1234.5'],
    ['1\u00a0234\u00a0567', '1234567'],
    ['1\u202f234,5', '1234.5'],
    // currency, accounting, percent
    ['$1,234.50', '1234.5'],
    ['€1.234,50', '1234.5'],
    ['1.234,50 €', '1234.5'],
    ['£ 12', '12'],
    ['-$5', '-5'],
    ['$-5', '-5'],
    ['¥1,000', '1000'],
    ['(1,234)', '-1234'],
    ['($1,234.50)', '-1234.5'],
    ['12%', '12%'],
    ['12.50 %', '12.5%'],
    ['-0.5%', '-0.5%'],
  ])('reads %j as %s', (text, expected) => {
    expect(read(text)).toBe(expected);
  });

  it.each([
    'abc1',
    '1abc',
    '1 apple',
    '007',
    '00.5',
    '1.2.3',
    '1,234,5',
    '1.234,',
    ',5',
    '1..2',
    '- 5',
    '+-5',
    '(-5)',
    '$12%',
    '$5€',
    '1e99999',
    '',
    '   ',
    'Nan',
    'Infinite',
    '١٢٣',
    '2024-01-02',
    '12:30',
    '0x1F',
  ])('leaves %j as text', (text) => {
    expect(read(text)).toBeNull();
  });
});
