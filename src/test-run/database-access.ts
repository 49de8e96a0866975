import path from 'node:path';
import { loadSyncedTables, type TableAccess, tableAccess } from '../agent/index.js';
import type { DatabaseConfig } from '../config/index.js';

/**
 * The access rules of every configured database that has some (include, exclude,
 * exclude_columns, allow_listed_only, row_security), keyed by database name, for the agent's context.
 */
export async function databaseAccess(options: {
  databases: readonly DatabaseConfig[];
  projectDir: string;
}): Promise<Record<string, TableAccess>> {
  const access: Record<string, TableAccess> = {};
  for (const database of options.databases) {
    const rules = {
      include: database.include,
      exclude: database.exclude,
      excludeColumns: database.exclude_columns,
      allowListedOnly: database.allow_listed_only,
      rowSecurity: database.row_security,
    };
    const syncedTables =
      rules.allowListedOnly === true
        ? await loadSyncedTables({
            projectDir: options.projectDir,
            dialect: database.type,
            databaseFolder: syncFolderName(database),
          })
        : undefined;
    const built = tableAccess({ rules, defaultSchema: defaultSchema(database), syncedTables });
    if (built.restricted) access[database.name] = built;
  }
  return access;
}

/** The schema an unqualified name resolves to when the catalog does not list it. */
function defaultSchema(database: DatabaseConfig): string {
  switch (database.type) {
    case 'duckdb':
    case 'sqlite':
    case 'motherduck':
      return 'main';
    case 'postgres':
      return database.schema ?? 'public';
    case 'mysql':
      return database.database ?? databaseOfUrl(database.url) ?? '';
    case 'bigquery':
      return database.dataset_id ?? '';
    case 'snowflake':
      return database.schema ?? 'PUBLIC';
    case 'mssql':
    case 'fabric':
      return database.schema_name ?? 'dbo';
    case 'databricks':
    case 'athena':
      return database.schema_name ?? 'default';
    case 'trino':
      return database.schema ?? '';
    case 'clickhouse':
      return database.database;
    case 'redshift':
      return database.schema_name ?? 'public';
    case 'starrocks':
      return database.database ?? '';
  }
}

/** The `database=` folder the original's `nao sync` writes for this database. */
function syncFolderName(database: DatabaseConfig): string | null {
  switch (database.type) {
    case 'duckdb':
    case 'sqlite':
      return database.path === ':memory:' ? 'memory' : path.parse(database.path).name;
    case 'postgres':
    case 'mysql':
      return database.database ?? databaseOfUrl(database.url) ?? null;
    case 'bigquery':
      // The original names a BigQuery database after its project.
      return database.project_id;
    case 'snowflake':
    case 'mssql':
    case 'fabric':
      return database.database;
    // As the original's get_database_name().
    case 'databricks':
      return database.catalog ?? 'main';
    case 'trino':
      return database.catalog;
    case 'athena':
      return database.schema_name ?? 'default';
    case 'clickhouse':
    case 'redshift':
      return database.database;
    case 'motherduck':
      return database.database ?? 'my_db';
    case 'starrocks':
      // As the original names it: catalog.database, either alone, or 'starrocks'.
      return [database.catalog, database.database].filter(Boolean).join('.') || 'starrocks';
  }
}

function databaseOfUrl(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    return decodeURIComponent(new URL(url).pathname.replace(/^\//, '')) || undefined;
  } catch {
    return undefined;
  }
}
