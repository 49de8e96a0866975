/** Messages between `SqliteDatabase` and its query process (sqlite-query-process.ts), over Node IPC. */
import type { QueryResult, TableInfo } from './database.js';

export type SqliteRequest =
  | {
      id: number;
      kind: 'query';
      sql: string;
      /** null = unlimited (JSON has no Infinity). */
      maxRows: number | null;
    }
  | { id: number; kind: 'tables' };

/** The code of a statement the query process refused before running it (see sqlite-query-process.ts). */
export const REFUSED_CODE = 'NAO_REFUSED';

export interface SqliteFailure {
  /** better-sqlite3's code, e.g. SQLITE_READONLY, SQLITE_ERROR, or REFUSED_CODE; undefined for other errors. */
  code: string | undefined;
  message: string;
}

export type SqliteReply =
  | { kind: 'ready' }
  | { kind: 'open-failed'; failure: SqliteFailure }
  | { kind: 'result'; id: number; result: QueryResult }
  | { kind: 'tables'; id: number; tables: TableInfo[] }
  | { kind: 'failed'; id: number; failure: SqliteFailure };
