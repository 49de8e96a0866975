/** A standard SQL string literal ('it''s'), as DuckDB, Trino, Athena, Snowflake and SQL Server read it. */
export function quoteLiteral(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}
