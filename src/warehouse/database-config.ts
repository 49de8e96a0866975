import { z } from 'zod';
import { athenaDatabase } from './athena/athena-config.js';
import { bigqueryDatabase } from './bigquery/bigquery-config.js';
import { clickhouseDatabase } from './clickhouse/clickhouse-config.js';
import { commonFields, SYNC_KEYS } from './database-fields.js';
import { databricksDatabase } from './databricks/databricks-config.js';
import { duckdbDatabase } from './duckdb/duckdb-config.js';
import { motherduckDatabase } from './motherduck/motherduck-config.js';
import { fabricDatabase } from './mssql/fabric-config.js';
import { mssqlDatabase } from './mssql/mssql-config.js';
import { mysqlDatabase } from './mysql/mysql-config.js';
import { postgresDatabase } from './postgres/postgres-config.js';
import { redshiftDatabase } from './redshift/redshift-config.js';
import { snowflakeDatabase } from './snowflake/snowflake-config.js';
import { sqliteDatabase } from './sqlite/sqlite-config.js';
import { starrocksDatabase } from './starrocks/starrocks-config.js';
import { trinoDatabase } from './trino/trino-config.js';

export { IN_MEMORY } from './duckdb/duckdb-config.js';

/**
 * Every database type nao can query, one module each: its schema (what an entry may hold)
 * and, as `extraKeys`, the keys it reads that are no field of the schema (other spellings,
 * keys only the original's sync uses), listed after the field they follow in the known keys.
 * A new engine adds a module here and an opener in `warehouse/`.
 */
export const DATABASE_DEFINITIONS = {
  duckdb: duckdbDatabase,
  sqlite: sqliteDatabase,
  postgres: postgresDatabase,
  mysql: mysqlDatabase,
  bigquery: bigqueryDatabase,
  snowflake: snowflakeDatabase,
  mssql: mssqlDatabase,
  fabric: fabricDatabase,
  databricks: databricksDatabase,
  trino: trinoDatabase,
  athena: athenaDatabase,
  clickhouse: clickhouseDatabase,
  redshift: redshiftDatabase,
  starrocks: starrocksDatabase,
  motherduck: motherduckDatabase,
} as const;

export type DatabaseType = keyof typeof DATABASE_DEFINITIONS;
export const DATABASE_TYPES = Object.keys(DATABASE_DEFINITIONS) as DatabaseType[];

/** A configured database nao can open, by type (snake_case, as written). */
export type DatabaseConfig = {
  [Type in DatabaseType]: z.output<(typeof DATABASE_DEFINITIONS)[Type]['schema']>;
}[DatabaseType];

/**
 * Types the original nao connects to that this nao cannot query yet. An entry of one of them
 * loads with a warning; only the runs that need it fail.
 */
export const ORIGINAL_ONLY_DATABASE_TYPES = ['ducklake', 'powerbi_xmla'] as const;

/**
 * Whether `nao test validate` opens a database of this type to plan its tests' reference SQL:
 * its adapter plans ahead (`Database.plan`). The others are not opened only to say that their
 * SQL is not checked (a login, a warehouse woken up).
 */
export function plannedAhead(type: DatabaseType): boolean {
  const definition = DATABASE_DEFINITIONS[type];
  return 'plannedAhead' in definition && definition.plannedAhead;
}

export function isDatabaseType(value: unknown): value is DatabaseType {
  return typeof value === 'string' && Object.hasOwn(DATABASE_DEFINITIONS, value);
}

export function isOriginalOnlyType(value: unknown): boolean {
  return typeof value === 'string' && (ORIGINAL_ONLY_DATABASE_TYPES as readonly string[]).includes(value);
}

/** The keys an entry of this type may hold, for unknown-key warnings (the order decides did-you-mean ties). */
export function databaseKeys(type: DatabaseType): string[] {
  const definition: { schema: z.ZodType; extraKeys?: Record<string, readonly string[]> } =
    DATABASE_DEFINITIONS[type];
  const object = (
    definition.schema instanceof z.ZodPipe ? definition.schema.out : definition.schema
  ) as z.ZodObject;
  const own = Object.keys(object.shape)
    .filter((key) => key !== 'type' && !(key in commonFields))
    .flatMap((key) => [key, ...(definition.extraKeys?.[key] ?? [])]);
  return [
    'name',
    'type',
    'include',
    'exclude',
    'exclude_columns',
    'allow_listed_only',
    'row_security',
    ...SYNC_KEYS,
    ...own,
  ];
}
