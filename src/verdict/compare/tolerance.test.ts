import { describe, expect, it } from 'vitest';
import { decimalFromNumber, parseDecimal } from './decimal.js';
import { isClose, type NumberOperand } from './tolerance.js';

const number = (value: number): NumberOperand => ({ value, decimal: () => decimalFromNumber(value) });
const decimalText = (text: string): NumberOperand => ({
  value: Number(text),
  decimal: () => parseDecimal(text),
});

describe('isClose: |actual − expected| ≤ atol + rtol·|expected|, on decimal values', () => {
  it.each([
    // [actual, expected, rtol, atol, close]
    [1.1, 1.0, 0, 0.1, true], // the doubles' difference is 0.10000000000000009
    [1.1000000001, 1.0, 0, 0.1, false],
    [0.9, 1.0, 0, 0.1, true],
    [100001, 100000, 0.00001, 0, true], // exactly rtol·|expected|
    [100001.01, 100000, 0.00001, 0, false],
    [99999, 100000, 0.00001, 0, true],
    [90.9, 100, 0.1, 0, true],
    [100, 90.9, 0.1, 0, false], // relative to the expected value, as numpy does
    [0, 1e-8, 0.00001, 0.00000001, true],
    [0, 1.1e-8, 0, 0.00000001, false],
    [1.000001, 1, 0.00001, 0.00000001, true],
    [1.0001, 1, 0.00001, 0.00000001, false],
    [-1.1, -1.0, 0, 0.1, true],
    [-1.2, -1.0, 0, 0.1, false],
    [5, 5, 0, 0, true],
    [5.000000000000001, 5, 0, 0, false],
    [1e300, 1.0000001e300, 0.00001, 0, true],
    [1e300, 2e300, 0.00001, 0, false],
  ])('%s vs %s with rtol %s, atol %s: %s', (actual, expected, rtol, atol, close) => {
    expect(isClose({ actual: number(actual), expected: number(expected), rtol, atol })).toBe(close);
  });

  it('decides exactly on long decimals the doubles cannot tell apart', () => {
    const expected = decimalText('1.00000000000000000001');
    expect(isClose({ actual: decimalText('1.10000000000000000001'), expected, rtol: 0, atol: 0.1 })).toBe(
      true,
    );
    expect(isClose({ actual: decimalText('1.10000000000000000002'), expected, rtol: 0, atol: 0.1 })).toBe(
      false,
    );
  });

  it('handles values that overflow a double', () => {
    const huge = decimalText('1e400');
    expect(isClose({ actual: huge, expected: decimalText('1.000001e400'), rtol: 0.00001, atol: 0 })).toBe(
      true,
    );
    expect(isClose({ actual: huge, expected: decimalText('2e400'), rtol: 0.00001, atol: 0 })).toBe(false);
  });

  it.each([
    [Infinity, Infinity, true],
    [-Infinity, Infinity, false],
    [Infinity, 1e308, false],
    [Number.NaN, Number.NaN, false],
    [Number.NaN, 1, false],
  ])('%s vs %s: %s (infinities are only close to themselves)', (actual, expected, close) => {
    expect(isClose({ actual: number(actual), expected: number(expected), rtol: 0.1, atol: 1 })).toBe(close);
  });
});
