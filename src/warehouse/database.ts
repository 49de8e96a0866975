/**
 * One value of a result cell, lossless across engines:
 * - integers that fit in a JS number (|n| <= 2^53-1) and floating values → number
 * - integers beyond 2^53 and DECIMAL/NUMERIC → string holding the exact decimal text
 * - NaN and ±Infinity → the strings 'NaN', 'Infinity', '-Infinity' (JSON has no such numbers);
 *   single-precision floats → the shortest decimal that reads back as the same float (0.1)
 * - DATE → 'YYYY-MM-DD'; TIMESTAMP → ISO string 'YYYY-MM-DDTHH:MM:SS' plus the fraction at the
 *   type's precision ('.123456' for microseconds) when it is not zero, with a `Z`/offset only when
 *   the engine type carries a time zone (time-zone values are given in UTC, so `Z`).
 *   Values ISO cannot spell (BC years, infinity, MySQL zero dates) keep the engine's text.
 * - booleans → boolean; NULL → null; text → string
 * - binary → '\x' + lowercase hex (PostgreSQL's bytea spelling)
 * - LIST/ARRAY/STRUCT/MAP → JSON text; anything else (TIME, INTERVAL, UUID…) → its text form
 */
export type CellValue = string | number | boolean | null;

export interface ColumnInfo {
  name: string;
  /** The engine's type name as the engine spells it (e.g. BIGINT, DECIMAL(38,10), timestamp with time zone). */
  type: string;
}

export interface QueryResult {
  columns: ColumnInfo[];
  /** Row-major values in column order. */
  rows: CellValue[][];
  /** True when the row cap cut the result: `rows.length === maxRows` and more rows existed. */
  truncated: boolean;
}

export interface QueryOptions {
  /** Rows kept at most (a non-negative integer); more set `truncated`. Unlimited when absent. */
  maxRows?: number;
  /** Wall-clock limit in milliseconds; the query is cancelled by the engine when it passes. */
  timeoutMs?: number;
  /** Cancels the query; the promise then rejects with `signal.reason`. */
  signal?: AbortSignal;
  /**
   * Only check the statement: PostgreSQL and MySQL/MariaDB read it and have the server plan
   * (or prepare) it, as before every query, then return no rows without running it. Their
   * guards refuse an `EXPLAIN` from outside, so their `plan` goes this way. Other engines
   * ignore it.
   */
  planOnly?: boolean;
}

export interface TableInfo {
  /** Schema (PostgreSQL, DuckDB) or database (MySQL) holding the table; null for SQLite. */
  schema: string | null;
  name: string;
  columns: ColumnInfo[];
}

export type DatabaseDialect =
  | 'duckdb'
  | 'sqlite'
  | 'postgres'
  | 'mysql'
  | 'bigquery'
  | 'snowflake'
  | 'mssql'
  | 'fabric'
  | 'databricks'
  | 'trino'
  | 'athena'
  | 'clickhouse'
  | 'redshift'
  | 'starrocks';

/** What `Database.plan` did with the SQL: planned it, or left it to the run, saying why. */
export type PlanOutcome = { planned: true } | { planned: false; reason: string };

/**
 * A read-only connection to one configured warehouse. Failures are `WarehouseError`s
 * (codes CONNECTION_FAILED, QUERY_FAILED, QUERY_TIMEOUT, QUERY_OUT_OF_MEMORY, READ_ONLY_VIOLATION,
 * DATABASE_CLOSED).
 */
export interface Database {
  readonly name: string;
  readonly dialect: DatabaseDialect;
  query(sql: string, options?: QueryOptions): Promise<QueryResult>;
  /**
   * Has the engine plan `sql` without running it or reading a row: resolves with `planned`
   * when it accepts the statement, rejects as `query` would, and says why when it cannot plan
   * `sql` without running some of it. Present exactly where the engine definition says
   * `plannedAhead` (database-config.ts); elsewhere reference SQL is left to the run.
   */
  plan?:
    | ((sql: string, options?: Pick<QueryOptions, 'timeoutMs' | 'signal'>) => Promise<PlanOutcome>)
    | undefined;
  listTables(): Promise<TableInfo[]>;
  /** Releases every connection and process; calling it again does nothing. */
  close(): Promise<void>;
}
