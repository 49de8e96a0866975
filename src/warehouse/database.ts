/**
 * One value of a result cell, lossless across engines:
 * - integers that fit in a JS number (|n| <= 2^53-1) and floating values → number
 * - integers beyond 2^53 and DECIMAL/NUMERIC → string holding the exact decimal text
 * - DATE → 'YYYY-MM-DD'; TIMESTAMP → ISO string with full (micro)second precision,
 *   with a `Z`/offset only when the engine type carries a time zone
 * - booleans → boolean; NULL → null; text → string; anything else → its text form
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
  /** Rows kept at most; more set `truncated`. */
  maxRows?: number;
  /** Wall-clock limit; the query is cancelled by the engine when it passes. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface TableInfo {
  schema: string | null;
  name: string;
  columns: ColumnInfo[];
}

export type DatabaseDialect = 'duckdb' | 'sqlite' | 'postgres' | 'mysql';

/** A read-only connection to one configured warehouse. */
export interface Database {
  readonly name: string;
  readonly dialect: DatabaseDialect;
  query(sql: string, options?: QueryOptions): Promise<QueryResult>;
  listTables(): Promise<TableInfo[]>;
  close(): Promise<void>;
}
