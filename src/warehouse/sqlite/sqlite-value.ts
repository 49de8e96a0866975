import { bytesCell, floatCell, integerCell } from '../cell-value.js';
import type { CellValue } from '../database.js';

/**
 * A better-sqlite3 value (read with safe integers, so INTEGER arrives as bigint) as a
 * `CellValue`. SQLite has no date or decimal type: such values are the text or numbers stored.
 */
export function sqliteValueToCell(value: unknown): CellValue {
  switch (typeof value) {
    case 'bigint':
      return integerCell(value);
    case 'number':
      return floatCell(value);
    case 'string':
    case 'boolean':
      return value;
    case 'undefined':
      return null;
  }
  if (value === null) return null;
  if (value instanceof Uint8Array) return bytesCell(value);
  return String(value);
}

/** SQLite's storage class of a value (what `typeof()` answers), the type of a column without a declared one. */
export function sqliteStorageClass(value: unknown): 'INTEGER' | 'REAL' | 'TEXT' | 'BLOB' | undefined {
  if (typeof value === 'bigint') return 'INTEGER';
  if (typeof value === 'number') return 'REAL';
  if (typeof value === 'string') return 'TEXT';
  if (value instanceof Uint8Array) return 'BLOB';
  return undefined;
}
