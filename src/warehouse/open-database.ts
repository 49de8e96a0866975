import path from 'node:path';
import type { Database } from './database.js';
import type { DatabaseConfig, DatabaseType } from './database-config.js';
import { openDuckDbDatabase } from './duckdb/duckdb-database.js';

export interface OpenDatabaseOptions {
  /** Folder that relative `path`s of file databases are resolved against (default: the working directory). */
  projectDir?: string;
  /**
   * `agent.query_memory_limit`: what a DuckDB warehouse may use for its queries, a share of the
   * machine (`25%`) or a size (`4GB`); DuckDB's default (80%) when absent. A server engine's
   * memory is its administrator's to bound.
   */
  memoryLimit?: string;
  /**
   * Told what the user should know about an opened database: a privileged role that
   * `allow_privileged_role` lets nao use (PostgreSQL, MySQL/MariaDB). Once per open.
   */
  onWarning?: (warning: string) => void;
}

type ConfigOf<Type extends DatabaseType> = Extract<DatabaseConfig, { type: Type }>;

/**
 * The drivers of server and SQLite warehouses load only when such a warehouse is configured
 * (mysql2 alone added about 0.1 s to every `nao` command). DuckDB is needed anyway, by the
 * extraction sandbox.
 */
const OPENERS: {
  [Type in DatabaseType]: (config: ConfigOf<Type>, options: OpenDatabaseOptions) => Promise<Database>;
} = {
  duckdb: (config, options) =>
    openDuckDbDatabase({
      name: config.name,
      path: resolveFile(config.path, options),
      ...(options.memoryLimit === undefined ? {} : { memoryLimit: options.memoryLimit }),
    }),
  sqlite: async (config, options) =>
    (await import('./sqlite/sqlite-database.js')).openSqliteDatabase({
      name: config.name,
      path: resolveFile(config.path, options),
    }),
  postgres: async (config, options) =>
    (await import('./postgres/postgres-database.js')).openPostgresDatabase(config, {
      onWarning: options.onWarning,
    }),
  mysql: async (config, options) =>
    (await import('./mysql/mysql-database.js')).openMysqlDatabase(config, { onWarning: options.onWarning }),
  bigquery: async (config, options) =>
    (await import('./bigquery/bigquery-database.js')).openBigQueryDatabase(config, {
      ...(options.projectDir === undefined ? {} : { projectDir: options.projectDir }),
    }),
  snowflake: async (config) =>
    (await import('./snowflake/snowflake-database.js')).openSnowflakeDatabase(config),
  mssql: async (config) => (await import('./mssql/mssql-database.js')).openTdsDatabase(config),
  fabric: async (config) => (await import('./mssql/mssql-database.js')).openTdsDatabase(config),
  databricks: async (config) =>
    (await import('./databricks/databricks-database.js')).openDatabricksDatabase(config),
  trino: async (config) => (await import('./trino/trino-database.js')).openTrinoDatabase(config),
  athena: async (config) => (await import('./athena/athena-database.js')).openAthenaDatabase(config),
  redshift: async (config) => (await import('./redshift/redshift-database.js')).openRedshiftDatabase(config),
  starrocks: async (config) =>
    (await import('./starrocks/starrocks-database.js')).openStarRocksDatabase(config),
  motherduck: async (config) =>
    (await import('./motherduck/motherduck-database.js')).openMotherDuckDatabase(config),
  clickhouse: async (config, options) =>
    (await import('./clickhouse/clickhouse-database.js')).openClickHouseDatabase(config, {
      memoryLimit: options.memoryLimit,
    }),
};

/**
 * Opens one configured database read-only and checks that it answers, so a wrong path,
 * host or password fails here (CONNECTION_FAILED, naming the database) and not mid-run.
 */
export function openDatabase(config: DatabaseConfig, options: OpenDatabaseOptions = {}): Promise<Database> {
  const open = OPENERS[config.type] as (
    config: DatabaseConfig,
    options: OpenDatabaseOptions,
  ) => Promise<Database>;
  return open(config, options);
}

function resolveFile(file: string, options: OpenDatabaseOptions): string {
  if (file === ':memory:') return file;
  return path.isAbsolute(file) ? file : path.resolve(options.projectDir ?? process.cwd(), file);
}
