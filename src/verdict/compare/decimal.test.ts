import { describe, expect, it } from 'vitest';
import {
  compareDecimals,
  decimalFromNumber,
  decimalKey,
  decimalToNumber,
  formatDecimal,
  parseDecimal,
  roundDecimal,
} from './decimal.js';

const parsed = (text: string) => {
  const value = parseDecimal(text);
  if (value === null) throw new Error(`not a decimal: ${text}`);
  return value;
};

describe('parseDecimal', () => {
  it.each([
    ['1', '1'],
    ['1.50', '1.5'],
    ['-0.00', '0'],
    ['+12', '12'],
    ['.5', '0.5'],
    ['5.', '5'],
    ['007', '7'],
    ['1.5e-7', '0.00000015'],
    ['12345e-3', '12.345'],
    ['1e+21', '1000000000000000000000'],
    ['9223372036854775807', '9223372036854775807'],
    ['-170141183460469231731687303715884105728', '-170141183460469231731687303715884105728'],
    ['0.000000000000000000000000000001', '0.000000000000000000000000000001'],
  ])('reads %s as %s', (text, plain) => {
    expect(formatDecimal(parsed(text))).toBe(plain);
  });

  it.each(['', '-', '.', '1.2.3', '1,5', 'abc', '1e', '1e12345', 'NaN', 'Infinity', ' 1'])(
    'refuses %j',
    (text) => {
      expect(parseDecimal(text)).toBeNull();
    },
  );

  it('keeps canonical fields so equal values have equal fields', () => {
    expect(parsed('1.500')).toEqual(parsed('15e-1'));
    expect(parsed('-0')).toEqual(parsed('0.000'));
  });
});

describe('decimalFromNumber', () => {
  it.each([
    [0.1, '0.1'],
    [0.1 + 0.2, '0.30000000000000004'],
    [2.675, '2.675'],
    [-0, '0'],
    [1e21, '1000000000000000000000'],
    [5e-324, '5e-324'],
    [1.5e-30, '0.0000000000000000000000000000015'],
  ])('reads %s as the digits it prints (%s)', (value, plain) => {
    expect(formatDecimal(decimalFromNumber(value)!)).toBe(plain);
  });

  it.each([Number.NaN, Infinity, -Infinity])('has no decimal for %s', (value) => {
    expect(decimalFromNumber(value)).toBeNull();
  });
});

describe('roundDecimal (half away from zero, on the digits)', () => {
  it.each([
    ['2.675', 2, '2.68'],
    ['2.665', 2, '2.67'],
    ['2.6649999999999999999', 2, '2.66'],
    ['-2.675', 2, '-2.68'],
    ['-0.125', 2, '-0.13'],
    ['0.004', 2, '0'],
    ['-0.004', 2, '0'],
    ['0.005', 2, '0.01'],
    ['9.995', 2, '10'],
    ['999.9999', 3, '1000'],
    ['2.5', 0, '3'],
    ['-2.5', 0, '-3'],
    ['0.5', 0, '1'],
    ['0.49', 0, '0'],
    ['1234.5678', 10, '1234.5678'],
    ['123456789012345678901234567890.125', 2, '123456789012345678901234567890.13'],
    ['1e-30', 2, '0'],
    ['15', 0, '15'],
  ])('rounds %s to %i decimals as %s', (text, places, expected) => {
    expect(formatDecimal(roundDecimal(parsed(text), places))).toBe(expected);
  });
});

describe('compareDecimals', () => {
  it.each([
    ['1', '1.0', 0],
    ['1', '2', -1],
    ['-1', '1', -1],
    ['0', '-0.0', 0],
    ['0', '-1e-30', 1],
    ['-2', '-1', -1],
    ['1.234', '1.23', 1],
    ['123', '1234', -1],
    ['9223372036854775807', '9223372036854775808', -1],
    ['1e30', '999999999999999999999999999999', 1],
  ])('orders %s against %s as %i', (a, b, expected) => {
    expect(Math.sign(compareDecimals(parsed(a), parsed(b)))).toBe(expected);
    expect(Math.sign(compareDecimals(parsed(b), parsed(a))) === -expected).toBe(true);
  });
});

describe('keys and doubles', () => {
  it('round-trips through the compact key', () => {
    const value = parsed('-1234.5600');
    expect(decimalKey(value)).toBe('-123456e-2');
    expect(parseDecimal(decimalKey(value))).toEqual(value);
  });

  it('converts to the nearest double', () => {
    expect(decimalToNumber(parsed('0.1'))).toBe(0.1);
    expect(decimalToNumber(parsed('9007199254740993'))).toBe(9007199254740992);
  });

  it('prints huge and tiny values in scientific form', () => {
    expect(formatDecimal(parsed('1e400'))).toBe('1e+400');
    expect(formatDecimal(parsed('-12e-400'))).toBe('-1.2e-399');
  });
});
