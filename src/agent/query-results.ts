import { randomBytes } from 'node:crypto';
import type { CellValue, ColumnInfo } from '../warehouse/index.js';

/**
 * One successful `execute_sql` result, kept whole (up to the row cap) even though the model
 * saw only its first rows: the extraction step reads the answer's data from here.
 */
export interface StoredQueryResult {
  /** `query_` + 8 hex characters; also the table name the extraction step loads it as. */
  id: string;
  sql: string;
  databaseId: string;
  columns: ColumnInfo[];
  rows: CellValue[][];
  /** True when the result had more rows than `maxResultRows` and only the first ones were kept. */
  truncated: boolean;
}

/** Every query result of one run, by id, in execution order. */
export type QueryResults = Map<string, StoredQueryResult>;

export function randomQueryId(): string {
  return `query_${randomBytes(4).toString('hex')}`;
}

/** Ids must be usable as unquoted DuckDB table names by the extraction step. */
export const QUERY_ID_PATTERN = /^query_[0-9a-f]{8}$/;
