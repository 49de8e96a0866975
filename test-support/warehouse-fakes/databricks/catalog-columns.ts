/**
 * GetColumns of the fake warehouse: the JDBC-shaped listing TCLIService defines (TABLE_CAT,
 * TABLE_SCHEM, TABLE_NAME, COLUMN_NAME, DATA_TYPE, TYPE_NAME, ORDINAL_POSITION; the other
 * JDBC columns are left out), read from DuckDB's catalog, with types in Spark's spelling.
 */
import { BIGINT, type DuckDBConnection, INTEGER, VARCHAR } from '@duckdb/node-api';
import { type ColumnEncoding, columnEncoding } from './result-encoding.js';

const SPARK_TYPE_NAMES: Record<string, string> = {
  INTEGER: 'INT',
  VARCHAR: 'STRING',
  BLOB: 'BINARY',
  'TIMESTAMP WITH TIME ZONE': 'TIMESTAMP',
  HUGEINT: 'DECIMAL(38,0)',
};

/** A JDBC pattern of a metadata request ('%' and '_' wildcards) as a RegExp; none matches everything. */
function jdbcPattern(pattern: string | null | undefined): RegExp {
  if (pattern === undefined || pattern === null) return /^/;
  const body = [...pattern]
    .map((char) => (char === '%' ? '.*' : char === '_' ? '.' : char.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${body}$`);
}

export async function catalogColumns(
  admin: DuckDBConnection,
  options: {
    catalog: string;
    request: { catalogName?: string | null; schemaName?: string | null; tableName?: string | null };
  },
): Promise<{ columns: ColumnEncoding[]; rows: unknown[][] }> {
  const { catalog, request } = options;
  const columns = [
    columnEncoding('TABLE_CAT', VARCHAR),
    columnEncoding('TABLE_SCHEM', VARCHAR),
    columnEncoding('TABLE_NAME', VARCHAR),
    columnEncoding('COLUMN_NAME', VARCHAR),
    columnEncoding('DATA_TYPE', INTEGER),
    columnEncoding('TYPE_NAME', VARCHAR),
    columnEncoding('ORDINAL_POSITION', BIGINT),
  ];
  if (request.catalogName !== undefined && request.catalogName !== null && request.catalogName !== catalog) {
    return { columns, rows: [] };
  }
  const found = await admin.runAndReadAll(
    `SELECT schema_name, table_name, column_name, data_type, column_index
       FROM duckdb_columns() WHERE database_name = $1
      ORDER BY schema_name, table_name, column_index`,
    [catalog],
  );
  const schemaPattern = jdbcPattern(request.schemaName);
  const tablePattern = jdbcPattern(request.tableName);
  const rows = (found.getRows() as [string, string, string, string, number][])
    .filter(([schema, table]) => schemaPattern.test(schema) && tablePattern.test(table))
    .map(([schema, table, column, type, index]) => [
      catalog,
      schema,
      table,
      column,
      null,
      SPARK_TYPE_NAMES[type] ?? type,
      BigInt(index),
    ]);
  return { columns, rows };
}
