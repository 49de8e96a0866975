import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { DatabaseType } from '../config/schema.js';
import type { TableInfo } from '../warehouse/index.js';
import type { RowSecurityTable } from '../warehouse/row-security.js';

/**
 * What nao_config.yaml lets the agent read of one database, with the original nao's meaning:
 * `include` / `exclude` are globs over `schema.table`, `exclude_columns` over
 * `schema.table.column`, and `allow_listed_only` keeps to the tables synced into the
 * project's `databases/` folder (by the original's `nao sync`).
 */
export interface TableAccessRules {
  include?: readonly string[] | undefined;
  exclude?: readonly string[] | undefined;
  excludeColumns?: readonly string[] | undefined;
  allowListedOnly?: boolean | undefined;
  /** `row_security`: per-table row policies, the original nao's `none | full | predicate`. */
  rowSecurity?: readonly RowSecurityTable[] | undefined;
}

/**
 * A table whose rows the agent may read only in part: `none` (no row) or `predicate` (the
 * rows matching `predicate`, a filter over `columns`). `full` needs no policy.
 */
export interface RowPolicy {
  schema: string;
  table: string;
  access: 'none' | 'predicate';
  /** The filter as written in the config; `1 = 0` for `none`, which every dialect reads as false. */
  predicate: string;
  /** The columns the predicate names (constraint columns as configured). */
  columns: readonly string[];
}

/** The rules of one database, ready to answer per table and column. */
export interface TableAccess {
  /** True when any rule is set: queries are then checked before they run. */
  readonly restricted: boolean;
  tableAllowed(schema: string, table: string): boolean;
  columnAllowed(schema: string, table: string, column: string): boolean;
  /** The row policy of a table (names compared case-insensitively), or null when every row is readable. */
  rowPolicy(schema: string, table: string): RowPolicy | null;
  /** Every policy that restricts rows, for references nao cannot pin to one catalog table. */
  readonly rowPolicies: readonly RowPolicy[];
  /** The schema an unqualified table lives in when the catalog does not say (SQLite: `main`). */
  readonly defaultSchema: string;
}

/**
 * A shell glob as Python's `fnmatch` reads it (what the original nao matches with): `*` any
 * run of characters (dots included), `?` one character, `[abc]` / `[!abc]` a set.
 */
export function globToRegExp(pattern: string): RegExp {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i]!;
    if (char === '*') out += '.*';
    else if (char === '?') out += '.';
    else if (char === '[') {
      const end = pattern.indexOf(']', i + 2);
      if (end === -1) {
        out += '\\[';
        continue;
      }
      let set = pattern.slice(i + 1, end);
      if (set.startsWith('!')) set = `^${set.slice(1)}`;
      out += `[${set.replace(/\\/g, '\\\\')}]`;
      i = end;
    } else out += char.replace(/[.+^${}()|\\]/g, '\\$&');
  }
  return new RegExp(`^${out}$`, 's');
}

function matcher(patterns: readonly string[] | undefined): ((name: string) => boolean) | null {
  if (patterns === undefined || patterns.length === 0) return null;
  const expressions = patterns.map(globToRegExp);
  return (name) => expressions.some((expression) => expression.test(name));
}

/**
 * Tables synced into `databases/type=<dialect>/database=<name>/schema=<s>/table=<t>/`, the
 * layout of the original nao's `nao sync`, as `schema.table` names.
 */
export async function loadSyncedTables(options: {
  projectDir: string;
  /** The database's `type` (a MotherDuck database syncs to `type=motherduck`, though its SQL is DuckDB's). */
  dialect: DatabaseType;
  /** The `database=` folder of this database (file stem, or database name); any when null. */
  databaseFolder: string | null;
}): Promise<Set<string>> {
  const synced = new Set<string>();
  const typeDir = path.join(options.projectDir, 'databases', `type=${options.dialect}`);
  const folders = await subfolders(typeDir, 'database=');
  for (const database of folders) {
    if (options.databaseFolder !== null && database !== options.databaseFolder) continue;
    const databaseDir = path.join(typeDir, `database=${database}`);
    for (const schema of await subfolders(databaseDir, 'schema=')) {
      for (const table of await subfolders(path.join(databaseDir, `schema=${schema}`), 'table=')) {
        synced.add(`${schema}.${table}`);
      }
    }
  }
  return synced;
}

async function subfolders(dir: string, prefix: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isDirectory() && entry.name.startsWith(prefix))
    .map((entry) => entry.name.slice(prefix.length));
}

export const OPEN_ACCESS: TableAccess = {
  restricted: false,
  tableAllowed: () => true,
  columnAllowed: () => true,
  rowPolicy: () => null,
  rowPolicies: [],
  defaultSchema: 'main',
};

/** The policies that restrict rows (`none`, `predicate`); `full` ones restrict nothing. */
function rowPoliciesOf(tables: readonly RowSecurityTable[] | undefined): RowPolicy[] {
  const policies: RowPolicy[] = [];
  for (const entry of tables ?? []) {
    if (entry.access === 'full') continue;
    policies.push({
      schema: entry.schema,
      table: entry.table,
      access: entry.access,
      predicate: entry.access === 'none' ? '1 = 0' : (entry.predicate ?? '1 = 0'),
      columns: entry.access === 'none' ? [] : (entry.constraint_columns ?? []),
    });
  }
  return policies;
}

/** The access of one database from its rules (and, for `allow_listed_only`, the synced tables). */
export function tableAccess(options: {
  rules: TableAccessRules;
  defaultSchema: string;
  syncedTables?: ReadonlySet<string>;
}): TableAccess {
  const { rules } = options;
  const include = matcher(rules.include);
  const exclude = matcher(rules.exclude);
  const excludeColumn = matcher(rules.excludeColumns);
  const synced = rules.allowListedOnly === true ? (options.syncedTables ?? new Set<string>()) : null;
  const rowPolicies = rowPoliciesOf(rules.rowSecurity);
  return {
    restricted:
      include !== null ||
      exclude !== null ||
      excludeColumn !== null ||
      synced !== null ||
      rowPolicies.length > 0,
    rowPolicies,
    rowPolicy(schema, table) {
      const name = `${schema}.${table}`.toLowerCase();
      return rowPolicies.find((policy) => `${policy.schema}.${policy.table}`.toLowerCase() === name) ?? null;
    },
    defaultSchema: options.defaultSchema,
    tableAllowed(schema, table) {
      const name = `${schema}.${table}`;
      if (include !== null && !include(name)) return false;
      if (exclude?.(name)) return false;
      return synced === null || synced.has(name);
    },
    columnAllowed(schema, table, column) {
      return excludeColumn === null || !excludeColumn(`${schema}.${table}.${column}`);
    },
  };
}

/** The schema the rules see a catalog table in: its own, or the database's default. */
export function schemaOf(table: TableInfo, access: TableAccess): string {
  return table.schema ?? access.defaultSchema;
}

/** The tables and columns the agent may see, for the schema in its prompt. */
export function visibleTables(tables: readonly TableInfo[], access: TableAccess): TableInfo[] {
  if (!access.restricted) return [...tables];
  return tables
    .filter((table) => access.tableAllowed(schemaOf(table, access), table.name))
    .map((table) => ({
      ...table,
      columns: table.columns.filter((column) =>
        access.columnAllowed(schemaOf(table, access), table.name, column.name),
      ),
    }));
}
