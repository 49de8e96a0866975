/** One SQLite job, between `SqliteDatabase` and a pool worker (sqlite-job.ts). */
import type { QueryResult, TableInfo } from '../database.js';

/** `open` only checks that the file opens as an SQLite database. */
export type SqliteJob = { file: string } & (
  | { kind: 'open' }
  | { kind: 'query'; sql: string; maxRows: number }
  | { kind: 'tables' }
);

/** The code of a statement the worker refused before running it (see sqlite-job.ts). */
export const REFUSED_CODE = 'NAO_REFUSED';

export interface SqliteFailure {
  /** better-sqlite3's code, e.g. SQLITE_READONLY, SQLITE_ERROR, or REFUSED_CODE; undefined for other errors. */
  code: string | undefined;
  message: string;
}

export type SqliteReply =
  | { kind: 'opened' }
  | { kind: 'open-failed'; failure: SqliteFailure }
  | { kind: 'result'; result: QueryResult }
  | { kind: 'tables'; tables: TableInfo[] }
  | { kind: 'failed'; failure: SqliteFailure };
