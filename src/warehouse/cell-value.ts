/**
 * Engine-neutral building blocks of `CellValue` (see database.ts): every connector converts
 * its driver's values with these, so the same data reads the same from every engine.
 */

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const MIN_SAFE = -MAX_SAFE;

/** An integer as a number when it fits exactly (|n| <= 2^53-1), else its exact decimal text. */
export function integerCell(value: bigint): number | string {
  return value >= MIN_SAFE && value <= MAX_SAFE ? Number(value) : value.toString();
}

const INTEGER_TEXT = /^[-+]?\d+$/;

/** Integer text from a driver ('9223372036854775807'); anything that is not an integer stays text. */
export function integerTextCell(text: string): number | string {
  if (!INTEGER_TEXT.test(text)) return text;
  // Up to 15 digits always fit a double exactly; only longer text needs the BigInt round trip.
  if (text.length <= 15) return Number(text);
  return integerCell(BigInt(text));
}

/** A double; NaN and ±Infinity become text since JSON cannot hold them. */
export function floatCell(value: number): number | string {
  if (Number.isFinite(value)) return value;
  if (Number.isNaN(value)) return 'NaN';
  return value > 0 ? 'Infinity' : '-Infinity';
}

/**
 * A single-precision float, widened to a double by the driver (0.1f arrives as
 * 0.10000000149011612), as the shortest decimal that reads back as the same float32 (0.1).
 */
export function float32Cell(value: number): number | string {
  if (!Number.isFinite(value)) return floatCell(value);
  const single = Math.fround(value);
  for (let digits = 1; digits <= 9; digits++) {
    const candidate = Number(single.toPrecision(digits));
    if (Math.fround(candidate) === single) return candidate;
  }
  return single;
}

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/** Bytes as '\x' + lowercase hex: PostgreSQL's bytea spelling, used for binary values of every engine. */
export function bytesCell(bytes: Uint8Array): string {
  let text = '\\x';
  for (const byte of bytes) text += HEX[byte];
  return text;
}

// 'YYYY-MM-DD HH:MM:SS[.fraction][Z|±HH[:MM[:SS]]|±HHMM]' with a real month and day.
const TIMESTAMP_TEXT =
  /^(\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01]))[ T]([01]\d|2[0-3])(:[0-5]\d:[0-5]\d)(?:\.(\d+))?(?:(Z)|([+-])(\d\d)(?::?(\d\d))?(?::(\d\d))?)?$/;

/**
 * Timestamp text of a driver ('2024-01-02 03:04:05.5+00') in the ISO form of `CellValue`
 * ('2024-01-02T03:04:05.500000Z'): `T` separator, the fraction padded to `fractionDigits`
 * when it is not zero, `Z` for a zero offset and `±HH:MM` otherwise. Text that is not such a
 * timestamp (BC years, 'infinity', MySQL's '0000-00-00 00:00:00') is returned unchanged.
 */
export function timestampTextCell(text: string, fractionDigits = 6): string {
  const match = TIMESTAMP_TEXT.exec(text);
  if (match === null) return text;
  const [, date, hour, minutesSeconds, fraction, zulu, sign, offsetHours, offsetMinutes, offsetSeconds] =
    match;
  const significant = (fraction ?? '').replace(/0+$/, '');
  const fractionPart = significant === '' ? '' : `.${significant.padEnd(fractionDigits, '0')}`;
  let zone = '';
  if (zulu !== undefined) {
    zone = 'Z';
  } else if (sign !== undefined) {
    const minutes = offsetMinutes ?? '00';
    const seconds = offsetSeconds ?? '00';
    if (offsetHours === '00' && minutes === '00' && seconds === '00') zone = 'Z';
    else zone = `${sign}${offsetHours}:${minutes}${seconds === '00' ? '' : `:${seconds}`}`;
  }
  return `${date}T${hour}${minutesSeconds}${fractionPart}${zone}`;
}

const ZONE_FORMATS = new Map<string, Intl.DateTimeFormat>();

/**
 * How far `zone` (an IANA name, UTC, or a fixed ±HH:MM offset) is ahead of UTC at the wall-clock
 * time `wallMs` of that zone (read as if it were UTC); undefined for a zone nao's Intl does not
 * know. Across a DST change the offset at the instant differs from the one at the wall-clock
 * guess, so it is taken twice.
 */
export function zoneOffsetMs(zone: string, wallMs: number): number | undefined {
  if (zone === 'UTC' || zone === 'Z' || zone === 'GMT') return 0;
  const fixed = /^([+-])(\d\d):?(\d\d)$/.exec(zone);
  if (fixed !== null)
    return (fixed[1] === '-' ? -1 : 1) * (Number(fixed[2]) * 60 + Number(fixed[3])) * 60_000;
  let format = ZONE_FORMATS.get(zone);
  if (format === undefined) {
    try {
      format = new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
      });
    } catch {
      return undefined;
    }
    ZONE_FORMATS.set(zone, format);
  }
  const known = format;
  // The zone's wall clock at an instant, read back as UTC, gives its offset there.
  const offsetAt = (instant: number) => {
    const parts = Object.fromEntries(known.formatToParts(instant).map((part) => [part.type, part.value]));
    const wall = Date.UTC(
      Number(parts.year),
      Number(parts.month) - 1,
      Number(parts.day),
      Number(parts.hour),
      Number(parts.minute),
      Number(parts.second),
    );
    return wall - Math.floor(instant / 1000) * 1000;
  };
  return offsetAt(wallMs - offsetAt(wallMs));
}

/** JSON text of a nested value; non-finite numbers inside were already turned into text by the callers. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
