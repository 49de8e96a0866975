/**
 * ISO dates and timestamps as instants, so that a DATE, a naive TIMESTAMP and a TIMESTAMPTZ
 * meaning the same moment compare equal. Written by hand: it runs on every date cell of
 * million-row results and must not allocate.
 */

/** An instant: whole seconds since 1970-01-01T00:00:00Z plus the fraction, exactly. */
export interface Instant {
  epochSeconds: number;
  /** Nanoseconds within the second, 0…999,999,999. */
  nanos: number;
  /** Fraction digits beyond the ninth, without trailing zeros ('' almost always). */
  beyondNanos: string;
}

/**
 * Reads `YYYY-MM-DD`, optionally followed by `T` or a space and `HH:MM`, `HH:MM:SS` or
 * `HH:MM:SS.f…` (any number of fraction digits, kept exactly), optionally followed by `Z` or an
 * offset `±HH`, `±HHMM`, `±HH:MM` or `±HH:MM:SS` (Postgres prints `+00` and historic `+05:53:28`).
 * A value without offset is taken as UTC. Impossible dates (2023-02-29, 25:00) are not
 * instants, so they stay text. Returns false when `text` is not such a value; on success the
 * result is written into `into`.
 */
export function parseTemporal(text: string, into: Instant): boolean {
  const length = text.length;
  if (length < 10 || text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45) return false;
  const century = twoDigits(text, 0);
  const yearOfCentury = twoDigits(text, 2);
  const month = twoDigits(text, 5);
  const day = twoDigits(text, 8);
  if (century < 0 || yearOfCentury < 0 || month < 1 || month > 12 || day < 1) return false;
  const year = century * 100 + yearOfCentury;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  if (day > (month === 2 ? (leap ? 29 : 28) : DAYS_IN_MONTH[month]!)) return false;
  let seconds = epochDays({ year, month, day, leap }) * 86_400;
  let nanos = 0;
  let beyondNanos = '';
  let position = 10;
  if (position < length) {
    const separator = text.charCodeAt(position);
    if (separator !== 84 && separator !== 116 && separator !== 32) return false;
    const hour = twoDigits(text, position + 1);
    if (hour < 0 || hour > 23 || text.charCodeAt(position + 3) !== 58) return false;
    const minute = twoDigits(text, position + 4);
    if (minute < 0 || minute > 59) return false;
    seconds += hour * 3600 + minute * 60;
    position += 6;
    if (position < length && text.charCodeAt(position) === 58) {
      const second = twoDigits(text, position + 1);
      if (second < 0 || second > 59) return false;
      seconds += second;
      position += 3;
      if (position < length && text.charCodeAt(position) === 46) {
        const start = position + 1;
        let end = start;
        while (end < length && isDigit(text.charCodeAt(end))) end++;
        if (end === start) return false;
        for (let index = start; index < start + 9; index++) {
          nanos = nanos * 10 + (index < end ? text.charCodeAt(index) - 48 : 0);
        }
        if (end > start + 9) beyondNanos = text.slice(start + 9, end).replace(/0+$/, '');
        position = end;
      }
    }
    if (position < length) {
      const offset = parseOffset(text, position);
      if (offset === null) return false;
      seconds -= offset;
    }
  }
  into.epochSeconds = seconds;
  into.nanos = nanos;
  into.beyondNanos = beyondNanos;
  return true;
}

const DAYS_IN_MONTH = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const DAYS_BEFORE_MONTH = [0, 0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334];
/** Leap days in years 1…1969 of the proleptic Gregorian calendar. */
const LEAP_DAYS_BEFORE_1970 = 477;

/** Days since 1970-01-01 of a valid Gregorian date (proleptic, year 0 included). */
function epochDays(date: { year: number; month: number; day: number; leap: boolean }): number {
  const { year, month, day, leap } = date;
  const previous = year - 1;
  const leapDays = Math.floor(previous / 4) - Math.floor(previous / 100) + Math.floor(previous / 400);
  return (
    365 * (year - 1970) +
    leapDays -
    LEAP_DAYS_BEFORE_1970 +
    DAYS_BEFORE_MONTH[month]! +
    (leap && month > 2 ? 1 : 0) +
    day -
    1
  );
}

/** Seconds east of UTC for the zone suffix starting at `position`, or null if malformed. */
function parseOffset(text: string, position: number): number | null {
  const length = text.length;
  const sign = text.charCodeAt(position);
  if (sign === 90 || sign === 122) return position + 1 === length ? 0 : null;
  if (sign !== 43 && sign !== 45) return null;
  const hours = twoDigits(text, position + 1);
  if (hours < 0 || hours > 23) return null;
  let total = hours * 3600;
  let cursor = position + 3;
  if (cursor < length) {
    if (text.charCodeAt(cursor) === 58) cursor++;
    const minutes = twoDigits(text, cursor);
    if (minutes < 0 || minutes > 59) return null;
    total += minutes * 60;
    cursor += 2;
    if (cursor < length) {
      if (text.charCodeAt(cursor) !== 58) return null;
      const secondsPart = twoDigits(text, cursor + 1);
      if (secondsPart < 0 || secondsPart > 59) return null;
      total += secondsPart;
      cursor += 3;
    }
  }
  if (cursor !== length) return null;
  return sign === 45 ? -total : total;
}

/** The number written by the two digits at `start`, or -1 when either is not a digit. */
function twoDigits(text: string, start: number): number {
  const tens = text.charCodeAt(start) - 48;
  const units = text.charCodeAt(start + 1) - 48;
  // NaN (past the end) and non-digits both fail the unsigned range test.
  return tens >>> 0 > 9 || units >>> 0 > 9 ? -1 : tens * 10 + units;
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}
