import { z } from 'zod';
import { isMapping } from '../mapping.js';
import { rowSecurityField } from './row-security.js';

export const nonEmpty = z.string().trim().min(1, 'must not be empty');

/**
 * A number, also when written as a numeric string (`port: "5432"`, or a quoted
 * `{{ env('PGPORT') }}`), as the original nao's pydantic models read it. An empty value
 * (an unset variable) counts as absent, so the default applies.
 */
export function lenientNumber<Schema extends z.ZodType>(schema: Schema) {
  return z.preprocess((value) => {
    if (typeof value !== 'string') return value;
    const text = value.trim();
    if (text === '') return undefined;
    return /^[+-]?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?$/i.test(text) ? Number(text) : value;
  }, schema);
}

/** `true`/`false`, also as the strings pydantic accepts for a boolean. */
export function lenientBoolean() {
  return z.preprocess((value) => {
    if (typeof value !== 'string') return value;
    const text = value.trim().toLowerCase();
    if (['true', 'yes', 'on', '1'].includes(text)) return true;
    if (['false', 'no', 'off', '0'].includes(text)) return false;
    return value;
  }, z.boolean());
}

/** Optional, with `null` read as absent: the original's `nao init` writes `null` for every key left unset. */
export function nullable<Schema extends z.ZodType>(schema: Schema) {
  return z.preprocess((value) => (value === null ? undefined : value), schema.optional());
}

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

export const port = lenientNumber(z.number().int().min(1).max(65535).optional());

/** A schema spelled `schema` or, as the original nao spells it, `schema_name`; `schema` wins. */
export function schemaNameAsSchema(value: unknown): unknown {
  if (!isMapping(value)) return value;
  const { schema_name: schemaName, ...rest } = value;
  return rest.schema === undefined && schemaName !== undefined && schemaName !== null
    ? { ...rest, schema: schemaName }
    : rest;
}
