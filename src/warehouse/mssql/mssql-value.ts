/**
 * SQL Server column types and values as tedious decodes them (with `useUTC`), turned into
 * nao's type names and `CellValue`s (see database.ts).
 *
 * tedious hands BIGINT as exact text, DATETIME2/DATETIMEOFFSET/TIME as a JS Date plus a
 * hidden `nanosecondsDelta` (the part of the second below the millisecond), which is read
 * here to keep all 7 digits SQL Server stores. DECIMAL/NUMERIC/MONEY arrive as exact text
 * (mssql-exact-decimals.ts); should that decoder be missing, as tedious' own double, exact up
 * to 15 significant digits, beyond which nao can only give the double's shortest text.
 */
import { bytesCell, float32Cell, floatCell, integerTextCell, timestampTextCell } from '../cell-value.js';
import type { CellValue } from '../database.js';

/** What tedious says of a result column (its `ColumnMetadata`). */
export interface TdsColumn {
  colName: string;
  type: { name: string };
  dataLength?: number | undefined;
  precision?: number | undefined;
  scale?: number | undefined;
}

/** tedious' length of a (MAX) column. */
const MAX_LENGTH = 0xffff;

function sized(name: string, bytes: number | undefined, bytesPerChar: number): string {
  if (bytes === undefined) return name;
  return bytes === MAX_LENGTH ? `${name}(max)` : `${name}(${bytes / bytesPerChar})`;
}

/** The column's type as SQL Server spells it: int, decimal(38,10), nvarchar(4000), datetime2(7)… */
export function mssqlTypeName(column: TdsColumn): string {
  const { dataLength, precision, scale } = column;
  switch (column.type.name) {
    case 'IntN':
      return (
        ({ 1: 'tinyint', 2: 'smallint', 4: 'int', 8: 'bigint' } as Record<number, string>)[dataLength ?? 4] ??
        'int'
      );
    case 'FloatN':
      return dataLength === 4 ? 'real' : 'float';
    case 'BitN':
      return 'bit';
    case 'DecimalN':
    case 'Decimal':
      return `decimal(${precision},${scale})`;
    case 'NumericN':
    case 'Numeric':
      return `numeric(${precision},${scale})`;
    case 'MoneyN':
      return dataLength === 4 ? 'smallmoney' : 'money';
    case 'DateTimeN':
      return dataLength === 4 ? 'smalldatetime' : 'datetime';
    case 'NVarChar':
      return sized('nvarchar', dataLength, 2);
    case 'NChar':
      return sized('nchar', dataLength, 2);
    case 'VarChar':
      return sized('varchar', dataLength, 1);
    case 'Char':
      return sized('char', dataLength, 1);
    case 'VarBinary':
      return sized('varbinary', dataLength, 1);
    case 'Binary':
      return sized('binary', dataLength, 1);
    case 'DateTime2':
    case 'DateTimeOffset':
    case 'Time':
      return `${column.type.name.toLowerCase()}(${scale ?? 7})`;
    case 'Variant':
      return 'sql_variant';
    default:
      return column.type.name.toLowerCase();
  }
}

/** Digits a double carries exactly from decimal text and back. */
const EXACT_DIGITS = 15;

function decimalCell(value: number | string, scale: number): string {
  if (typeof value === 'string') return value;
  const unscaled = Math.abs(value) * 10 ** scale;
  return unscaled < 10 ** EXACT_DIGITS ? value.toFixed(scale) : String(value);
}

/** 'YYYY-MM-DD HH:MM:SS.fffffff' of a tedious Date (UTC) and its sub-millisecond part. */
function dateTimeText(date: Date): string {
  const iso = date.toISOString();
  const delta = (date as Date & { nanosecondsDelta?: number }).nanosecondsDelta ?? 0;
  const hundredNanos = date.getUTCMilliseconds() * 10_000 + Math.round(delta * 1e7);
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}.${String(hundredNanos).padStart(7, '0')}`;
}

/** A converter from tedious' value of `column` to a `CellValue`. */
export function mssqlCellConverter(column: TdsColumn): (value: unknown) => CellValue {
  const scale = column.scale ?? 7;
  const orNull =
    (convert: (value: never) => CellValue) =>
    (value: unknown): CellValue =>
      value === null || value === undefined ? null : convert(value as never);
  switch (column.type.name) {
    case 'IntN':
    case 'TinyInt':
    case 'SmallInt':
    case 'Int':
    case 'BigInt':
      return orNull((value: number | string) => (typeof value === 'string' ? integerTextCell(value) : value));
    case 'FloatN':
      return orNull((value: number) => (column.dataLength === 4 ? float32Cell(value) : floatCell(value)));
    case 'Real':
      return orNull(float32Cell);
    case 'Float':
      return orNull(floatCell);
    case 'DecimalN':
    case 'Decimal':
    case 'NumericN':
    case 'Numeric':
      return orNull((value: number | string) => decimalCell(value, column.scale ?? 0));
    case 'MoneyN':
    case 'Money':
    case 'SmallMoney':
      return orNull((value: number | string) => decimalCell(value, 4));
    case 'BitN':
    case 'Bit':
      return orNull((value: boolean) => value);
    case 'VarBinary':
    case 'Binary':
    case 'Image':
      return orNull((value: Buffer) => bytesCell(value));
    case 'Date':
      return orNull((value: Date) => value.toISOString().slice(0, 10));
    case 'DateTime2':
      return orNull((value: Date) => timestampTextCell(dateTimeText(value), scale));
    case 'DateTimeOffset':
      return orNull((value: Date) => timestampTextCell(`${dateTimeText(value)}Z`, scale));
    case 'DateTimeN':
    case 'DateTime':
    case 'SmallDateTime':
      return orNull((value: Date) => timestampTextCell(dateTimeText(value), 3));
    case 'Time':
      return orNull((value: Date) => {
        const [, time = '', fraction = ''] = /^\S+ ([^.]+)\.(\d+)$/.exec(dateTimeText(value)) ?? [];
        const digits = fraction.slice(0, scale).replace(/0+$/, '');
        return digits === '' ? time : `${time}.${digits.padEnd(scale, '0')}`;
      });
    default:
      return orNull((value: unknown) => (typeof value === 'string' ? value : String(value)));
  }
}
