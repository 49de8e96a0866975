import type { ColumnHint } from './column-type.js';
import {
  compareDecimals,
  type Decimal,
  decimalFromNumber,
  decimalKey,
  decimalToNumber,
  formatDecimal,
  isZero,
  parseDecimal,
  roundDecimal,
} from './decimal.js';
import { parseNumberText } from './parse-number.js';
import { type Instant, parseTemporal } from './parse-temporal.js';

/*
 * Kind codes of normalised cells. They double as the order across kinds:
 * null < boolean < number < NaN < temporal < text.
 */
export const KIND_NULL = 0;
export const KIND_BOOLEAN = 1;
export const KIND_NUMBER = 2;
export const KIND_NAN = 3;
export const KIND_TEMPORAL = 4;
export const KIND_TEXT = 5;

/**
 * A table's compared cells after normalisation, in typed arrays: a million-row result costs
 * a few bytes per cell and no object per cell. Kinds and doubles are row-major, so one row's
 * cells share a cache line or two; that is what makes checking a matched pair of rows cheap
 * when the rows are visited in random order.
 *
 * Per kind, what a cell holds:
 * - boolean: primary 0/1
 * - number: primary = the (rounded) value as a double; text = its exact decimal key when the
 *   double does not identify it (more than 15 significant digits, overflow, underflow)
 * - NaN: nothing (all NaNs are equal)
 * - temporal: primary = epoch seconds (±Infinity for infinite dates); secondary = nanoseconds
 *   (absent when zero); text = fraction digits beyond nanoseconds when there are any
 * - text: text = the string in Unicode NFC; primary = a 32-bit hash of it, computed while the
 *   string is scanned for NFC anyway, so keying rows never reads the string again
 */
export class NormalizedCells {
  readonly rowCount: number;
  readonly columnCount: number;
  /** Decimals numbers are rounded to; null keeps them as they are. */
  readonly decimals: number | null;
  readonly hints: readonly ColumnHint[];
  /** Kind of cell (row, column) at `row * columnCount + column`. */
  readonly kinds: Uint8Array;
  /** Primary double of cell (row, column) at `row * columnCount + column`. */
  readonly primary: Float64Array;
  /** Per column, by row; allocated for a column once one of its cells needs it. */
  readonly secondary: Array<Float64Array | null>;
  readonly text: Array<Array<string | undefined> | null>;
  /** Per column: a value with a fractional part (or ±Infinity) was seen, i.e. a measure. */
  readonly fractional: boolean[];

  constructor(options: { rowCount: number; hints: readonly ColumnHint[]; decimals: number | null }) {
    this.rowCount = options.rowCount;
    this.columnCount = options.hints.length;
    this.decimals = options.decimals;
    this.hints = options.hints;
    this.kinds = new Uint8Array(this.rowCount * this.columnCount);
    this.primary = new Float64Array(this.rowCount * this.columnCount);
    this.secondary = options.hints.map(() => null);
    this.text = options.hints.map(() => null);
    this.fractional = options.hints.map(() => false);
  }

  /** Normalises `value` into cell (row, column). Never throws, whatever the value is. */
  set(row: number, column: number, value: unknown): void {
    switch (typeof value) {
      case 'number':
        storeNumber(this, row, column, value);
        return;
      case 'string':
        storeString(this, row, column, value);
        return;
      case 'boolean': {
        const cell = row * this.columnCount + column;
        this.kinds[cell] = KIND_BOOLEAN;
        this.primary[cell] = value ? 1 : 0;
        return;
      }
      case 'bigint':
        storeDecimal(this, row, column, rounded(this, parseDecimal(value.toString()) as Decimal));
        return;
      case 'undefined':
        storeKindOnly(this, row * this.columnCount + column, KIND_NULL);
        return;
      case 'object':
        if (value === null) storeKindOnly(this, row * this.columnCount + column, KIND_NULL);
        else if (value instanceof Date) storeDate(this, row, column, value);
        else storeTextAt(this, row, column, stringify(value));
        return;
      default:
        storeTextAt(this, row, column, String(value));
    }
  }

  /**
   * Normalises one row given as an array: `values[positions[column]]` into each column. The
   * same cells as `set` on each value; numbers, NULL, plain text and ISO dates, which make up
   * most results, are written here without going through `set`: one compact loop instead of a
   * call and a dispatch per cell.
   */
  setRow(row: number, values: ReadonlyArray<unknown>, positions: readonly number[]): void {
    const { kinds, primary, columnCount, hints, secondary } = this;
    const rowStart = row * columnCount;
    for (let column = 0; column < columnCount; column++) {
      const value = values[positions[column]!];
      const cell = rowStart + column;
      if (typeof value === 'number') {
        if (Number.isInteger(value)) {
          kinds[cell] = KIND_NUMBER;
          primary[cell] = value === 0 ? 0 : value;
        } else {
          storeNumber(this, row, column, value);
        }
        continue;
      }
      if (typeof value === 'string') {
        const length = value.length;
        // The empty string goes the general way.
        const start = length === 0 ? 0x80 : value.charCodeAt(0);
        if (start < 0x80 && MAY_START_VALUE[start] === 0) {
          storeTextAt(this, row, column, value);
          continue;
        }
        // An ISO date or timestamp, as storeString reads it (it starts with a digit, and the
        // grammar ends with no space, so trimming would change nothing).
        if (
          start >= 48 &&
          start <= 57 &&
          length >= 10 &&
          value.charCodeAt(4) === 45 &&
          hints[column] !== 'number' &&
          parseTemporal(value, scratchInstant)
        ) {
          if (scratchInstant.nanos === 0 && scratchInstant.beyondNanos === '' && secondary[column] === null) {
            kinds[cell] = KIND_TEMPORAL;
            primary[cell] = scratchInstant.epochSeconds;
          } else {
            storeInstant(this, row, column, scratchInstant);
          }
          continue;
        }
      } else if (value === null) {
        kinds[cell] = KIND_NULL;
        primary[cell] = 0;
        continue;
      }
      this.set(row, column, value);
    }
  }

  /**
   * Forgets the text and secondary slots of every cell, so the cells can be filled again
   * (`set` always writes kind and primary). `fractional` keeps what was seen.
   */
  reset(): void {
    for (const slots of this.text) slots?.fill(undefined);
    for (const slots of this.secondary) slots?.fill(0);
  }

  /** The text slot of a cell (string, exact key or extra fraction digits), if any. */
  textAt(row: number, column: number): string | undefined {
    return this.text[column]?.[row];
  }

  secondaryAt(row: number, column: number): number {
    return this.secondary[column]?.[row] ?? 0;
  }

  /** The exact decimal of a number cell; null for ±Infinity. */
  decimalAt(row: number, column: number): Decimal | null {
    const key = this.textAt(row, column);
    if (key !== undefined) return parseDecimal(key);
    return decimalFromNumber(this.primary[row * this.columnCount + column]!);
  }
}

// Cell writers. Positional arguments on purpose: they run once per cell of the input, and take
// the row and the column so that no writer divides to find them.

const POW10 = Array.from({ length: 23 }, (_, exponent) => 10 ** exponent);
const SMALLEST_NORMAL = 2.2250738585072014e-308;
const scratchInstant: Instant = { epochSeconds: 0, nanos: 0, beyondNanos: '' };

function textSlots(cells: NormalizedCells, column: number): Array<string | undefined> {
  let slots = cells.text[column];
  if (slots === null || slots === undefined) {
    slots = new Array<string | undefined>(cells.rowCount);
    cells.text[column] = slots;
  }
  return slots;
}

function setSecondary(cells: NormalizedCells, row: number, column: number, value: number): void {
  let slots = cells.secondary[column];
  if (slots === null || slots === undefined) {
    if (value === 0) return;
    slots = new Float64Array(cells.rowCount);
    cells.secondary[column] = slots;
  }
  slots[row] = value;
}

function rounded(cells: NormalizedCells, decimal: Decimal): Decimal {
  return cells.decimals === null ? decimal : roundDecimal(decimal, cells.decimals);
}

/** NULL and NaN: the kind says it all; primary is zeroed so rows compare by kinds and doubles. */
function storeKindOnly(cells: NormalizedCells, cell: number, kind: number): void {
  cells.kinds[cell] = kind;
  cells.primary[cell] = 0;
}

function storeNumber(cells: NormalizedCells, row: number, column: number, value: number): void {
  const cell = row * cells.columnCount + column;
  if (Number.isNaN(value)) {
    storeKindOnly(cells, cell, KIND_NAN);
    return;
  }
  cells.kinds[cell] = KIND_NUMBER;
  if (Number.isInteger(value)) {
    cells.primary[cell] = value === 0 ? 0 : value;
    return;
  }
  cells.fractional[column] = true;
  const decimals = cells.decimals;
  if (decimals === null || !Number.isFinite(value)) {
    cells.primary[cell] = value;
    return;
  }
  const result = roundDouble(value, decimals);
  if (Number.isNaN(result)) {
    storeDecimal(cells, row, column, roundDecimal(decimalFromNumber(value) as Decimal, decimals));
    return;
  }
  cells.primary[cell] = result === 0 ? 0 : result;
}

/**
 * Rounds the decimal a finite, non-integer double stands for (its shortest form), half away
 * from zero, without leaving doubles; NaN when the value is too large for that to be exact,
 * so the caller rounds the digits instead.
 */
function roundDouble(value: number, decimals: number): number {
  const magnitude = Math.abs(value);
  // A double has at most 17 significant digits: none of them is below 10^-decimals here.
  if (magnitude >= (POW10[18 - decimals] ?? 10 ** (18 - decimals))) return value;
  const scale = POW10[decimals];
  if (scale === undefined) return Number.NaN;
  const scaled = magnitude * scale;
  // Below 1e11 the product is within 4e-5 of the decimal's exact product: its integer part is
  // right whenever the fraction is near one half, the only place where the direction is in doubt.
  if (!(scaled < 1e11)) return Number.NaN;
  const whole = Math.floor(scaled);
  const fraction = scaled - whole;
  let units: number;
  if (Math.abs(fraction - 0.5) >= 1e-4) {
    units = fraction > 0.5 ? whole + 1 : whole;
  } else {
    // The tie (whole + 0.5) / 10^decimals has at most 12 digits, so its double (one correctly
    // rounded division) is the value exactly when the decimal is the tie itself; any other
    // decimal falls on the same side of it as its double.
    const tie = (2 * whole + 1) / (2 * scale);
    units = magnitude >= tie ? whole + 1 : whole;
  }
  if (units === 0) return 0;
  // units / 10^decimals is one correctly rounded division: the double nearest the decimal.
  const result = units / scale;
  return value < 0 ? -result : result;
}

function storeDecimal(cells: NormalizedCells, row: number, column: number, decimal: Decimal): void {
  const cell = row * cells.columnCount + column;
  const value = decimalToNumber(decimal);
  cells.kinds[cell] = KIND_NUMBER;
  cells.primary[cell] = value === 0 ? 0 : value;
  const magnitude = Math.abs(value);
  const identifiedByDouble =
    decimal.coefficient.length <= 15 &&
    Number.isFinite(value) &&
    (magnitude >= SMALLEST_NORMAL || (value === 0 && isZero(decimal)));
  if (!identifiedByDouble) textSlots(cells, column)[row] = decimalKey(decimal);
}

/**
 * ASCII characters that may begin something other than text: digits (numbers, dates), spaces
 * (trimmed before reading) and the starts of formatted numbers and special values (sign,
 * point, parenthesis, `$`, n/i of nan/inf). Text starting with any other ASCII character is
 * text as given, which settles most text columns after one look.
 */
const MAY_START_VALUE = new Uint8Array(128);
for (const character of '0123456789+-.($nNiI \t\n\v\f\r') MAY_START_VALUE[character.charCodeAt(0)] = 1;

function storeString(cells: NormalizedCells, row: number, column: number, value: string): void {
  if (value.length > 0) {
    const start = value.charCodeAt(0);
    if (start < 0x80 && MAY_START_VALUE[start] === 0) {
      storeTextAt(cells, row, column, value);
      return;
    }
  }
  const cell = row * cells.columnCount + column;
  let text = value;
  if (text.length > 0 && (isSpace(text.charCodeAt(0)) || isSpace(text.charCodeAt(text.length - 1)))) {
    text = text.trim();
  }
  if (text.length > 0) {
    const first = text.charCodeAt(0);
    const hint = cells.hints[column];
    if (hint === 'temporal' && (first === 105 || first === 73 || first === 45 || first === 43)) {
      const infinite = INFINITE_DATE.exec(text);
      if (infinite !== null) {
        cells.kinds[cell] = KIND_TEMPORAL;
        cells.primary[cell] = infinite[1] === '-' ? -Infinity : Infinity;
        return;
      }
    }
    if (first >= 48 && first <= 57) {
      if (
        hint !== 'number' &&
        text.length >= 10 &&
        text.charCodeAt(4) === 45 &&
        parseTemporal(text, scratchInstant)
      ) {
        storeInstant(cells, row, column, scratchInstant);
        return;
      }
      if (storeNumberText(cells, row, column, text)) return;
    } else if (mayStartNumber(first)) {
      if (storeNumberText(cells, row, column, text)) return;
    }
  }
  storeTextAt(cells, row, column, value);
}

const INFINITE_DATE = /^([+-]?)infinity$/i;

// Sign, point, parenthesis, minus sign, currency symbols, and n/i of nan/inf.
const NUMBER_STARTS = '+-.(\u2212$€£¥₹₩₽₺₪₫฿₴₦₱nNiI';

function mayStartNumber(code: number): boolean {
  // Letters and most text start below U+0080 with none of these: one range test decides.
  if (code < 0x80)
    return (
      code === 43 ||
      code === 45 ||
      code === 46 ||
      code === 40 ||
      code === 36 ||
      code === 110 ||
      code === 78 ||
      code === 105 ||
      code === 73
    );
  return NUMBER_STARTS.includes(String.fromCharCode(code));
}

function isSpace(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13) || code === 0xa0 || code === 0x202f || code === 0x2009;
}

function storeNumberText(cells: NormalizedCells, row: number, column: number, text: string): boolean {
  const plain = plainNumber(text);
  if (!Number.isNaN(plain)) {
    storeNumber(cells, row, column, plain);
    return true;
  }
  const parsed = parseNumberText(text);
  if (parsed === null) return false;
  const cell = row * cells.columnCount + column;
  if (parsed.kind === 'nan') {
    storeKindOnly(cells, cell, KIND_NAN);
    return true;
  }
  if (parsed.kind === 'infinity') {
    cells.kinds[cell] = KIND_NUMBER;
    cells.primary[cell] = parsed.negative ? -Infinity : Infinity;
    cells.fractional[column] = true;
    return true;
  }
  if (parsed.percent) {
    storeTextAt(cells, row, column, `${formatDecimal(rounded(cells, parsed.value))}%`);
    return true;
  }
  if (parsed.value.exponent < 0) cells.fractional[column] = true;
  storeDecimal(cells, row, column, rounded(cells, parsed.value));
  return true;
}

/**
 * The double of a short plain decimal ("-1234.50") when it identifies the decimal exactly
 * (at most 15 significant digits, no exponent), else NaN. The common engine output skips the
 * general parser this way.
 */
function plainNumber(text: string): number {
  const length = text.length;
  if (length > 20) return Number.NaN;
  let position = text.charCodeAt(0) === 45 ? 1 : 0;
  const integerStart = position;
  while (position < length && isDigitCode(text.charCodeAt(position))) position++;
  const integerLength = position - integerStart;
  if (integerLength === 0 || (integerLength > 1 && text.charCodeAt(integerStart) === 48)) return Number.NaN;
  let digitCount = integerLength;
  if (position < length) {
    if (text.charCodeAt(position) !== 46) return Number.NaN;
    position++;
    const fractionStart = position;
    while (position < length && isDigitCode(text.charCodeAt(position))) position++;
    if (position !== length || position === fractionStart) return Number.NaN;
    digitCount += position - fractionStart;
  }
  // Counting leading zeros as significant only makes this stricter.
  if (digitCount > 15) return Number.NaN;
  return Number(text);
}

function isDigitCode(code: number): boolean {
  return code >= 48 && code <= 57;
}

function storeInstant(cells: NormalizedCells, row: number, column: number, instant: Instant): void {
  const cell = row * cells.columnCount + column;
  cells.kinds[cell] = KIND_TEMPORAL;
  cells.primary[cell] = instant.epochSeconds;
  setSecondary(cells, row, column, instant.nanos);
  if (instant.beyondNanos !== '') textSlots(cells, column)[row] = instant.beyondNanos;
}

function storeDate(cells: NormalizedCells, row: number, column: number, value: Date): void {
  const milliseconds = value.getTime();
  if (Number.isNaN(milliseconds)) {
    storeTextAt(cells, row, column, 'Invalid Date');
    return;
  }
  const seconds = Math.floor(milliseconds / 1000);
  storeInstant(cells, row, column, {
    epochSeconds: seconds,
    nanos: (milliseconds - seconds * 1000) * 1_000_000,
    beyondNanos: '',
  });
}

/**
 * Stores a text cell: the string in NFC (canonically equivalent strings, "é" precomposed or
 * e + U+0301, are the same text) and its hash.
 */
function storeTextAt(cells: NormalizedCells, row: number, column: number, value: string): void {
  const cell = row * cells.columnCount + column;
  let text = value;
  let hash = plainTextHash(value);
  if (hash < 0) {
    text = value.normalize('NFC');
    hash = textHash(text);
  }
  cells.kinds[cell] = KIND_TEXT;
  cells.primary[cell] = hash;
  textSlots(cells, column)[row] = text;
}

/**
 * The hash of a text cell (FNV-1a over UTF-16 code units, mixed with the length) when `text`
 * is NFC for sure: no code unit from U+0300 up, below which everything is NFC. -1 otherwise.
 */
function plainTextHash(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code >= 0x300) return -1;
    hash = Math.imul(hash ^ code, 0x01000193);
  }
  return (hash ^ text.length) >>> 0;
}

export function textHash(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++)
    hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193);
  return (hash ^ text.length) >>> 0;
}

function stringify(value: object): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * Whether two values as given certainly normalise to equal cells, the first in a column with
 * `hintA`, the second with `hintB`, decided without normalising either: they are the same
 * value, and the hints read it alike (a hint changes how text reads only for dates and
 * 'infinity'). False means "compare the normalised cells", not "different".
 */
export function readsSame(a: unknown, b: unknown, hintA: ColumnHint, hintB: ColumnHint): boolean {
  if (a !== b) return false;
  if (typeof a !== 'string' || hintA === hintB || a.length === 0) return true;
  const start = a.charCodeAt(0);
  if (start < 0x80 && MAY_START_VALUE[start] === 0) return true;
  // A leading digit: a date under any hint but 'number', never an infinity.
  return start >= 48 && start <= 57 && hintA !== 'number' && hintB !== 'number';
}

/**
 * A total order over the cells of one column in two tables (or one): `compare(i, j, column)`
 * orders row i of `a` against row j of `b`, and is 0 exactly when the values are equal.
 */
export function cellComparator(
  a: NormalizedCells,
  b: NormalizedCells,
): (i: number, j: number, column: number) => number {
  const aKinds = a.kinds;
  const bKinds = b.kinds;
  const aPrimary = a.primary;
  const bPrimary = b.primary;
  const aWidth = a.columnCount;
  const bWidth = b.columnCount;
  return (i, j, column) => {
    const aCell = i * aWidth + column;
    const bCell = j * bWidth + column;
    const kind = aKinds[aCell]!;
    const otherKind = bKinds[bCell]!;
    if (kind !== otherKind) return kind - otherKind;
    if (kind === KIND_TEXT) {
      const x = a.text[column]![i]!;
      const y = b.text[column]![j]!;
      return x === y ? 0 : x < y ? -1 : 1;
    }
    if (kind === KIND_NULL || kind === KIND_NAN) return 0;
    const x = aPrimary[aCell]!;
    const y = bPrimary[bCell]!;
    if (x !== y) return x < y ? -1 : 1;
    if (kind === KIND_NUMBER) {
      const aText = a.text[column];
      const bText = b.text[column];
      if (aText === null && bText === null) return 0;
      return compareNumberTie(aText?.[i], bText?.[j], x);
    }
    if (kind === KIND_TEMPORAL) {
      const nanos = a.secondaryAt(i, column) - b.secondaryAt(j, column);
      if (nanos !== 0) return nanos;
      const x2 = a.textAt(i, column) ?? '';
      const y2 = b.textAt(j, column) ?? '';
      // Fraction digits without trailing zeros order as strings.
      return x2 === y2 ? 0 : x2 < y2 ? -1 : 1;
    }
    return 0;
  };
}

/** Two numbers with the same double: their exact decimals decide. */
function compareNumberTie(keyA: string | undefined, keyB: string | undefined, double: number): number {
  if (keyA === keyB) return 0;
  const a = keyA === undefined ? decimalFromNumber(double) : parseDecimal(keyA);
  const b = keyB === undefined ? decimalFromNumber(double) : parseDecimal(keyB);
  // Null is a true infinity, beyond any finite decimal that overflowed to the same double.
  if (a === null || b === null) {
    if (a === b) return 0;
    const infiniteFirst = a === null ? 1 : -1;
    return double > 0 ? infiniteFirst : -infiniteFirst;
  }
  return compareDecimals(a, b);
}
