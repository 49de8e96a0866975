import path from 'node:path';
import type { DatabaseConfig, DatabaseType } from '../config/schema.js';
import type { Database } from './database.js';
import { openDuckDbDatabase } from './duckdb-database.js';
import { openMysqlDatabase } from './mysql-database.js';
import { openPostgresDatabase } from './postgres-database.js';
import { openSqliteDatabase } from './sqlite-database.js';

export interface OpenDatabaseOptions {
  /** Folder that relative `path`s of file databases are resolved against (default: the working directory). */
  projectDir?: string;
}

type ConfigOf<Type extends DatabaseType> = Extract<DatabaseConfig, { type: Type }>;

const OPENERS: {
  [Type in DatabaseType]: (config: ConfigOf<Type>, options: OpenDatabaseOptions) => Promise<Database>;
} = {
  duckdb: (config, options) =>
    openDuckDbDatabase({ name: config.name, path: resolveFile(config.path, options) }),
  sqlite: (config, options) =>
    openSqliteDatabase({ name: config.name, path: resolveFile(config.path, options) }),
  postgres: (config) => openPostgresDatabase(config),
  mysql: (config) => openMysqlDatabase(config),
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
  return path.isAbsolute(file) ? file : path.resolve(options.projectDir ?? process.cwd(), file);
}
