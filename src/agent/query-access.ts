import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { messageOf } from '../errors/index.js';
import type { TableInfo } from '../warehouse/index.js';
import { schemaOf, type TableAccess } from './table-access.js';

/**
 * Checks an agent query against a database's include / exclude / exclude_columns /
 * allow_listed_only rules before it runs, as the original nao does (there with sqlglot): the
 * query is parsed by DuckDB's own parser (`json_serialize_sql`, no data is touched), every
 * table it names is resolved against the database's catalog, and the query is refused when
 * one of them is not readable, when it names an excluded column, or when a `*` would return
 * one. What cannot be parsed or resolved is refused too: the rules fail closed.
 */
export async function checkQueryAccess(options: {
  sql: string;
  databaseName: string;
  tables: readonly TableInfo[];
  access: TableAccess;
}): Promise<{ allowed: true } | { allowed: false; reason: string }> {
  const { access } = options;
  const refuse = (why: string) => ({
    allowed: false as const,
    reason: `Query refused: ${why} (database "${options.databaseName}" limits what the agent may read in nao_config.yaml).`,
  });
  let tree: SerializedSql;
  try {
    tree = await serializeSql(options.sql);
  } catch (error) {
    return refuse(`it could not be checked (${messageOf(error)})`);
  }
  if (tree.error === true) {
    return refuse(`it could not be parsed to check it: ${String(tree.error_message ?? 'parse error')}`);
  }
  if (!Array.isArray(tree.statements) || tree.statements.length !== 1) {
    return refuse('exactly one statement can be checked');
  }
  const found = collectReferences(tree.statements[0]);
  for (const name of found.functions) {
    if (SQL_RUNNING_FUNCTION.test(name)) return refuse(`${name}() reads tables the rules cannot see`);
  }

  const readTables: TableInfo[] = [];
  for (const ref of found.tables) {
    const candidates = options.tables.filter(
      (table) =>
        table.name.toLowerCase() === ref.table.toLowerCase() &&
        (ref.schema === '' || schemaOf(table, access).toLowerCase() === ref.schema.toLowerCase()),
    );
    if (ref.schema === '' && found.cteNames.has(ref.table.toLowerCase())) {
      // A CTE of the query; refused only when it hides a table the agent may not read.
      if (candidates.every((table) => access.tableAllowed(schemaOf(table, access), table.name))) continue;
      return refuse(`the CTE "${ref.table}" has the name of a table that is not readable; rename the CTE`);
    }
    if (candidates.length === 0) {
      if (ref.schema !== '' && access.tableAllowed(ref.schema, ref.table)) continue;
      return refuse(`table ${qualified(ref)} is not among the tables the agent may read`);
    }
    const blocked = candidates.find((table) => !access.tableAllowed(schemaOf(table, access), table.name));
    if (blocked !== undefined) {
      return refuse(`table ${schemaOf(blocked, access)}.${blocked.name} is not readable`);
    }
    readTables.push(...candidates);
  }

  const hidden = readTables.flatMap((table) =>
    table.columns
      .filter((column) => !access.columnAllowed(schemaOf(table, access), table.name, column.name))
      .map((column) => ({ table, column: column.name })),
  );
  if (hidden.length === 0) return { allowed: true };
  const hiddenNames = new Set(hidden.map((entry) => entry.column.toLowerCase()));
  const named = found.columns.find((column) => hiddenNames.has(column.toLowerCase()));
  if (named !== undefined) return refuse(`it names the excluded column ${named}`);
  for (const star of found.stars) {
    const excepted = new Set(star.except.map((name) => name.toLowerCase()));
    const returned = hidden.filter((entry) => !excepted.has(entry.column.toLowerCase()));
    if (returned.length > 0) {
      const entry = returned[0]!;
      return refuse(
        `* would return the excluded column ${schemaOf(entry.table, access)}.${entry.table.name}.${entry.column}; ` +
          'list the columns you need instead',
      );
    }
  }
  return { allowed: true };
}

/** Functions that run SQL given as text, or read a table named by a string: their reads are invisible here. */
const SQL_RUNNING_FUNCTION = /query|table|xml|dblink|read_|scan|file|lo_import|copy/i;

interface TableRef {
  schema: string;
  table: string;
}

interface References {
  tables: TableRef[];
  cteNames: Set<string>;
  columns: string[];
  stars: { except: string[] }[];
  functions: string[];
}

type SerializedSql = { error?: boolean; error_message?: unknown; statements?: unknown[] };

function qualified(ref: TableRef): string {
  return ref.schema === '' ? ref.table : `${ref.schema}.${ref.table}`;
}

/** Every table, CTE, column, `*` and function a serialized statement names, at any depth. */
function collectReferences(statement: unknown): References {
  const found: References = { tables: [], cteNames: new Set(), columns: [], stars: [], functions: [] };
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    if (node === null || typeof node !== 'object') return;
    const record = node as Record<string, unknown>;
    const namesTable =
      record.type === 'BASE_TABLE' || (record.type === 'SHOW_REF' && record.table_name !== '');
    if (namesTable && typeof record.table_name === 'string') {
      found.tables.push({ schema: String(record.schema_name ?? ''), table: record.table_name });
    }
    if (record.class === 'COLUMN_REF' && Array.isArray(record.column_names)) {
      const last = record.column_names.at(-1);
      if (typeof last === 'string') found.columns.push(last);
    }
    if (record.class === 'STAR') {
      found.stars.push({ except: Array.isArray(record.exclude_list) ? record.exclude_list.map(String) : [] });
    }
    if (record.class === 'FUNCTION' && typeof record.function_name === 'string') {
      found.functions.push(record.function_name);
    }
    const cteMap = record.cte_map as { map?: { key?: unknown }[] } | undefined;
    for (const entry of cteMap?.map ?? []) {
      if (typeof entry.key === 'string') found.cteNames.add(entry.key.toLowerCase());
    }
    for (const value of Object.values(record)) visit(value);
  };
  visit(statement);
  return found;
}

let parser: Promise<DuckDBConnection> | undefined;

/** One in-memory DuckDB for the process, used only for its parser. */
async function serializeSql(sql: string): Promise<SerializedSql> {
  parser ??= DuckDBInstance.create(':memory:', {
    enable_external_access: 'false',
    lock_configuration: 'true',
  }).then((instance) => instance.connect());
  const connection = await parser;
  const reader = await connection.runAndReadAll('SELECT json_serialize_sql($1::VARCHAR)', [sql]);
  return JSON.parse(String(reader.getRows()[0]?.[0])) as SerializedSql;
}
