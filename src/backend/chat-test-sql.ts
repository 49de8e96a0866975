import { duckdb, formatDialect } from 'sql-formatter';

/**
 * The reference SQL as a test saved from the chat holds it. An agent's one-line query is laid
 * out one clause per line, as the chat page shows it (sql-formatter's DuckDB dialect, keywords
 * in their own case), and ends in a newline, so YAML writes it as a `sql: |` block like the
 * tests people write. SQL already on several lines is someone's own layout and is kept.
 * SQL the formatter cannot read (another dialect, a half-written query) stays as written, and
 * so does SQL whose meaning the layout could change: the saved test must run the query asked.
 */
export function savedTestSql(sql: string): string {
  const trimmed = sql.trim();
  if (trimmed.includes('\n')) return `${trimmed}\n`;
  let formatted: string;
  try {
    // The dialect object, not format({ language }), as in the chat page: only DuckDB's keyword lists load.
    formatted = formatDialect(trimmed, { dialect: duckdb }).trim();
  } catch {
    // A parse error, or a RangeError when nesting runs deeper than the parser's recursion.
    return trimmed;
  }
  const unchanged = (text: string) => text.replace(/\s+/g, '');
  if (unchanged(formatted) !== unchanged(trimmed)) return trimmed;
  // A function the dialect does not know gets a space before its "(" (`GROUP_CONCAT (x)`),
  // which MySQL, by default, no longer reads as a call of a built-in function.
  const calls = (text: string) => text.match(/[\w$"`\]]\(/g)?.length ?? 0;
  if (calls(formatted) !== calls(trimmed)) return trimmed;
  return formatted.includes('\n') ? `${formatted}\n` : formatted;
}
