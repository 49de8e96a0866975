/**
 * DuckDB's SQL text and result reading, for code that runs DuckDB itself rather than a
 * configured warehouse: the extraction jobs in nao's pool workers. Unlike the warehouse index,
 * it loads no engine's configuration, which would add a quarter of a second of CPU to each
 * worker's start.
 */
export { quoteLiteral } from '../sql-literal.js';
export { readDuckDbQuery, readStoredRows } from './duckdb-query.js';
export { runSmallQuery } from './duckdb-result.js';
export { asSubquery, parseDuckDbSql, quoteIdentifier } from './duckdb-sql-text.js';
