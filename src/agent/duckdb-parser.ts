import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { parseDuckDbSql } from '../warehouse/index.js';

/** What `json_serialize_sql` returns: the parsed statements, or the parser's error. */
export type SerializedSql = { error?: boolean; error_message?: unknown; statements?: unknown[] };

let parser: Promise<DuckDBConnection> | undefined;

/**
 * SQL parsed by DuckDB's own parser (`json_serialize_sql`): nothing is bound or run, so no
 * table is touched. One in-memory DuckDB for the process, used only for its parser.
 */
export async function serializeSql(sql: string): Promise<SerializedSql> {
  parser ??= DuckDBInstance.create(':memory:', {
    enable_external_access: 'false',
    lock_configuration: 'true',
  }).then((instance) => instance.connect());
  return (await parseDuckDbSql(await parser, sql)) as SerializedSql;
}
