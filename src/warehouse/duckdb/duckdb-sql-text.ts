/**
 * DuckDB SQL text: quoting names into statements, and DuckDB's own parse of a
 * statement (json_serialize_sql), which the warehouse and the extraction sandbox both use to
 * decide what a query is without matching its text.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { quoteLiteral } from '../sql-literal.js';
import { runSmallQuery } from './duckdb-result.js';

export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * `sql` as a parenthesized subquery: its final semicolons dropped, and a newline before the
 * closing parenthesis so that a trailing `--` comment cannot swallow it. Only for SQL known to
 * be one statement that keeps its own parentheses (parsed by DuckDB, or `isWrappable`).
 */
export function asSubquery(sql: string): string {
  return `(${withoutFinalSemicolons(sql)}\n)`;
}

export function withoutFinalSemicolons(sql: string): string {
  return sql.replace(/[\s;]+$/, '');
}

/**
 * The JSON parse tree DuckDB gives for `sql` (`{ error: true, error_message }` for anything
 * but SELECT statements). The SQL is only parsed, never executed. It goes in as a string
 * literal: a bound parameter costs three more round trips; a NUL, which a literal cannot
 * hold, still binds.
 */
export async function parseDuckDbSql(connection: DuckDBConnection, sql: string): Promise<unknown> {
  const rows = sql.includes('\0')
    ? (await connection.runAndReadAll('SELECT json_serialize_sql($1::VARCHAR)', [sql])).getRows()
    : await runSmallQuery(connection, `SELECT json_serialize_sql(${quoteLiteral(sql)})`);
  return JSON.parse(String(rows[0]?.[0]));
}
