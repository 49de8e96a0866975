import {
  bytesCell,
  float32Cell,
  floatCell,
  integerTextCell,
  timestampTextCell,
  zoneOffsetMs,
} from '../cell-value.js';
import type { CellValue } from '../database.js';
import { unescapeField } from './clickhouse-tsv.js';

/**
 * ClickHouse values → `CellValue`, by the column type the server names in the header of
 * `TabSeparatedWithNamesAndTypes`. Every value arrives as the server's exact text (already
 * unescaped, as bytes), so 64-, 128- and 256-bit integers and decimals keep every digit and
 * DateTime64 keeps its precision.
 *
 * Time zones: a `DateTime('Europe/Berlin')` / `DateTime64(3, 'UTC')` value is printed in its
 * column's zone and is an instant, so it is given in UTC with `Z`; a DateTime without a zone is
 * printed in the server's zone and kept as that wall-clock time, as ClickHouse shows it.
 */
export type ClickHouseCellConverter = (raw: Buffer) => CellValue;

const UTF8 = new TextDecoder('utf-8', { fatal: true });
const text = (bytes: Buffer) => bytes.toString('utf8');

/** Text, or '\x' hex when the bytes are not UTF-8 (ClickHouse strings are bytes: binary data is a String). */
function stringCell(bytes: Buffer): string {
  try {
    return UTF8.decode(bytes);
  } catch {
    return bytesCell(bytes);
  }
}

/** The type inside `Nullable(…)` and `LowCardinality(…)`, which change nothing of a value's text. */
export function baseType(type: string): string {
  const match = /^(?:Nullable|LowCardinality)\((.*)\)$/.exec(type);
  return match === null ? type : baseType(match[1]!);
}

/** The converter of a raw TSV field of a column of ClickHouse type `type` (e.g. `Nullable(Decimal(38, 10))`). */
export function clickHouseCellConverter(type: string): ClickHouseCellConverter {
  const base = baseType(type);
  if (/^(Array|Tuple)\(/.test(base)) return (raw) => nestedCell(raw.toString('utf8'));
  const scalar = scalarConverter(base);
  return (raw) => {
    const bytes = unescapeField(raw);
    return bytes === null ? null : scalar(bytes);
  };
}

function scalarConverter(base: string): (bytes: Buffer) => CellValue {
  if (/^U?Int(8|16|32)$/.test(base)) return (bytes) => Number(text(bytes));
  if (/^U?Int(64|128|256)$/.test(base)) return (bytes) => integerTextCell(text(bytes));
  if (base === 'Float32') return (bytes) => float32Cell(floatNumber(text(bytes)));
  if (base === 'Float64') return (bytes) => floatCell(floatNumber(text(bytes)));
  if (base === 'Bool') return (bytes) => text(bytes) === 'true';
  if (base === 'Nothing') return () => null;
  if (base === 'String' || base.startsWith('FixedString(')) return stringCell;
  const dateTime = /^DateTime(?:64)?(?:\((?:(\d+))?(?:\s*,\s*)?(?:'([^']+)')?\))?$/.exec(base);
  if (dateTime !== null) {
    const precision = dateTime[1] === undefined ? 0 : Number(dateTime[1]);
    const zone = dateTime[2];
    return (bytes) => {
      const value = text(bytes);
      return zone === undefined ? timestampTextCell(value, precision) : zonedToUtc(value, zone, precision);
    };
  }
  // Decimal, Date, UUID, IPv4, Enum, Map…: ClickHouse's own text.
  return stringCell;
}

const BARE_END = /[,\])}:\s]/;

/**
 * An array or tuple literal ("['a\\'b',NULL]", "(1,'x')") as JSON text ('["a'b",null]', '[1,"x"]'):
 * tuples become arrays, numbers keep every digit, nan/inf the texts of CellValue, NULL null.
 * Text it cannot read (a Map inside, a malformed literal) stays ClickHouse's.
 */
export function nestedCell(text: string): string {
  let json = '';
  let index = 0;
  while (index < text.length) {
    const char = text[index]!;
    if (char === '[' || char === '(') {
      json += '[';
      index++;
    } else if (char === ']' || char === ')') {
      json += ']';
      index++;
    } else if (char === ',') {
      json += ',';
      index++;
    } else if (char === ' ') {
      index++;
    } else if (char === "'") {
      let value = '';
      index++;
      while (index < text.length && text[index] !== "'") {
        if (text[index] === '\\' && index + 1 < text.length) {
          const next = text[index + 1]!;
          value += QUOTED_ESCAPES[next] ?? next;
          index += 2;
        } else {
          value += text[index++];
        }
      }
      if (index >= text.length) return text;
      index++;
      json += JSON.stringify(value);
    } else {
      let end = index;
      while (end < text.length && !BARE_END.test(text[end]!)) end++;
      const token = text.slice(index, end);
      if (token === '') return text;
      json += bareToken(token);
      index = end;
    }
  }
  try {
    JSON.parse(json);
    return json;
  } catch {
    return text;
  }
}

const QUOTED_ESCAPES: Record<string, string> = {
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  '0': '\0',
  a: '\u0007',
  v: '\v',
};

function bareToken(token: string): string {
  if (token === 'NULL') return 'null';
  if (token === 'true' || token === 'false') return token;
  if (token === 'nan' || token === '-nan') return '"NaN"';
  if (token === 'inf' || token === '+inf') return '"Infinity"';
  if (token === '-inf') return '"-Infinity"';
  return /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(token) ? token : JSON.stringify(token);
}

/** ClickHouse prints non-finite floats as nan, inf, -inf (and +inf from some functions). */
function floatNumber(value: string): number {
  if (value === 'nan' || value === '-nan') return Number.NaN;
  if (value === 'inf' || value === '+inf') return Number.POSITIVE_INFINITY;
  if (value === '-inf') return Number.NEGATIVE_INFINITY;
  return Number(value);
}

const WALL_CLOCK =
  /^(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01]) ([01]\d|2[0-3]):([0-5]\d):([0-5]\d)(\.\d+)?$/;

/** A wall-clock time of IANA zone `zone` ('2024-01-02 04:04:05.5' in Europe/Berlin) as UTC ISO text with `Z`. */
export function zonedToUtc(value: string, zone: string, precision: number): string {
  const match = WALL_CLOCK.exec(value);
  if (match === null) return value;
  const [, year, month, day, hour, minute, second, fraction] = match;
  const wall = Date.UTC(
    Number(year),
    Number(month) - 1,
    Number(day),
    Number(hour),
    Number(minute),
    Number(second),
  );
  const offset = zoneOffsetMs(zone, wall);
  if (offset === undefined) return value;
  const utc = new Date(wall - offset).toISOString().slice(0, 19);
  return timestampTextCell(`${utc.replace('T', ' ')}${fraction ?? ''}Z`, precision);
}
