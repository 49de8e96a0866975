import { z } from 'zod';
import { athenaDatabase } from './athena.js';
import { bigqueryDatabase } from './bigquery.js';
import { clickhouseDatabase } from './clickhouse.js';
import { databricksDatabase } from './databricks.js';
import { duckdbDatabase } from './duckdb.js';
import { fabricDatabase } from './fabric.js';
import { commonFields, SYNC_KEYS } from './fields.js';
import { motherduckDatabase } from './motherduck.js';
import { mssqlDatabase } from './mssql.js';
import { mysqlDatabase } from './mysql.js';
import { postgresDatabase } from './postgres.js';
import { redshiftDatabase } from './redshift.js';
import { snowflakeDatabase } from './snowflake.js';
import { sqliteDatabase } from './sqlite.js';
import { starrocksDatabase } from './starrocks.js';
import { trinoDatabase } from './trino.js';

export { IN_MEMORY } from './duckdb.js';

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
