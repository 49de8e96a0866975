import type { ColumnInfo, TableInfo } from './database.js';

/** One row of an engine's column catalog; without `column` for a table the catalog lists with none. */
export interface CatalogColumn {
  schema: string | null;
  table: string;
  column?: ColumnInfo;
}

/**
 * The tables of a column catalog (information_schema.columns or the engine's own): the rows of
 * one table become one TableInfo with its columns in row order, tables in the order they first
 * appear.
 */
export function tablesOfColumns(rows: Iterable<CatalogColumn>): TableInfo[] {
  const tables = new Map<string, TableInfo>();
  for (const { schema, table, column } of rows) {
    const key = JSON.stringify([schema, table]);
    let entry = tables.get(key);
    if (entry === undefined) {
      entry = { schema, name: table, columns: [] };
      tables.set(key, entry);
    }
    if (column !== undefined) entry.columns.push(column);
  }
  return [...tables.values()];
}
