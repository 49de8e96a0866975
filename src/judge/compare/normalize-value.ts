import { columnHint } from './column-type.js';
import { formatDecimal } from './decimal.js';
import {
  cellComparator,
  KIND_BOOLEAN,
  KIND_NAN,
  KIND_NULL,
  KIND_NUMBER,
  KIND_TEMPORAL,
  NormalizedCells,
} from './normalized-cells.js';
import type { Instant } from './parse-temporal.js';

/**
 * The meaning of one cell, as the comparison sees it. Two cells are equal exactly when their
 * normalised values are equal:
 * - null: SQL NULL (also undefined). Never equal to 0, '' or 'NULL'.
 * - boolean: true/false. Never equal to 1/0 or to the strings 'true'/'false': a boolean
 *   column answered with 0/1 is a different column type, and a verdict should say so.
 * - number: numbers, big-integer and DECIMAL strings, and text that fully reads as a number
 *   (parse-number.ts: "1,234.50", "$5", "(7)", "1.234,5"). Compared by exact decimal value
 *   (1 = 1.0 = '1.00'; integers beyond 2^53 exactly), after rounding to `decimals` half away
 *   from zero on the decimal digits (2.675 → 2.68, whatever its binary double is).
 *   `exact` is the value in plain decimal text. -0 is 0.
 * - nan: NaN and 'NaN' text; NaN equals NaN.
 * - temporal: ISO dates and timestamps as instants. A date is its midnight UTC, a naive
 *   timestamp is UTC, an offset is applied: '2024-01-02' = '2024-01-02 00:00:00' =
 *   '2024-01-02T01:00:00+01:00'. Fractions are exact to any digit. `iso` is the instant in UTC.
 *   Times of day and intervals stay text.
 * - text: everything else, compared by code points after Unicode NFC (so a precomposed "é"
 *   equals "e" + combining accent; nothing else is folded: case, spaces and width count).
 *   A percent string is text in canonical form, its number rounded like any other ("12.50 %"
 *   → "12.5%"): "12%" is ambiguous between 12 and 0.12, so it only equals another percent of
 *   the same value.
 * Across kinds the order is null < boolean < number < NaN < temporal < text.
 */
export type NormalizedValue =
  | { kind: 'null' }
  | { kind: 'boolean'; value: boolean }
  | { kind: 'number'; value: number; exact: string }
  | { kind: 'nan' }
  | { kind: 'temporal'; iso: string }
  | { kind: 'text'; value: string };

export interface NormalizeValueOptions {
  /** Decimals numbers are rounded to; null or absent keeps them unrounded. */
  decimals?: number | null;
  /** The engine type of the column, if known (e.g. 'DATE', 'DECIMAL(18,2)'). */
  type?: string;
}

/** How the comparison reads `value`; for display, tests and other checks that must agree with it. */
export function normalizeValue(value: unknown, options: NormalizeValueOptions = {}): NormalizedValue {
  const cells = normalizeOne(value, options);
  switch (cells.kinds[0]) {
    case KIND_NULL:
      return { kind: 'null' };
    case KIND_BOOLEAN:
      return { kind: 'boolean', value: cells.primary[0] === 1 };
    case KIND_NUMBER: {
      const decimal = cells.decimalAt(0, 0);
      const double = cells.primary[0]!;
      return {
        kind: 'number',
        value: double,
        exact: decimal === null ? (double > 0 ? 'Infinity' : '-Infinity') : formatDecimal(decimal),
      };
    }
    case KIND_NAN:
      return { kind: 'nan' };
    case KIND_TEMPORAL:
      return {
        kind: 'temporal',
        iso: formatInstant({
          epochSeconds: cells.primary[0]!,
          nanos: cells.secondaryAt(0, 0),
          beyondNanos: cells.textAt(0, 0) ?? '',
        }),
      };
    default:
      return { kind: 'text', value: cells.textAt(0, 0)! };
  }
}

/** Whether two cells mean the same value under the comparison's rules (no tolerance). */
export function valuesEqual(a: unknown, b: unknown, options: NormalizeValueOptions = {}): boolean {
  return cellComparator(normalizeOne(a, options), normalizeOne(b, options))(0, 0, 0) === 0;
}

function normalizeOne(value: unknown, options: NormalizeValueOptions): NormalizedCells {
  const cells = new NormalizedCells({
    rowCount: 1,
    hints: [columnHint(options.type)],
    decimals: options.decimals ?? null,
  });
  cells.set(0, 0, value);
  return cells;
}

/** `YYYY-MM-DDTHH:MM:SS[.fraction]Z`, with as many fraction digits as the value has. */
function formatInstant(instant: Instant): string {
  const { epochSeconds, nanos, beyondNanos } = instant;
  if (!Number.isFinite(epochSeconds)) return epochSeconds > 0 ? 'infinity' : '-infinity';
  const days = Math.floor(epochSeconds / 86_400);
  const secondOfDay = epochSeconds - days * 86_400;
  const { year, month, day } = civilFromDays(days);
  const pad = (value: number, width = 2) => String(value).padStart(width, '0');
  const time = `${pad(Math.floor(secondOfDay / 3600))}:${pad(Math.floor(secondOfDay / 60) % 60)}:${pad(secondOfDay % 60)}`;
  const fraction = `${pad(nanos, 9)}${beyondNanos}`.replace(/0+$/, '');
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}T${time}${fraction === '' ? '' : `.${fraction}`}Z`;
}

/** Inverse of days-from-civil (H. Hinnant): the Gregorian date of a day number since 1970. */
function civilFromDays(days: number): { year: number; month: number; day: number } {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra -
      Math.floor(dayOfEra / 1460) +
      Math.floor(dayOfEra / 36_524) -
      Math.floor(dayOfEra / 146_096)) /
      365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthIndex = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthIndex + 2) / 5) + 1;
  const month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  return { year, month, day };
}
