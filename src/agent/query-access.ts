import { messageOf } from '../errors/index.js';
import type { TableInfo } from '../warehouse/index.js';
import { type SerializedSql, serializeSql } from './duckdb-parser.js';
import { applyRowSecurity, type ProtectedReference } from './row-security.js';
import { type RowPolicy, schemaOf, type TableAccess } from './table-access.js';

/**
 * Checks an agent query against a database's include / exclude / exclude_columns /
 * allow_listed_only rules before it runs, as the original nao does (there with sqlglot): the
 * query is parsed by DuckDB's own parser (`json_serialize_sql`, no data is touched), every
 * table it names is resolved against the database's catalog, and the query is refused when
 * one of them is not readable, when it names an excluded column, or when a `*` would return
 * one. What cannot be parsed or resolved is refused too: the rules fail closed.
 *
 * With `row_security` policies, the query that may run is rewritten so that each table with
 * a `none` or `predicate` policy reads only the rows it allows (row-security.ts); `sql` is the
 * query to run, the original when no policy applies.
 */
export async function checkQueryAccess(options: {
  sql: string;
  databaseName: string;
  tables: readonly TableInfo[];
  access: TableAccess;
}): Promise<{ allowed: true; sql: string } | { allowed: false; reason: string }> {
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
    const candidates = candidatesOf(ref, options.tables, access);
    if (ref.schema === '' && found.cteNames.has(ref.table.toLowerCase())) {
      // A CTE of the query; refused only when it hides a table the agent may not read in whole.
      if (candidates.some((table) => access.rowPolicy(schemaOf(table, access), table.name) !== null)) {
        return refuse(`the CTE "${ref.table}" has the name of a table with row security; rename the CTE`);
      }
      if (candidates.every((table) => access.tableAllowed(schemaOf(table, access), table.name))) continue;
      return refuse(`the CTE "${ref.table}" has the name of a table that is not readable; rename the CTE`);
    }
    if (candidates.length === 0) {
      // `shop.salaries` may be DuckDB's catalog `shop` with its schema `main`: a name the
      // catalog does not list must not be a way around a table of that name the rules hide.
      const sameName = options.tables.find(
        (table) =>
          table.name.toLowerCase() === ref.table.toLowerCase() &&
          !access.tableAllowed(schemaOf(table, access), table.name),
      );
      if (sameName !== undefined) {
        return refuse(
          `table ${qualified(ref)} may be ${schemaOf(sameName, access)}.${sameName.name}, which is not readable`,
        );
      }
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
  if (hidden.length > 0) {
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
  }
  if (access.rowPolicies.length === 0) return { allowed: true, sql: options.sql };

  const protectedRefs = protectedReferences({ refs: found.tables, cteNames: found.cteNames, ...options });
  if ('error' in protectedRefs) return refuse(protectedRefs.error);
  const secured = await applyRowSecurity({
    sql: options.sql,
    references: protectedRefs.map(({ ref, policy }) => ({ ...ref, policy })),
    findProtected(statement) {
      const again = collectReferences(statement);
      const refs = protectedReferences({ refs: again.tables, cteNames: again.cteNames, ...options });
      return 'error' in refs ? refs : refs.map(({ ref, policy }) => ({ node: ref.node, policy }));
    },
  });
  if (!secured.success) return refuse(`row security could not be applied with certainty: ${secured.error}`);
  return { allowed: true, sql: secured.sql };
}

/** The catalog tables a reference may name (an unqualified name: any schema's). */
function candidatesOf(ref: TableRef, tables: readonly TableInfo[], access: TableAccess): TableInfo[] {
  return tables.filter(
    (table) =>
      table.name.toLowerCase() === ref.table.toLowerCase() &&
      (ref.schema === '' || schemaOf(table, access).toLowerCase() === ref.schema.toLowerCase()),
  );
}

/**
 * The references of a query that read a table with a row policy, each with its policy; an
 * error naming the table and its policy when one cannot be filtered with certainty.
 */
function protectedReferences(options: {
  refs: readonly TableRef[];
  cteNames: ReadonlySet<string>;
  tables: readonly TableInfo[];
  access: TableAccess;
}): { ref: TableRef; policy: RowPolicy }[] | { error: string } {
  const { access } = options;
  const result: { ref: TableRef; policy: RowPolicy }[] = [];
  const describe = (policy: RowPolicy) =>
    `${policy.schema}.${policy.table} (row_security access: ${policy.access})`;
  for (const ref of options.refs) {
    const candidates = candidatesOf(ref, options.tables, access);
    const policies = candidates.map((table) => access.rowPolicy(schemaOf(table, access), table.name));
    if (candidates.length === 0) {
      // Not one catalog table (a catalog-qualified name, or one listed after the catalog was
      // read): filtered only if it cannot be a protected table under another spelling.
      const named = access.rowPolicies.find(
        (policy) => policy.table.toLowerCase() === ref.table.toLowerCase(),
      );
      if (named !== undefined)
        return {
          error: `${qualified(ref)} cannot be resolved to one table; ${describe(named)} has that name`,
        };
      continue;
    }
    if (
      ref.schema === '' &&
      options.cteNames.has(ref.table.toLowerCase()) &&
      policies.every((p) => p === null)
    ) {
      continue;
    }
    const policy = policies.find((candidate) => candidate !== null);
    if (policy === undefined || policy === null) continue;
    // One name in several schemas: filtered alike only when their policies are the same.
    const same = (other: RowPolicy | null) =>
      other !== null &&
      other.access === policy.access &&
      other.predicate === policy.predicate &&
      other.columns.join('\0') === policy.columns.join('\0');
    if (!policies.every(same)) {
      return {
        error: `${qualified(ref)} names several tables with different row security; qualify it with its schema`,
      };
    }
    for (const table of candidates) {
      const missing = policy.columns.find(
        (column) => !table.columns.some((own) => own.name.toLowerCase() === column.toLowerCase()),
      );
      if (missing !== undefined) {
        return {
          error: `the predicate of ${describe(policy)} names ${missing}, which is not a column of that table`,
        };
      }
    }
    result.push({ ref, policy });
  }
  return result;
}

/** Functions that run SQL given as text, or read a table named by a string: their reads are invisible here. */
const SQL_RUNNING_FUNCTION = /query|table|xml|dblink|read_|scan|file|lo_import|copy/i;

interface TableRef extends Omit<ProtectedReference, 'policy'> {
  /** The parsed node, to know it again in the rewritten query. */
  node: object;
}

interface References {
  tables: TableRef[];
  cteNames: Set<string>;
  columns: string[];
  stars: { except: string[] }[];
  functions: string[];
}

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
      found.tables.push({
        node: record,
        location: typeof record.query_location === 'number' ? record.query_location : -1,
        catalog: String(record.catalog_name ?? ''),
        schema: String(record.schema_name ?? ''),
        table: record.table_name,
        alias: String(record.alias ?? ''),
      });
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
