import { z } from 'zod';
import { lenientBoolean, nonEmpty, nullable } from '../yaml-fields/lenient-fields.js';
import { isMapping } from '../yaml-fields/mapping.js';
import { rowSecurityField } from './row-security.js';

/** Glob patterns; `null` is none. Optional, so code that builds a config by hand need not list them. */
const patterns = nullable(z.array(z.string()));

/**
 * What the agent may see of a database, with the original nao's meaning: `include` / `exclude`
 * are `schema.table` globs, `exclude_columns` are `schema.table.column` globs, and
 * `allow_listed_only` limits queries to the tables synced into the project's `databases/` folder,
 * and `row_security` limits the rows of some tables (row-security.ts).
 */
export const accessFields = {
  include: patterns,
  exclude: patterns,
  exclude_columns: patterns,
  allow_listed_only: lenientBoolean().optional(),
  row_security: rowSecurityField,
};

/** Fields every database entry has, whatever its type. */
export const commonFields = {
  name: nonEmpty,
  ...accessFields,
};

/**
 * Keys of the original nao's database entries that drive its context sync (`nao sync`), not
 * queries: read as known, so a project written for it loads without warnings.
 */
export const SYNC_KEYS = [
  'templates',
  'accessors',
  'profiling',
  'ai_summary',
  'query_history_days',
  'query_history_sql',
  'query_history_exclude_patterns',
] as const;

/** A schema spelled `schema` or, as the original nao spells it, `schema_name`; `schema` wins. */
export function schemaNameAsSchema(value: unknown): unknown {
  if (!isMapping(value)) return value;
  const { schema_name: schemaName, ...rest } = value;
  return rest.schema === undefined && schemaName !== undefined && schemaName !== null
    ? { ...rest, schema: schemaName }
    : rest;
}
