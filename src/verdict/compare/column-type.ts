/**
 * What an engine type name tells about the text in a column. Values are read by content in
 * every case; the type only settles text that content alone leaves open.
 * - `number`: numeric engine types; their strings are only read as numbers, never as dates.
 * - `temporal`: DATE/TIMESTAMP/DATETIME; 'infinity' and '-infinity' are the infinite
 *   dates Postgres and DuckDB return, not the number.
 * - `unknown`: anything else, or no type given.
 */
export type ColumnHint = 'number' | 'temporal' | 'unknown';

const NUMERIC_TYPE =
  /^(?:U?(?:TINY|SMALL|MEDIUM|BIG|HUGE)?INT(?:EGER)?\d*|INT[1248]|U?HUGEINT|DECIMAL|NUMERIC|NUMBER|DEC|REAL|FLOAT\d*|DOUBLE(?: PRECISION)?|SERIAL|BIGSERIAL|SMALLSERIAL|MONEY)\b/;
const TEMPORAL_TYPE = /^(?:DATE|DATETIME|TIMESTAMP|TIMESTAMPTZ)/;

export function columnHint(type: string | undefined | null): ColumnHint {
  if (typeof type !== 'string') return 'unknown';
  const name = type.trim().toUpperCase();
  if (NUMERIC_TYPE.test(name)) return 'number';
  if (TEMPORAL_TYPE.test(name)) return 'temporal';
  return 'unknown';
}
