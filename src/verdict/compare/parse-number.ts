import { type Decimal, makeDecimal, parseDecimal } from './decimal.js';

/**
 * What a text cell says when it is a number. `percent` keeps "12%" apart from 12 and from
 * 0.12: a percent string is ambiguous between the two, so it only ever equals another percent.
 */
export type ParsedNumber =
  | { kind: 'number'; value: Decimal; percent: boolean }
  | { kind: 'nan' }
  | { kind: 'infinity'; negative: boolean };

// All-lower, all-upper or the usual spelling: "Nan" and "INFinity" read as words (Nan is a name).
const SPECIAL = /^([+-]?)(NaN|nan|NAN|Inf|inf|INF|Infinity|infinity|INFINITY)$/;
const CURRENCY = '$€£¥₹₩₽₺₪₫฿₴₦₱';
const SIGN = '+\\-\u2212';
// [sign][currency][gap][sign]body[currency]; which combinations are allowed is checked below.
const FORMATTED = new RegExp(
  `^([${SIGN}]?)([${CURRENCY}]?)(\\s*)([${SIGN}]?)([0-9.][0-9.,'’ \\u00a0\\u202f\\u2009]*?(?:[eE][+-]?\\d+)?)\\s*([${CURRENCY}]?)$`,
);

// The body rules, tried in this order. A lone `.` is always a decimal point ("1.234" is
// 1.234); a lone `,` is a thousands separator only in the exact pattern d{1,3}(,ddd)+.
const PLAIN = /^(?:(0|[1-9]\d*)(?:\.(\d*))?|\.(\d+))(?:[eE]([+-]?\d{1,4}))?$/;
const COMMA_GROUPS = /^([1-9]\d{0,2}(?:,\d{3})+)(?:\.(\d+))?$/;
const INDIAN_GROUPS = /^([1-9]\d?(?:,\d\d)+,\d{3})(?:\.(\d+))?$/;
const DOT_GROUPS_COMMA_DECIMAL = /^([1-9]\d{0,2}(?:\.\d{3})+),(\d+)$/;
const DOT_GROUPS = /^([1-9]\d{0,2}(?:\.\d{3}){2,})$/;
const COMMA_DECIMAL = /^(0|[1-9]\d*),(\d+)$/;
const SPACE_GROUPS = /^([1-9]\d{0,2}(?:[ \u00a0\u202f\u2009]\d{3})+)(?:[.,](\d+))?$/;
const APOSTROPHE_GROUPS = /^([1-9]\d{0,2}(?:['’]\d{3})+)(?:\.(\d+))?$/;
const GROUPED_BODIES = [
  COMMA_GROUPS,
  INDIAN_GROUPS,
  DOT_GROUPS_COMMA_DECIMAL,
  DOT_GROUPS,
  COMMA_DECIMAL,
  SPACE_GROUPS,
  APOSTROPHE_GROUPS,
];

/**
 * Reads a number from text the way a person would, or returns null so the text stays text.
 * The whole string must be the number: "abc1", "1 apple", "007" and "1.2.3" are text.
 *
 * Accepted, with the value they give:
 * - engine output: "42", "-1.50", ".5", "1.5e-7", "NaN", "Infinity", "-inf" (usual, lower
 *   or upper case; exponents of at most four digits)
 * - thousands with a dot decimal: "52,123,123" → 52123123, "1,234.5" → 1234.5,
 *   Indian grouping "12,34,567.8" → 1234567.8, Swiss "1'234.5" → 1234.5
 * - dot thousands with a comma decimal: "1.234,5" → 1234.5, "1.234.567" → 1234567
 * - a comma decimal: "12,5" → 12.5, "0,234" → 0.234, "1234,567" → 1234.567
 * - space thousands (space, no-break, narrow no-break, thin): "1 234,5" and "1 234.5" → 1234.5
 * - a currency symbol before or after, sign on either side of it: "$1,234.50", "-$5", "$-5",
 *   "1.234,50 €" (the symbol is dropped: amounts are compared, not currencies)
 * - accounting negatives: "(1,234)" → -1234, "($5.00)" → -5
 * - a trailing "%": "12.5%" gives the number 12.5 marked as a percent
 *
 * Ambiguities are settled one way: a single `,` followed by exactly three digits and led by
 * one to three digits is a thousands separator ("1,234" → 1234); a single `.` is always the
 * decimal point ("1.234" → 1.234). Leading zeros ("007", "00.5") mark codes, so they stay text.
 * Surrounding whitespace is ignored.
 */
export function parseNumberText(text: string): ParsedNumber | null {
  let body = text.trim();
  if (body === '') return null;
  const special = SPECIAL.exec(body);
  if (special !== null) {
    if ((special[2] ?? '').toLowerCase() === 'nan') return { kind: 'nan' };
    return { kind: 'infinity', negative: special[1] === '-' };
  }
  let negative = false;
  let accounting = false;
  if (body.startsWith('(') && body.endsWith(')')) {
    accounting = true;
    negative = true;
    body = body.slice(1, -1).trim();
  }
  let percent = false;
  if (body.endsWith('%')) {
    percent = true;
    body = body.slice(0, -1).trimEnd();
  }
  const match = FORMATTED.exec(body);
  if (match === null) return null;
  const [, signBefore = '', currencyBefore = '', gap = '', signAfter = '', digits = '', currencyAfter = ''] =
    match;
  const sign = signBefore + signAfter;
  if (sign.length > 1 || (currencyBefore !== '' && currencyAfter !== '')) return null;
  // Only a currency symbol may be followed by spaces or by the sign: "- 5" and "+-5" are text.
  if ((gap !== '' || signAfter !== '') && currencyBefore === '') return null;
  if (accounting && sign !== '') return null;
  if (percent && (currencyBefore !== '' || currencyAfter !== '')) return null;
  if (sign === '-' || sign === '\u2212') negative = true;
  const value = parseBody(digits, negative);
  if (value === null) return null;
  return { kind: 'number', value, percent };
}

function parseBody(body: string, negative: boolean): Decimal | null {
  const plain = PLAIN.exec(body);
  if (plain !== null) {
    const parsed = parseDecimal(body);
    if (parsed === null) return null;
    return negative && parsed.coefficient !== '0' ? { ...parsed, negative: true } : parsed;
  }
  for (const pattern of GROUPED_BODIES) {
    const match = pattern.exec(body);
    if (match === null) continue;
    const integerDigits = (match[1] ?? '').replace(/[^0-9]/g, '');
    const fraction = match[2] ?? '';
    return makeDecimal({ negative, digits: integerDigits + fraction, exponent: -fraction.length });
  }
  return null;
}
