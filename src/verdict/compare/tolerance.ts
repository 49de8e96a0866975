import { type Decimal, decimalFromNumber, toScaledBigInt } from './decimal.js';

/** One side of a tolerance check: the double, and the exact decimal for boundary cases. */
export interface NumberOperand {
  value: number;
  /** The exact value; null when it is ±Infinity. Called only when doubles cannot decide. */
  decimal(): Decimal | null;
}

export interface Tolerance {
  rtol: number;
  atol: number;
}

/**
 * numpy's `allclose` rule for one pair, `|actual − expected| ≤ atol + rtol·|expected|`, decided
 * on the decimal values: with atol 0.1, 1.1 vs 1.0 is inside even though the doubles'
 * difference is 0.10000000000000009. Doubles decide whenever they are clearly on one side.
 */
export function isClose(options: { actual: NumberOperand; expected: NumberOperand } & Tolerance): boolean {
  const { actual, expected, rtol, atol } = options;
  const a = actual.value;
  const e = expected.value;
  if (Number.isNaN(a) || Number.isNaN(e)) return false;
  const difference = Math.abs(a - e);
  const bound = atol + rtol * Math.abs(e);
  if (Number.isFinite(difference) && Number.isFinite(bound)) {
    // Each double is within 2^-53 of its decimal; 1e-12 of the magnitudes covers every
    // rounding in the two lines above, and 1e-300 covers values lost to underflow.
    const margin = 1e-12 * (Math.abs(a) + Math.abs(e) + bound) + 1e-300;
    if (difference < bound - margin) return true;
    if (difference > bound + margin) return false;
  }
  return isCloseExactly({ actual, expected, rtol, atol });
}

function isCloseExactly(options: { actual: NumberOperand; expected: NumberOperand } & Tolerance): boolean {
  const a = options.actual.decimal();
  const e = options.expected.decimal();
  const atol = decimalFromNumber(options.atol);
  const rtol = decimalFromNumber(options.rtol);
  if (a === null || e === null) {
    // An infinity is only close to itself.
    return a === null && e === null && options.actual.value === options.expected.value;
  }
  if (atol === null || rtol === null) return true;
  const scale = Math.min(a.exponent, e.exponent, atol.exponent, rtol.exponent + e.exponent);
  const difference = toScaledBigInt(a, scale) - toScaledBigInt(e, scale);
  const absoluteExpected = toScaledBigInt({ ...e, negative: false }, e.exponent);
  const relative = toScaledBigInt(rtol, rtol.exponent) * absoluteExpected;
  // rtol·|e| is exact at exponent rtol.exponent + e.exponent; bring it to `scale`.
  const relativeScaled = relative * 10n ** BigInt(rtol.exponent + e.exponent - scale);
  const bound = toScaledBigInt(atol, scale) + relativeScaled;
  return (difference < 0n ? -difference : difference) <= bound;
}
