/**
 * web/shared/ holds the browser code both pages (the results viewer and the chat) use: pure
 * functions over plain values, Preact hooks and components; no Node APIs and no server
 * modules, since whatever it imports is bundled into both pages.
 */
import { duckdb, formatDialect } from 'sql-formatter';

/**
 * The query laid out for reading, one clause per line (only whitespace changes: keywords keep
 * their case). An agent's SQL can be anything, including another warehouse's dialect or a
 * half-written query, so SQL that sql-formatter cannot parse is shown exactly as written.
 */
export function formatSql(sql: string): string {
  try {
    // formatDialect with the one dialect object, not format({ language }): the bundle then
    // holds DuckDB's keyword lists only, not those of every dialect sql-formatter knows.
    return formatDialect(sql, { dialect: duckdb });
  } catch {
    // A parse error, or a RangeError when nesting runs deeper than the parser's recursion.
    return sql;
  }
}
