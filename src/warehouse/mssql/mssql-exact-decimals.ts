/**
 * tedious decodes DECIMAL, NUMERIC and MONEY into a JS double, exact to 15 significant digits
 * only, and has no option to hand them as text. Its row parsers call the value decoder
 * (`readValue` of `tedious/lib/value-parser.js`) through that module's exports, so nao wraps
 * it: a value of those types is read again from its bytes (MS-TDS 2.2.5.5.1), which tedious
 * has just checked are all there, into exact decimal text. Everything else is tedious' own.
 *
 * Should a tedious release decode differently, the wrapper is not installed, and the values
 * are the doubles again (mssql-value.ts takes both); the SQL Server conformance entry's
 * DECIMAL(38,10) value is then wrong, which is how an upgrade finds out.
 */
import { createRequire } from 'node:module';

interface ColumnMetadata {
  type: { name: string };
  scale?: number;
}

/** tedious' value decoder: the value at `offset` of `buf`, and the offset after it. */
export type ReadValue = (
  buf: Buffer,
  offset: number,
  metadata: ColumnMetadata,
  options: unknown,
) => { value: unknown; offset: number };

const WRAPPED = Symbol('nao.exactDecimals');

/** Digits of `magnitude` with `scale` of them after the point, and the sign. */
function decimalText(negative: boolean, magnitude: bigint, scale: number): string {
  const digits = magnitude.toString().padStart(scale + 1, '0');
  const text = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  return negative && magnitude !== 0n ? `-${text}` : text;
}

/** A little-endian unsigned integer of `length` bytes. */
function unsignedLE(buf: Buffer, start: number, length: number): bigint {
  let value = 0n;
  for (let index = length - 1; index >= 0; index--) value = (value << 8n) | BigInt(buf[start + index]!);
  return value;
}

/** MONEY's 8 bytes: the signed high 32 bits first, then the low ones, in units of 1/10,000. */
function moneyText(buf: Buffer, start: number): string {
  const units = (BigInt(buf.readInt32LE(start)) << 32n) | BigInt(buf.readUInt32LE(start + 4));
  return decimalText(units < 0n, units < 0n ? -units : units, 4);
}

/** The exact text of the value at `offset`, or undefined to keep tedious' own. */
function exactText(buf: Buffer, offset: number, metadata: ColumnMetadata): string | undefined {
  switch (metadata.type.name) {
    case 'DecimalN':
    case 'NumericN': {
      // A length byte (sign included), the sign (1 is positive), then the magnitude.
      const length = buf.readUInt8(offset);
      const negative = buf.readUInt8(offset + 1) !== 1;
      return decimalText(negative, unsignedLE(buf, offset + 2, length - 1), metadata.scale ?? 0);
    }
    case 'MoneyN':
      // SMALLMONEY (length 4) fits a double exactly.
      return buf.readUInt8(offset) === 8 ? moneyText(buf, offset + 1) : undefined;
    case 'Money':
      return moneyText(buf, offset);
    default:
      return undefined;
  }
}

/**
 * Makes tedious hand DECIMAL, NUMERIC and MONEY values as exact text from now on. True when
 * installed (or already), false when this tedious has no decoder to wrap.
 */
export function decodeDecimalsExactly(): boolean {
  let parser: { readValue?: ReadValue & { [WRAPPED]?: true } };
  try {
    parser = createRequire(import.meta.url)('tedious/lib/value-parser.js');
  } catch {
    return false;
  }
  const original = parser.readValue;
  if (typeof original !== 'function') return false;
  if (original[WRAPPED]) return true;
  const wrapped: ReadValue & { [WRAPPED]?: true } = (buf, offset, metadata, options) => {
    const result = original(buf, offset, metadata, options);
    if (typeof result.value === 'number') {
      const text = exactText(buf, offset, metadata);
      if (text !== undefined) result.value = text;
    }
    return result;
  };
  wrapped[WRAPPED] = true;
  try {
    parser.readValue = wrapped;
  } catch {
    return false;
  }
  return parser.readValue === wrapped;
}
