export type {
  CellValue,
  ColumnInfo,
  Database,
  DatabaseDialect,
  QueryOptions,
  TableInfo,
} from './database.js';
export { plannedAhead } from './database-config.js';
export { parseDuckDbSql, quoteIdentifier } from './duckdb/duckdb-sql-text.js';
export { openDatabase } from './open-database.js';
export { quoteLiteral } from './sql-literal.js';
export { compareCodeUnits, compareTables } from './table-list.js';
export { WarehouseError } from './warehouse-error.js';
