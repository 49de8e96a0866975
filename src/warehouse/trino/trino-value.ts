/**
 * Trino's JSON values (as its client protocol encodes them) as nao's `CellValue`s, per column
 * type as Trino spells it ('decimal(38,10)', 'timestamp(6) with time zone', 'array(integer)').
 * Athena answers in Trino's types too, but as text (athena-value.ts).
 */
import {
  bytesCell,
  float32Cell,
  floatCell,
  integerTextCell,
  timestampTextCell,
  zoneOffsetMs,
} from '../cell-value.js';
import type { CellValue } from '../database.js';

export type TrinoCellConverter = (value: unknown) => CellValue;

const NON_FINITE: Record<string, string> = { NaN: 'NaN', Infinity: 'Infinity', '-Infinity': '-Infinity' };

/** The base name of a type ('timestamp' of 'timestamp(3) with time zone') and its precision when given. */
export function trinoTypeParts(type: string): {
  base: string;
  precision: number | undefined;
  zoned: boolean;
} {
  const match = /^([a-z ]+?)\s*(?:\((\d+)(?:,\s*\d+)?\))?(\s+with time zone)?$/i.exec(type.trim());
  if (match === null)
    return { base: type.replace(/\(.*$/s, '').trim().toLowerCase(), precision: undefined, zoned: false };
  return {
    base: match[1]!.toLowerCase(),
    precision: match[2] === undefined ? undefined : Number(match[2]),
    zoned: match[3] !== undefined,
  };
}

/** How each value of a column of this type becomes a `CellValue`. */
export function trinoCellConverter(type: string): TrinoCellConverter {
  const { base, precision, zoned } = trinoTypeParts(type);
  const cell =
    (convert: (value: unknown) => CellValue): TrinoCellConverter =>
    (value) =>
      value === null || value === undefined ? null : convert(value);
  switch (base) {
    case 'tinyint':
    case 'smallint':
    case 'integer':
    case 'bigint':
      return cell((value) => integerTextCell(String(value)));
    case 'double':
      return cell((value) =>
        typeof value === 'number' ? floatCell(value) : (NON_FINITE[String(value)] ?? String(value)),
      );
    case 'real':
      return cell((value) =>
        typeof value === 'number' ? float32Cell(value) : (NON_FINITE[String(value)] ?? String(value)),
      );
    case 'boolean':
      return cell((value) => value === true || value === 'true');
    case 'varbinary':
      return cell((value) => bytesCell(Buffer.from(String(value), 'base64')));
    case 'timestamp':
      return cell((value) =>
        zoned
          ? zonedTimestampCell(String(value), precision ?? 3)
          : timestampTextCell(String(value), precision ?? 3),
      );
    case 'array':
    case 'map':
    case 'row':
      return cell((value) => JSON.stringify(value));
    default:
      // decimal (exact text with its scale), varchar, char, date, time, json, uuid, interval…
      return cell((value) => (typeof value === 'string' ? value : JSON.stringify(value)));
  }
}

const ZONED = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)(?:\.(\d+))? (.+)$/;

/**
 * '2024-01-02 03:04:05.123456 +02:00' or '… Europe/Paris' (Trino keeps each value's zone) as
 * the instant in UTC: '2024-01-02T01:04:05.123456Z'. Text of another shape is kept as it is.
 */
export function zonedTimestampCell(text: string, fractionDigits: number): string {
  const match = ZONED.exec(text);
  if (match === null) return text;
  const [, date, time, fraction = '', zone] = match;
  const local = Date.parse(`${date}T${time}Z`);
  if (Number.isNaN(local)) return text;
  const offsetMs = zoneOffsetMs(zone!, local);
  if (offsetMs === undefined) return text;
  const utc = new Date(local - offsetMs).toISOString().slice(0, 19).replace('T', ' ');
  return timestampTextCell(`${utc}${fraction === '' ? '' : `.${fraction}`}Z`, fractionDigits);
}
