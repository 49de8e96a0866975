import { type SerializedSql, serializeSql } from './duckdb-parser.js';
import type { RowPolicy } from './table-access.js';

/**
 * Row security as the original nao's row security guard applies it to the agent's SQL, done
 * here by rewriting text rather than regenerating SQL: every reference to a table with a
 * policy becomes `(SELECT * FROM <name as written> WHERE (<predicate>)) AS <alias>`, at the
 * position DuckDB's parser gives (`query_location`), so the rest of the query stays in the
 * warehouse's dialect, byte for byte. The result is parsed again and accepted only when every
 * reference to a protected table sits directly in such a wrapper with its policy's filter.
 */

/** A reference to a table with a policy, as the parser found it. */
export interface ProtectedReference {
  /** Byte offset of the reference in the UTF-8 query (DuckDB's `query_location`). */
  location: number;
  catalog: string;
  schema: string;
  table: string;
  /** The alias written after the name, '' when none. */
  alias: string;
  policy: RowPolicy;
}

export type RowSecurityResult = { success: true; sql: string } | { success: false; error: string };

/**
 * Rewrites `sql` so that each of `references` reads only the rows its policy allows, then
 * checks the rewrite with `findProtected`, which finds the protected references of the new
 * query and their policies (the caller resolves names against the catalog, as for the first parse).
 */
export async function applyRowSecurity(options: {
  sql: string;
  references: readonly ProtectedReference[];
  findProtected: (tree: unknown) => { node: object; policy: RowPolicy }[] | { error: string };
}): Promise<RowSecurityResult> {
  if (options.references.length === 0) return { success: true, sql: options.sql };
  const bytes = Buffer.from(options.sql, 'utf8');
  const edits: { start: number; end: number; text: string }[] = [];
  for (const reference of options.references) {
    if (reference.location < 0 || reference.location >= bytes.length) {
      return {
        success: false,
        error: `${describe(reference)} has no position in the query text to filter it at`,
      };
    }
    const name = readTableName(bytes, reference);
    if (name === null) {
      return {
        success: false,
        error: `the reference to ${describe(reference)} could not be located in the query text to filter its rows`,
      };
    }
    const alias = reference.alias === '' ? ` AS ${name.last}` : '';
    edits.push({
      start: reference.location,
      end: name.end,
      text: `(SELECT * FROM ${name.text} WHERE (${reference.policy.predicate}))${alias}`,
    });
  }
  edits.sort((a, b) => b.start - a.start);
  let rewritten = bytes;
  for (const edit of edits) {
    rewritten = Buffer.concat([
      rewritten.subarray(0, edit.start),
      Buffer.from(edit.text, 'utf8'),
      rewritten.subarray(edit.end),
    ]);
  }
  const sql = rewritten.toString('utf8');

  const tree = await serializeSql(sql);
  const statement = singleStatement(tree);
  if (statement === null) {
    return {
      success: false,
      error:
        'the query with its row filters added no longer parses (DESCRIBE, SUMMARIZE, TABLE and ONLY take a table, not a filtered one; use SELECT)',
    };
  }
  const found = options.findProtected(statement);
  if ('error' in found) return { success: false, error: found.error };
  const guarded = await guardedTables(statement, found);
  for (const entry of found) {
    if (!guarded.has(entry.node)) {
      return {
        success: false,
        error: `a reference to ${entry.policy.schema}.${entry.policy.table} would escape its row filter`,
      };
    }
  }
  if (found.length !== options.references.length) {
    return { success: false, error: 'the query with its row filters added reads other tables than before' };
  }
  return { success: true, sql };
}

function describe(reference: ProtectedReference): string {
  return `${reference.policy.schema}.${reference.policy.table} (row_security access: ${reference.policy.access})`;
}

function singleStatement(tree: SerializedSql): unknown | null {
  if (tree.error === true || !Array.isArray(tree.statements) || tree.statements.length !== 1) return null;
  return tree.statements[0];
}

/**
 * The table name at `reference.location` as written: one to three identifiers joined by dots,
 * as many as the parser found (catalog, schema, table), the last one the table. Null when the
 * text there is anything else (a comment between the parts, a string): refused by the caller.
 */
function readTableName(
  bytes: Buffer,
  reference: ProtectedReference,
): { text: string; last: string; end: number } | null {
  const parts = [reference.catalog, reference.schema, reference.table].filter((part) => part !== '');
  const text = bytes.subarray(reference.location).toString('utf8');
  let offset = 0;
  let last = '';
  let lastValue = '';
  for (let index = 0; index < parts.length; index++) {
    if (index > 0) {
      const dot = /^\s*\.\s*/.exec(text.slice(offset));
      if (dot === null) return null;
      offset += dot[0].length;
    }
    const identifier = /^"(?:[^"]|"")*"|^[\p{L}_][\p{L}\p{N}_$]*/u.exec(text.slice(offset));
    if (identifier === null) return null;
    last = identifier[0];
    lastValue = last.startsWith('"') ? last.slice(1, -1).replaceAll('""', '"') : last;
    offset += last.length;
  }
  // The parser's name for the table must be what was read, or the position is not trusted.
  if (lastValue.toLowerCase() !== reference.table.toLowerCase()) return null;
  const written = text.slice(0, offset);
  return { text: written, last, end: reference.location + Buffer.byteLength(written, 'utf8') };
}

const NO_LOCATION = (key: string, value: unknown) => (key === 'query_location' ? undefined : value);

/** A filter's parsed form without positions, to compare a wrapper's WHERE with its policy. */
const expectedFilters = new Map<string, string>();

async function expectedFilter(predicate: string): Promise<string | null> {
  const known = expectedFilters.get(predicate);
  if (known !== undefined) return known;
  const statement = singleStatement(await serializeSql(`SELECT * FROM t WHERE (${predicate})`));
  const where = (statement as { node?: { where_clause?: unknown } } | null)?.node?.where_clause;
  if (where === undefined || where === null) return null;
  const text = JSON.stringify(where, NO_LOCATION);
  expectedFilters.set(predicate, text);
  return text;
}

/**
 * The base-table nodes of `found` that sit directly in a wrapper of the rewrite's shape: a
 * subquery in FROM that is exactly `SELECT * FROM <that table> WHERE <its policy's filter>`,
 * with nothing else (no EXCLUDE/REPLACE, grouping, sample, modifiers or CTE).
 */
async function guardedTables(
  statement: unknown,
  found: readonly { node: object; policy: RowPolicy }[],
): Promise<Set<object>> {
  const policyOf = new Map(found.map((entry) => [entry.node, entry.policy]));
  const candidates: { node: object; where: unknown }[] = [];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
      return;
    }
    if (value === null || typeof value !== 'object') return;
    const record = value as Record<string, unknown>;
    if (record.type === 'SUBQUERY') {
      const inner = (record.subquery as { node?: Record<string, unknown> } | undefined)?.node;
      const from = inner?.from_table;
      if (inner !== undefined && isPlainFilter(inner) && from !== null && typeof from === 'object') {
        candidates.push({ node: from, where: inner.where_clause });
      }
    }
    for (const child of Object.values(record)) visit(child);
  };
  visit(statement);
  const guarded = new Set<object>();
  for (const candidate of candidates) {
    const policy = policyOf.get(candidate.node);
    if (policy === undefined) continue;
    const expected = await expectedFilter(policy.predicate);
    if (expected !== null && JSON.stringify(candidate.where, NO_LOCATION) === expected) {
      guarded.add(candidate.node);
    }
  }
  return guarded;
}

function isPlainFilter(node: Record<string, unknown>): boolean {
  const list = node.select_list;
  const star = Array.isArray(list) && list.length === 1 ? (list[0] as Record<string, unknown>) : null;
  const empty = (value: unknown) => Array.isArray(value) && value.length === 0;
  const cteMap = node.cte_map as { map?: unknown[] } | undefined;
  return (
    node.type === 'SELECT_NODE' &&
    star !== null &&
    star.class === 'STAR' &&
    star.relation_name === '' &&
    star.columns === false &&
    star.expr === null &&
    empty(star.exclude_list) &&
    empty(star.replace_list) &&
    (star.qualified_exclude_list === undefined || empty(star.qualified_exclude_list)) &&
    (star.rename_list === undefined || empty(star.rename_list)) &&
    node.where_clause !== null &&
    node.where_clause !== undefined &&
    empty(node.modifiers) &&
    empty(node.group_expressions) &&
    (node.having === null || node.having === undefined) &&
    (node.qualify === null || node.qualify === undefined) &&
    (node.sample === null || node.sample === undefined) &&
    (cteMap?.map === undefined || empty(cteMap.map))
  );
}
