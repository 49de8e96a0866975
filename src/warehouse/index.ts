export {
  bytesCell,
  float32Cell,
  floatCell,
  integerCell,
  integerTextCell,
  timestampTextCell,
} from './cell-value.js';
export type {
  CellValue,
  ColumnInfo,
  Database,
  DatabaseDialect,
  QueryOptions,
  QueryResult,
  TableInfo,
} from './database.js';
export { type DuckDbOverflow, type ReadDuckDbQueryOptions, readDuckDbQuery } from './duckdb-query.js';
export { readDuckDbResult, runSmallQuery } from './duckdb-result.js';
export { parseDuckDbSql, quoteIdentifier, quoteLiteral } from './duckdb-sql-text.js';
export { type DuckDbCellConverter, duckDbCellConverter, duckDbValueToCell } from './duckdb-value.js';
export { FreshConnections } from './fresh-connections.js';
export { type OpenDatabaseOptions, openDatabase } from './open-database.js';
export { WarehouseError, type WarehouseErrorCode } from './warehouse-error.js';
