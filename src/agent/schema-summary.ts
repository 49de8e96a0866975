import { compareTables, type DatabaseDialect, type TableInfo } from '../warehouse/index.js';
import type { RowPolicy } from './table-access.js';

export interface SchemaSummaryLimits {
  /** Up to this many tables (and `maxDetailedColumns` columns), every column is shown. */
  maxDetailedTables: number;
  maxDetailedColumns: number;
  /** Beyond the detailed limits, table names only, up to this many. */
  maxListedTables: number;
}

export const DEFAULT_SCHEMA_LIMITS: SchemaSummaryLimits = {
  maxDetailedTables: 100,
  maxDetailedColumns: 2000,
  maxListedTables: 1000,
};

const MAX_TYPE_CHARS = 120;

/** The standard catalog views, with `ILIKE` where the dialect has it. */
function informationSchema(options: { typeColumn: string; ilike: boolean }) {
  return {
    columns: `SELECT column_name, ${options.typeColumn} FROM information_schema.columns WHERE table_schema = '<schema>' AND table_name = '<table>'`,
    search: `SELECT table_schema, table_name FROM information_schema.tables WHERE table_name ${options.ilike ? 'ILIKE' : 'LIKE'} '%<word>%'`,
  };
}

const STANDARD = informationSchema({ typeColumn: 'data_type', ilike: true });
const STANDARD_LIKE = informationSchema({ typeColumn: 'data_type', ilike: false });
const MYSQL = informationSchema({ typeColumn: 'column_type', ilike: false });

/** SQL Server and Fabric share T-SQL's catalog views. */
const T_SQL_HINTS = {
  columns:
    "SELECT COLUMN_NAME, DATA_TYPE FROM INFORMATION_SCHEMA.COLUMNS WHERE TABLE_SCHEMA = '<schema>' AND TABLE_NAME = '<table>'",
  search: "SELECT TABLE_SCHEMA, TABLE_NAME FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_NAME LIKE '%<word>%'",
};

/** How to look further into each engine's catalog, for when the prompt shows less than everything. */
const INSPECT_HINTS: Record<DatabaseDialect, { columns: string; search: string }> = {
  duckdb: STANDARD,
  postgres: STANDARD,
  mysql: MYSQL,
  starrocks: MYSQL,
  trino: STANDARD_LIKE,
  athena: STANDARD_LIKE,
  databricks: informationSchema({ typeColumn: 'full_data_type', ilike: true }),
  snowflake: {
    columns:
      "SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = '<SCHEMA>' AND table_name = '<TABLE>' (unquoted names are stored upper-case; or DESCRIBE TABLE <schema>.<table>)",
    search: STANDARD.search,
  },
  sqlite: {
    columns: "SELECT name, type FROM pragma_table_info('<table>')",
    search: "SELECT name FROM sqlite_master WHERE type IN ('table', 'view') AND name LIKE '%<word>%'",
  },
  bigquery: {
    columns:
      "SELECT column_name, data_type FROM `<schema>`.INFORMATION_SCHEMA.COLUMNS WHERE table_name = '<table>'",
    search:
      "SELECT table_name FROM `<schema>`.INFORMATION_SCHEMA.TABLES WHERE LOWER(table_name) LIKE '%<word>%'",
  },
  mssql: T_SQL_HINTS,
  fabric: T_SQL_HINTS,
  redshift: {
    columns:
      "SELECT column_name, data_type FROM svv_columns WHERE table_schema = '<schema>' AND table_name = '<table>'",
    search: "SELECT table_schema, table_name FROM svv_tables WHERE table_name ILIKE '%<word>%'",
  },
  clickhouse: {
    columns: "SELECT name, type FROM system.columns WHERE database = '<schema>' AND table = '<table>'",
    search: "SELECT database, name FROM system.tables WHERE lower(name) LIKE '%<word>%'",
  },
};

/**
 * The schema of one database as compact text for the system prompt. Small schemas list
 * every column; large ones list table names only, and beyond that a stated share of them,
 * always saying what was left out and the query that shows it.
 */
export function summarizeSchema(options: {
  dialect: DatabaseDialect;
  tables: readonly TableInfo[];
  limits?: SchemaSummaryLimits;
  /** The database's row policies: the tables they restrict are named, and how, after the listing. */
  rowPolicies?: readonly RowPolicy[];
}): string {
  const summary = summarizeTables(options);
  const note = rowSecurityNote(options);
  return note === null ? summary : `${summary}\n${note}`;
}

/**
 * Which listed tables row security restricts, so that the agent does not take a filtered
 * count for the whole table nor try to reach the rest. The filters themselves are not shown:
 * the agent needs to know that rows are missing, not which.
 */
function rowSecurityNote(options: {
  dialect: DatabaseDialect;
  tables: readonly TableInfo[];
  rowPolicies?: readonly RowPolicy[];
}): string | null {
  const restricted: string[] = [];
  for (const table of [...options.tables].sort(compareTables)) {
    const policy = options.rowPolicies?.find(
      (candidate) =>
        candidate.table.toLowerCase() === table.name.toLowerCase() &&
        (table.schema === null || candidate.schema.toLowerCase() === table.schema.toLowerCase()),
    );
    if (policy === undefined) continue;
    const how = policy.access === 'none' ? 'no rows' : 'only some rows';
    restricted.push(`${qualifiedName(table, options.dialect)} (${how})`);
  }
  if (restricted.length === 0) return null;
  return (
    `Row security lets you read ${restricted.join(', ')}: queries on these tables return only those rows, ` +
    'so counts and totals cover them alone. Say so when it matters to the answer.'
  );
}

function summarizeTables(options: {
  dialect: DatabaseDialect;
  tables: readonly TableInfo[];
  limits?: SchemaSummaryLimits | undefined;
}): string {
  const { dialect } = options;
  const limits = options.limits ?? DEFAULT_SCHEMA_LIMITS;
  const tables = [...options.tables].sort(compareTables);
  const columnCount = tables.reduce((sum, table) => sum + table.columns.length, 0);
  const hint = INSPECT_HINTS[dialect];
  if (tables.length === 0) return 'No tables are visible in this database.';

  if (tables.length <= limits.maxDetailedTables && columnCount <= limits.maxDetailedColumns) {
    const lines = tables.map((table) => {
      const columns = table.columns.map(
        (column) => `${quoteIfNeeded(column.name, dialect)} ${shortType(column.type)}`,
      );
      return `- ${qualifiedName(table, dialect)}: ${columns.length > 0 ? columns.join(', ') : '(no columns)'}`;
    });
    return [`${plural(tables.length, 'table')}, all columns shown (name type):`, ...lines].join('\n');
  }

  const listed = tables.slice(0, limits.maxListedTables);
  const lines = [
    `${plural(tables.length, 'table')} with ${plural(columnCount, 'column')} in total: too many to show every column here, so ` +
      `only table names are listed. Look up a table's columns with: ${hint.columns}`,
  ];
  if (listed.length < tables.length) {
    lines.push(
      `Only the first ${listed.length} of ${tables.length} table names (alphabetical) are listed; ` +
        `${tables.length - listed.length} more exist. Find others with: ${hint.search}`,
    );
  }
  for (const [schema, names] of groupBySchema(listed, dialect)) {
    lines.push(`- ${schema === null ? '' : `${schema}: `}${names.join(', ')}`);
  }
  return lines.join('\n');
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

function groupBySchema(tables: readonly TableInfo[], dialect: DatabaseDialect): Map<string | null, string[]> {
  const groups = new Map<string | null, string[]>();
  for (const table of tables) {
    const schema = table.schema === null ? null : quoteIfNeeded(table.schema, dialect);
    const names = groups.get(schema) ?? [];
    names.push(quoteIfNeeded(table.name, dialect));
    groups.set(schema, names);
  }
  return groups;
}

function qualifiedName(table: TableInfo, dialect: DatabaseDialect): string {
  const name = quoteIfNeeded(table.name, dialect);
  return table.schema === null ? name : `${quoteIfNeeded(table.schema, dialect)}.${name}`;
}

const doubleQuoted = (identifier: string) => `"${identifier.replaceAll('"', '""')}"`;
const backticked = (identifier: string) => `\`${identifier.replaceAll('`', '``')}\``;
const bracketed = (identifier: string) => `[${identifier.replaceAll(']', ']]')}]`;

/** How each dialect quotes an identifier. */
const QUOTE: Record<DatabaseDialect, (identifier: string) => string> = {
  duckdb: doubleQuoted,
  sqlite: doubleQuoted,
  postgres: doubleQuoted,
  mysql: backticked,
  databricks: backticked,
  bigquery: (identifier) => `\`${identifier.replaceAll('\\', '\\\\').replaceAll('`', '\\`')}\``,
  snowflake: doubleQuoted,
  mssql: bracketed,
  fabric: bracketed,
  trino: doubleQuoted,
  athena: doubleQuoted,
  clickhouse: doubleQuoted,
  redshift: doubleQuoted,
  starrocks: backticked,
};

/** Plain names the dialect folds to another case, so that they must be quoted as they are. */
const FOLDED: Partial<Record<DatabaseDialect, RegExp>> = {
  postgres: /[A-Z]/, // folded to lower case
  redshift: /[A-Z]/, // folded to lower case
  snowflake: /[a-z]/, // folded to upper case
};

/**
 * Identifiers with spaces or other special characters are shown quoted, as the model must
 * write them; so are those the dialect would fold to another case (see FOLDED).
 */
export function quoteIfNeeded(identifier: string, dialect: DatabaseDialect): string {
  const plain = /^[A-Za-z_][A-Za-z0-9_$]*$/.test(identifier);
  if (plain && !FOLDED[dialect]?.test(identifier)) return identifier;
  return QUOTE[dialect](identifier);
}

function shortType(type: string): string {
  return type.length <= MAX_TYPE_CHARS ? type : `${type.slice(0, MAX_TYPE_CHARS)}…`;
}
