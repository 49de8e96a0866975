import { createRequire } from 'node:module';
import { beforeAll, describe, expect, it } from 'vitest';
import { decodeDecimalsExactly, type ReadValue } from './mssql-exact-decimals.js';

let readValue: ReadValue;

beforeAll(() => {
  expect(decodeDecimalsExactly()).toBe(true);
  // Installing twice wraps once.
  expect(decodeDecimalsExactly()).toBe(true);
  readValue = (createRequire(import.meta.url)('tedious/lib/value-parser.js') as { readValue: ReadValue })
    .readValue;
});

/** A DECIMALN value as SQL Server sends it: length, sign (1 is positive), magnitude little-endian. */
function decimalBytes(negative: boolean, magnitude: bigint, length: 5 | 9 | 13 | 17): Buffer {
  const buffer = Buffer.alloc(1 + length);
  buffer[0] = length;
  buffer[1] = negative ? 0 : 1;
  for (let index = 2; index <= length; index++) {
    buffer[index] = Number(magnitude & 0xffn);
    magnitude >>= 8n;
  }
  return buffer;
}

/** MONEY's 8 bytes from its value in units of 1/10,000: the high 32 bits first. */
function moneyBytes(units: bigint): Buffer {
  const buffer = Buffer.alloc(8);
  buffer.writeInt32LE(Number(BigInt.asIntN(32, units >> 32n)), 0);
  buffer.writeUInt32LE(Number(BigInt.asUintN(32, units)), 4);
  return buffer;
}

const decimal = (precision: number, scale: number) => ({ type: { name: 'DecimalN' }, precision, scale });

describe('tedious with exact decimals', () => {
  it.each([
    [
      '38 digits',
      false,
      12345678901234567890123456780123456789n,
      17,
      38,
      10,
      '1234567890123456789012345678.0123456789',
    ],
    ['a negative value', true, 1250n, 5, 5, 2, '-12.50'],
    ['leading zeros after the point', false, 5n, 5, 5, 3, '0.005'],
    ['zero sent with a minus sign', true, 0n, 5, 5, 2, '0.00'],
    ['no scale', false, 9007199254740993n, 9, 19, 0, '9007199254740993'],
  ] as const)(
    'reads DECIMAL/NUMERIC %s as exact text',
    (_label, negative, magnitude, length, precision, scale, text) => {
      // The value sits after other bytes, as in a row, and the offset after it is tedious' own.
      const buffer = Buffer.concat([Buffer.from([0xaa, 0xbb]), decimalBytes(negative, magnitude, length)]);
      expect(readValue(buffer, 2, decimal(precision, scale), {})).toEqual({
        value: text,
        offset: buffer.length,
      });
      const numeric = { ...decimal(precision, scale), type: { name: 'NumericN' } };
      expect(readValue(buffer, 2, numeric, {}).value).toBe(text);
    },
  );

  it('keeps NULL', () => {
    expect(readValue(Buffer.from([0]), 0, decimal(10, 2), {})).toEqual({ value: null, offset: 1 });
  });

  it('reads MONEY to its last digit at both ends of its range, and leaves SMALLMONEY to tedious', () => {
    const largest = moneyBytes(9223372036854775807n);
    const smallest = moneyBytes(-9223372036854775808n);
    expect(readValue(largest, 0, { type: { name: 'Money' } }, {}).value).toBe('922337203685477.5807');
    expect(
      readValue(Buffer.concat([Buffer.from([8]), smallest]), 0, { type: { name: 'MoneyN' } }, {}),
    ).toEqual({
      value: '-922337203685477.5808',
      offset: 9,
    });
    expect(readValue(moneyBytes(-15000n), 0, { type: { name: 'Money' } }, {}).value).toBe('-1.5000');
    const small = Buffer.alloc(5);
    small[0] = 4;
    small.writeInt32LE(15000, 1);
    expect(readValue(small, 0, { type: { name: 'MoneyN' } }, {}).value).toBe(1.5);
  });

  it("leaves every other type to tedious' own decoding", () => {
    const float = Buffer.alloc(9);
    float[0] = 8;
    float.writeDoubleLE(0.1, 1);
    expect(readValue(float, 0, { type: { name: 'FloatN' } }, {})).toEqual({ value: 0.1, offset: 9 });
  });
});
