/**
 * Athena's result text (every VarCharValue is a string, a missing one is NULL) as nao's
 * `CellValue`s, per column as ResultSetMetadata.ColumnInfo describes it (Type, Precision, Scale).
 */
import { bytesCell, float32Cell, floatCell, integerTextCell, timestampTextCell } from '../cell-value.js';
import type { CellValue } from '../database.js';
import { zonedTimestampCell } from '../trino/trino-value.js';

export interface AthenaColumnInfo {
  Name?: string | undefined;
  Type?: string | undefined;
  Precision?: number | undefined;
  Scale?: number | undefined;
}

/** The type as nao names it: Athena's Type, with precision and scale for a decimal ('decimal(10,2)'). */
export function athenaTypeName(column: AthenaColumnInfo): string {
  const type = (column.Type ?? 'unknown').toLowerCase();
  return type === 'decimal' ? `decimal(${column.Precision ?? 38},${column.Scale ?? 0})` : type;
}

const NON_FINITE = new Set(['NaN', 'Infinity', '-Infinity']);

function floatingCell(text: string, single: boolean): CellValue {
  if (NON_FINITE.has(text)) return text;
  const value = Number(text);
  if (Number.isNaN(value)) return text;
  return single ? float32Cell(value) : floatCell(value);
}

/** Fraction digits of a timestamp: its column's precision, else as many as the text has. */
function fractionDigits(column: AthenaColumnInfo, text: string): number {
  const precision = column.Precision;
  if (precision !== undefined && precision > 0 && precision <= 12) return precision;
  return /\.(\d+)/.exec(text)?.[1]?.length ?? 0;
}

export function athenaCellConverter(column: AthenaColumnInfo): (text: string | undefined) => CellValue {
  const type = (column.Type ?? '').toLowerCase();
  const cell = (convert: (text: string) => CellValue) => (text: string | undefined) =>
    text === undefined ? null : convert(text);
  switch (type) {
    case 'tinyint':
    case 'smallint':
    case 'integer':
    case 'int':
    case 'bigint':
      return cell(integerTextCell);
    case 'double':
      return cell((text) => floatingCell(text, false));
    case 'float':
    case 'real':
      return cell((text) => floatingCell(text, true));
    case 'boolean':
      return cell((text) => text === 'true');
    case 'varbinary':
      return cell((text) => bytesCell(Buffer.from(text.replace(/\s+/g, ''), 'hex')));
    case 'timestamp':
      return cell((text) => timestampTextCell(text, fractionDigits(column, text)));
    case 'timestamp with time zone':
      return cell((text) => zonedTimestampCell(text, fractionDigits(column, text)));
    default:
      // decimal (exact text with its scale), varchar, date, time, and Athena's own text of
      // array, map and row values ('[1, 2]', '{a=1}'), which is not JSON.
      return cell((text) => text);
  }
}
