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

/** Code-unit order, the same on every machine whatever its locale (stable prompts, hashes, shards). */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Tables by schema, then name, in code-unit order. */
export function compareTables(a: TableInfo, b: TableInfo): number {
  return compareCodeUnits(a.schema ?? '', b.schema ?? '') || compareCodeUnits(a.name, b.name);
}

/** [schema, table, column name, column type] as the catalog queries answer; a null name is a table with no columns. */
export type CatalogRow = [schema: string | null, table: string, name: string | null, type: string | null];

/** `tablesOfColumns` of catalog rows. */
export function tablesOfRows(rows: readonly CatalogRow[]): TableInfo[] {
  return tablesOfColumns(
    rows.map(([schema, table, name, type]) => ({
      schema,
      table,
      ...(name === null ? {} : { column: { name, type: type ?? '' } }),
    })),
  );
}
