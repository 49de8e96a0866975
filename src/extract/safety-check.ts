/**
 * Decides whether model-written SQL may run in the sandbox, using DuckDB's own parser:
 * `json_serialize_sql` returns the parsed statement as JSON (and refuses anything but
 * SELECT), which is walked node by node. Nothing here matches SQL text with patterns.
 *
 * Accepted: exactly one SELECT (WITH, QUALIFY, PIVOT … IN (…), UNPIVOT, window functions,
 * GROUP BY ALL, lambdas… are all SELECT syntax) that reads at least one result table and
 * nothing else: every base table is a result table or a CTE in scope, table functions are
 * limited to a few that only generate rows, and scalar functions that reach settings, the
 * catalog, files or the session, or that build values of unbounded size, are refused.
 *
 * This is one layer of three: the sandbox also disables external access and locks the
 * configuration, and bounds memory and time.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { messageOf } from '../errors/index.js';
import { parseDuckDbSql } from '../warehouse/duckdb/index.js';

export type SafetyCheckResult =
  /** `tree`: DuckDB's parse of the SQL (json_serialize_sql), for callers that look at its shape. */
  { success: true; tablesRead: string[]; tree: unknown } | { success: false; error: string };

/**
 * Longest extraction query accepted. A real one is a few hundred characters; the bound also
 * caps how much text a row-wise function (replace, ||) can add per value.
 */
export const MAX_SQL_LENGTH = 20_000;

/** Table functions that only generate rows from their arguments. */
const ALLOWED_TABLE_FUNCTIONS = new Set(['range', 'generate_series', 'unnest', 'json_each', 'json_tree']);

/** Scalar functions refused by name, with the reason the model is given. */
const REFUSED_FUNCTIONS: Record<string, string> = {
  current_setting: 'reads the configuration',
  getenv: 'reads the environment',
  current_query: 'reads the session',
  current_query_id: 'reads the session',
  current_connection_id: 'reads the session',
  current_transaction_id: 'reads the session',
  txid_current: 'reads the session',
  current_database: 'reads the catalog',
  current_catalog: 'reads the catalog',
  current_schema: 'reads the catalog',
  current_schemas: 'reads the catalog',
  current_role: 'reads the session',
  current_user: 'reads the session',
  in_search_path: 'reads the catalog',
  version: 'reads the engine',
  write_log: 'writes to the log',
  parse_duckdb_log_message: 'reads the log',
  nextval: 'uses sequences',
  currval: 'uses sequences',
  sleep_ms: 'only waits',
  json_serialize_sql: 'handles SQL text',
  json_deserialize_sql: 'handles SQL text',
  json_execute_serialized_sql: 'runs SQL text',
  query: 'runs SQL text',
  query_table: 'reads tables by name',
  glob: 'lists files',
  sniff_csv: 'reads files',
  // These build one value whose size comes from an argument; DuckDB's memory limit does not
  // cover such values, so a single call could exhaust the machine.
  repeat: 'builds values of unbounded size',
  lpad: 'builds values of unbounded size',
  rpad: 'builds values of unbounded size',
  list_resize: 'builds values of unbounded size',
  array_resize: 'builds values of unbounded size',
  range: 'builds a list of unbounded size here (use the table function: FROM range(…))',
  generate_series: 'builds a list of unbounded size here (use the table function: FROM generate_series(…))',
  printf: 'pads values to any width (use || to build text)',
  format: 'pads values to any width (use || to build text)',
};

/** Name prefixes of function families that reach files, the catalog or the engine. */
const REFUSED_PREFIXES = [
  'duckdb_',
  'pragma_',
  'read_',
  'parquet_',
  'pg_',
  'has_',
  'icu_',
  'enable_',
  'disable_',
];

const ALLOWED_QUALIFIERS = new Set(['', 'main', 'memory', 'system']);

class Rejection extends Error {}

/**
 * Checks `sql` against the result tables `tableIds` (matched as DuckDB matches identifiers:
 * case-insensitively). `connection` is only used to parse; nothing is executed.
 */
export async function checkExtractionSql(options: {
  connection: DuckDBConnection;
  sql: string;
  tableIds: readonly string[];
}): Promise<SafetyCheckResult> {
  const { connection, sql } = options;
  if (sql.trim() === '') return { success: false, error: 'The query is empty.' };
  // DuckDB's parser takes the text as a C string: everything after a NUL would be lost, and
  // the query that ran would not be the one recorded.
  const nul = sql.indexOf('\0');
  if (nul !== -1) {
    return {
      success: false,
      error: `The query contains a NUL character (U+0000) at position ${nul + 1}, which is not valid in SQL text; remove it.`,
    };
  }
  if (sql.length > MAX_SQL_LENGTH) {
    return {
      success: false,
      error: `The query is ${sql.length} characters long; at most ${MAX_SQL_LENGTH} are accepted. Select the values from the tables instead of writing them out.`,
    };
  }

  let tree: unknown;
  try {
    tree = await parseDuckDbSql(connection, sql);
  } catch (error) {
    return { success: false, error: messageOf(error) };
  }
  if (!isObject(tree)) return { success: false, error: 'DuckDB could not parse the query.' };
  const statements = Array.isArray(tree.statements) ? tree.statements : [];
  if (tree.error !== true && statements.length === 0) return { success: false, error: 'The query is empty.' };

  // The statement count comes from DuckDB's statement splitter, which also sees statements
  // that json_serialize_sql refuses to serialize. One serialized SELECT needs no second
  // opinion (each DuckDB call costs CPU that large suites feel).
  let statementCount = 1;
  if (tree.error === true || statements.length !== 1) {
    try {
      statementCount = (await connection.extractStatements(sql)).count;
    } catch (error) {
      return { success: false, error: tree.error === true ? String(tree.error_message) : messageOf(error) };
    }
  }
  if (statementCount > 1) {
    return {
      success: false,
      error:
        `Exactly one SELECT statement is allowed; this text holds ${statementCount} statements. ` +
        '(A PIVOT without an explicit IN (…) list also expands to several statements: list the pivoted values.)',
    };
  }
  if (tree.error === true) {
    const message = String(tree.error_message ?? 'DuckDB could not parse the query.');
    if (/^Only SELECT statements/i.test(message)) {
      return {
        success: false,
        error: `Only a read-only SELECT query is allowed (WITH … SELECT is fine), not ${firstWord(sql)}.`,
      };
    }
    return { success: false, error: message };
  }
  if (statements.length !== 1) {
    return { success: false, error: `Exactly one SELECT statement is allowed; found ${statements.length}.` };
  }

  const tableIds = new Map(options.tableIds.map((id) => [id.toLowerCase(), id]));
  const tablesRead = new Set<string>();
  try {
    new Walker(tableIds, tablesRead).visit(statements[0], new Set());
  } catch (error) {
    if (error instanceof Rejection) return { success: false, error: error.message };
    throw error;
  }
  if (tablesRead.size === 0) {
    return {
      success: false,
      error:
        `The query reads none of the result tables (${listIds(options.tableIds)}); ` +
        'select the answer from them instead of writing its values as literals.',
    };
  }
  return { success: true, tablesRead: [...tablesRead], tree };
}

const QUERY_NODES = new Set(['SELECT_NODE', 'SET_OPERATION_NODE', 'RECURSIVE_CTE_NODE', 'CTE_NODE']);
const REFUSED_NODES: Record<string, string> = {
  SHOW_REF: 'DESCRIBE, SHOW and SUMMARIZE are not answers; select the answer’s rows instead',
  COLUMN_DATA: 'this construct is not allowed',
  DELIM_GET: 'this construct is not allowed',
  BOUND_TABLE_REF: 'this construct is not allowed',
  STATEMENT_NODE: 'only a SELECT is allowed',
  INSERT_QUERY_NODE: 'only a SELECT is allowed',
  UPDATE_QUERY_NODE: 'only a SELECT is allowed',
  DELETE_QUERY_NODE: 'only a SELECT is allowed',
  MERGE_INTO_QUERY_NODE: 'only a SELECT is allowed',
  BOUND_SUBQUERY_NODE: 'this construct is not allowed',
};

class Walker {
  constructor(
    private readonly tableIds: ReadonlyMap<string, string>,
    private readonly tablesRead: Set<string>,
  ) {}

  /** `scope`: the names of the CTEs in scope, in lower case. */
  visit(node: unknown, scope: ReadonlySet<string>): void {
    if (Array.isArray(node)) {
      for (const item of node) this.visit(item, scope);
      return;
    }
    if (!isObject(node)) return;
    // A logical type (`{id, type_info}`) holds no expressions or tables.
    if ('id' in node && 'type_info' in node) return;

    const type = typeof node.type === 'string' ? node.type : undefined;
    const isExpression = typeof node.class === 'string';

    if (!isExpression && type !== undefined) {
      const refused = REFUSED_NODES[type];
      if (refused !== undefined) throw new Rejection(`${refused} (${type}).`);
      if (QUERY_NODES.has(type)) {
        this.visitQueryNode(node, scope);
        return;
      }
      if (type === 'BASE_TABLE') {
        this.visitBaseTable(node, scope);
        return;
      }
      if (type === 'TABLE_FUNCTION') {
        this.visitTableFunction(node, scope);
        return;
      }
    }
    if (!isExpression && 'table_name' in node) {
      throw new Rejection(`This kind of table reference is not allowed (${type ?? 'unknown'}).`);
    }
    if (isExpression && typeof node.function_name === 'string') this.checkFunction(node);
    for (const value of Object.values(node)) this.visit(value, scope);
  }

  /** CTEs are visible to the query body and to later CTEs; a recursive one also to itself. */
  private visitQueryNode(node: Record<string, unknown>, outer: ReadonlySet<string>): void {
    const names = new Set(outer);
    const cteMap = isObject(node.cte_map) && Array.isArray(node.cte_map.map) ? node.cte_map.map : [];
    for (const entry of cteMap) {
      if (!isObject(entry)) continue;
      const name = String(entry.key ?? '').toLowerCase();
      const definition = isObject(entry.value) ? entry.value : {};
      const query = isObject(definition.query) ? definition.query.node : undefined;
      const own = new Set(names);
      if (isObject(query) && query.type === 'RECURSIVE_CTE_NODE') own.add(name);
      this.visit(definition, own);
      names.add(name);
    }
    if (node.type === 'RECURSIVE_CTE_NODE' && typeof node.cte_name === 'string') {
      names.add(node.cte_name.toLowerCase());
    }
    for (const [key, value] of Object.entries(node)) {
      if (key !== 'cte_map') this.visit(value, names);
    }
  }

  private visitBaseTable(node: Record<string, unknown>, scope: ReadonlySet<string>): void {
    const name = String(node.table_name ?? '');
    const schema = String(node.schema_name ?? '').toLowerCase();
    const catalog = String(node.catalog_name ?? '').toLowerCase();
    const qualified = schema !== '' || catalog !== '';
    const key = name.toLowerCase();
    if (!qualified && scope.has(key)) {
      this.visit(node.sample, scope);
      return;
    }
    const id = this.tableIds.get(key);
    if (id === undefined) {
      const shown = [catalog, schema, name].filter((part) => part !== '').join('.');
      if (/[/\\:.]/.test(name) || name.includes('*')) {
        throw new Rejection(
          `"${shown}" looks like a file or URL; only the result tables can be read (${listIds([...this.tableIds.values()])}).`,
        );
      }
      throw new Rejection(
        `Only the result tables can be read: "${shown}" is not one of them (${listIds([...this.tableIds.values()])}).`,
      );
    }
    if (
      (catalog !== '' && catalog !== 'memory') ||
      (schema !== '' && schema !== 'main' && !(catalog === '' && schema === 'memory'))
    ) {
      throw new Rejection(`Write the result table as "${id}" without a schema or catalog.`);
    }
    if (node.at_clause !== null && node.at_clause !== undefined) {
      throw new Rejection(`Time travel (AT …) is not available on "${id}".`);
    }
    this.tablesRead.add(id);
    this.visit(node.sample, scope);
  }

  private visitTableFunction(node: Record<string, unknown>, scope: ReadonlySet<string>): void {
    const call = isObject(node.function) ? node.function : {};
    const name = String(call.function_name ?? '').toLowerCase();
    const qualifier = [call.catalog, call.schema].map((part) => String(part ?? '').toLowerCase());
    if (!ALLOWED_TABLE_FUNCTIONS.has(name) || qualifier.some((part) => !ALLOWED_QUALIFIERS.has(part))) {
      throw new Rejection(
        `The table function ${name || '(unknown)'}() is not allowed; read the result tables (${listIds([...this.tableIds.values()])}). ` +
          `Only ${[...ALLOWED_TABLE_FUNCTIONS].join(', ')} may be used in FROM.`,
      );
    }
    // The call node itself is not a scalar call: visit its arguments, not its name.
    for (const [key, value] of Object.entries(call)) {
      if (key !== 'function_name') this.visit(value, scope);
    }
    for (const [key, value] of Object.entries(node)) {
      if (key !== 'function') this.visit(value, scope);
    }
  }

  private checkFunction(node: Record<string, unknown>): void {
    const name = String(node.function_name).toLowerCase();
    const qualifier = [node.catalog, node.schema].map((part) => String(part ?? '').toLowerCase());
    if (qualifier.some((part) => !ALLOWED_QUALIFIERS.has(part))) {
      throw new Rejection(`Call ${name}() without a schema or catalog.`);
    }
    const reason =
      REFUSED_FUNCTIONS[name] ??
      (REFUSED_PREFIXES.some((prefix) => name.startsWith(prefix))
        ? 'reaches outside the result tables'
        : undefined);
    if (reason !== undefined)
      throw new Rejection(`The function ${name}() is not allowed here: it ${reason}.`);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function listIds(ids: readonly string[]): string {
  return ids.length === 0 ? 'none' : ids.map((id) => `"${id}"`).join(', ');
}

/** The statement keyword, for a message only; the decision was DuckDB's parser's. */
function firstWord(sql: string): string {
  const stripped = sql.replace(/^(\s|--[^\n]*\n?|\/\*[\s\S]*?\*\/|\()+/, '');
  const word = /^[A-Za-z_]+/.exec(stripped)?.[0];
  return word === undefined ? 'this statement' : word.toUpperCase();
}
