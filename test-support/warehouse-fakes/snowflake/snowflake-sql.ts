/**
 * The few Snowflake spellings the fake's DuckDB does not read, rewritten before it runs a
 * statement: type names with Snowflake's modifiers and the row generator. Everything else is
 * SQL both engines read alike.
 */
const REWRITES: [RegExp, string | ((...groups: string[]) => string)][] = [
  [/\bTIMESTAMP_NTZ\s*\(\s*9\s*\)/gi, 'TIMESTAMP_NS'],
  [/\bTIMESTAMP_NTZ\s*\(\s*\d\s*\)/gi, 'TIMESTAMP'],
  [/\bTIMESTAMP_NTZ\b/gi, 'TIMESTAMP'],
  [/\bTIMESTAMP_(TZ|LTZ)\s*\(\s*\d\s*\)/gi, 'TIMESTAMPTZ'],
  [/\bTIMESTAMP_(TZ|LTZ)\b/gi, 'TIMESTAMPTZ'],
  [/\bNUMBER\s*\(/gi, 'DECIMAL('],
  [/\bBINARY\b/gi, 'BLOB'],
  [/\bTABLE\s*\(\s*GENERATOR\s*\(\s*ROWCOUNT\s*=>\s*(\d+)\s*\)\s*\)/gi, (_match, count) => `range(${count})`],
  [/\bTO_BINARY\s*\(\s*('[0-9a-f]*')\s*,\s*'HEX'\s*\)/gi, (_match, hex) => `from_hex(${hex})`],
];

export function toDuckDbSql(sql: string): string {
  let text = sql;
  for (const [pattern, replacement] of REWRITES) {
    text = text.replace(pattern, replacement as (substring: string, ...args: string[]) => string);
  }
  return text;
}
