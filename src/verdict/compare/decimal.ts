/**
 * Exact decimal numbers: what a DECIMAL column, a big integer or a number's printed form
 * really says, kept as digits so that no value goes through a binary double when equality
 * or a tolerance boundary is decided.
 */

/**
 * `(-1)^negative × coefficient × 10^exponent`, always canonical: the coefficient has no
 * leading or trailing zeros, and zero is `{ negative: false, coefficient: '0', exponent: 0 }`.
 * Two canonical decimals are equal exactly when their three fields are.
 */
export interface Decimal {
  readonly negative: boolean;
  readonly coefficient: string;
  readonly exponent: number;
}

export const ZERO: Decimal = Object.freeze({ negative: false, coefficient: '0', exponent: 0 });

/** At most four exponent digits: larger exponents are refused so exact arithmetic stays bounded. */
const PLAIN_DECIMAL = /^([+-]?)(?:(\d+)(?:\.(\d*))?|\.(\d+))(?:[eE]([+-]?\d{1,4}))?$/;

/** Builds the canonical decimal of `digits × 10^exponent` (digits may carry zeros anywhere). */
export function makeDecimal(options: { negative: boolean; digits: string; exponent: number }): Decimal {
  const { digits } = options;
  let start = 0;
  while (start < digits.length && digits.charCodeAt(start) === 48) start++;
  if (start === digits.length) return ZERO;
  let end = digits.length;
  while (digits.charCodeAt(end - 1) === 48) end--;
  return {
    negative: options.negative,
    coefficient: digits.slice(start, end),
    exponent: options.exponent + (digits.length - end),
  };
}

/**
 * Reads a number written the way engines and JavaScript print them: optional sign, digits with
 * an optional `.` fraction, optional exponent (`1.5e-7`, `12345e-3`). Returns null for anything
 * else, including `NaN`/`Infinity`, which have no decimal value.
 */
export function parseDecimal(text: string): Decimal | null {
  const match = PLAIN_DECIMAL.exec(text);
  if (match === null) return null;
  const integerPart = match[2] ?? '';
  const fractionPart = match[3] ?? match[4] ?? '';
  const exponent = match[5] === undefined ? 0 : Number(match[5]);
  return makeDecimal({
    negative: match[1] === '-',
    digits: integerPart + fractionPart,
    exponent: exponent - fractionPart.length,
  });
}

/**
 * The decimal a double stands for: its shortest round-trip form, the digits a user sees
 * (0.1 is 0.1, not 0.1000000000000000055…). Null for NaN and infinities.
 */
export function decimalFromNumber(value: number): Decimal | null {
  if (!Number.isFinite(value)) return null;
  // String() of a finite number always matches the plain grammar (e.g. "1e+21", "-1.5e-7").
  return parseDecimal(String(value));
}

/** A compact form that `parseDecimal` reads back: `-12345e-3`. Used as an exact sort key. */
export function decimalKey(value: Decimal): string {
  return `${value.negative ? '-' : ''}${value.coefficient}e${value.exponent}`;
}

/** The nearest double (JavaScript's parser rounds correctly). */
export function decimalToNumber(value: Decimal): number {
  return Number(decimalKey(value));
}

export function isZero(value: Decimal): boolean {
  return value.coefficient === '0';
}

/** Plain positional text for messages and keys (`1234.5`, `-0.001`, `1e+400` when huge). */
export function formatDecimal(value: Decimal): string {
  const sign = value.negative ? '-' : '';
  const { coefficient, exponent } = value;
  if (exponent >= 0) {
    if (coefficient.length + exponent > 40)
      return `${sign}${coefficient[0]}${fractionOf(coefficient)}e+${coefficient.length - 1 + exponent}`;
    return sign + coefficient + '0'.repeat(exponent);
  }
  const integerDigits = coefficient.length + exponent;
  if (integerDigits > 0)
    return `${sign}${coefficient.slice(0, integerDigits)}.${coefficient.slice(integerDigits)}`;
  if (integerDigits < -40) return `${sign}${coefficient[0]}${fractionOf(coefficient)}e${integerDigits - 1}`;
  return `${sign}0.${'0'.repeat(-integerDigits)}${coefficient}`;
}

function fractionOf(coefficient: string): string {
  return coefficient.length > 1 ? `.${coefficient.slice(1)}` : '';
}

/**
 * Rounds to `places` digits after the point, half away from zero, on the decimal digits
 * themselves: 2.675 → 2.68 and -0.125 → -0.13, as SQL ROUND on a DECIMAL does.
 */
export function roundDecimal(value: Decimal, places: number): Decimal {
  if (value.exponent >= -places) return value;
  const { coefficient } = value;
  // Digits kept: those left of position 10^-places.
  const keep = coefficient.length + value.exponent + places;
  if (keep < 0) return ZERO;
  const nextDigit = keep < coefficient.length ? coefficient.charCodeAt(keep) - 48 : 0;
  let kept = coefficient.slice(0, keep);
  if (nextDigit >= 5) kept = incrementDigits(kept);
  return makeDecimal({ negative: value.negative, digits: kept, exponent: -places });
}

function incrementDigits(digits: string): string {
  const chars = digits.split('');
  let index = chars.length - 1;
  while (index >= 0) {
    if (chars[index] === '9') {
      chars[index] = '0';
      index--;
    } else {
      chars[index] = String.fromCharCode((chars[index] ?? '0').charCodeAt(0) + 1);
      return chars.join('');
    }
  }
  return `1${chars.join('')}`;
}

/** Numeric order of two canonical decimals: negative, zero or positive like a comparator. */
export function compareDecimals(a: Decimal, b: Decimal): number {
  const aZero = isZero(a);
  const bZero = isZero(b);
  if (aZero || bZero) {
    if (aZero && bZero) return 0;
    if (aZero) return b.negative ? 1 : -1;
    return a.negative ? -1 : 1;
  }
  if (a.negative !== b.negative) return a.negative ? -1 : 1;
  const magnitude = compareMagnitudes(a, b);
  return a.negative ? -magnitude : magnitude;
}

function compareMagnitudes(a: Decimal, b: Decimal): number {
  const aAdjusted = a.coefficient.length + a.exponent;
  const bAdjusted = b.coefficient.length + b.exponent;
  if (aAdjusted !== bAdjusted) return aAdjusted < bAdjusted ? -1 : 1;
  // Same leading position and no trailing zeros: digit strings order like the values.
  if (a.coefficient === b.coefficient) return 0;
  return a.coefficient < b.coefficient ? -1 : 1;
}

/** The integer `value × 10^(-scale)`; `scale` must not exceed the value's exponent. */
export function toScaledBigInt(value: Decimal, scale: number): bigint {
  const magnitude = BigInt(value.coefficient) * 10n ** BigInt(value.exponent - scale);
  return value.negative ? -magnitude : magnitude;
}
