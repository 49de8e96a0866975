/**
 * The one-round-trip read of a small DuckDB result. The query runs to completion wrapped as
 * `SELECT * FROM (sql) LIMIT n` and its rows are read from the materialized result, where a
 * streamed read takes four round trips (prepare, run, the chunk, the empty end); with many runs
 * in flight each round trip waits for the thread pool and the event loop.
 *
 * The wrapper must not change what the query means. It is used only when:
 * - the SQL text keeps its own parentheses inside itself (`isWrappable`), so it cannot close
 *   the wrapper's parenthesis and run as some other query;
 * - no output column may have been renamed: DuckDB renames the duplicate names of a subquery
 *   (a, a → a, a_1), so a name like `a_1` beside an `a` gives up;
 * - the engine keeps insertion order, so the outer query keeps an inner ORDER BY (the caller
 *   vouches for that).
 * A result longer than `BOUNDED_ROWS`, and every error, are left to the streamed read: it gives
 * DuckDB's message about the SQL as written, not about the wrapper. A failing query thus runs
 * twice (within its one time limit); most fail while binding, in well under a millisecond.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import type { QueryResult } from './database.js';
import { readDuckDbResult } from './duckdb-result.js';
import { asSubquery, withoutFinalSemicolons } from './duckdb-sql-text.js';

/**
 * Rows a bounded read returns at most; a longer result runs again the streamed way. It is also
 * where streaming switches reading strategy for long text (duckdb-query.ts), so every result
 * the bounded read takes would have been read value by value anyway.
 */
export const BOUNDED_ROWS = 16_384;

/**
 * Reads the result of `sql` in one round trip, or returns undefined when it cannot be done
 * faithfully (see the file comment); the caller then streams it. Keeps at most `maxRows` rows,
 * with `truncated` when more existed.
 */
export async function readBounded(options: {
  connection: DuckDBConnection;
  sql: string;
  maxRows: number;
}): Promise<QueryResult | undefined> {
  const { connection, sql, maxRows } = options;
  if (!isWrappable(sql)) return undefined;
  const cap = Math.min(maxRows, BOUNDED_ROWS);
  let result: Awaited<ReturnType<DuckDBConnection['run']>>;
  try {
    result = await connection.run(`SELECT * FROM ${asSubquery(sql)} LIMIT ${cap + 1}`);
  } catch {
    return undefined;
  }
  if (mayBeRenamed(result.columnNames())) return undefined;
  const read = await readDuckDbResult(result, { maxRows: cap });
  // More than the bound but within maxRows: the rest of the rows are needed.
  if (read.truncated && cap < maxRows) return undefined;
  return { columns: read.columns, rows: read.rows, truncated: read.truncated };
}

/**
 * True when the SQL, without its final semicolons, can sit inside `( … )` as one subquery. A
 * conservative lexical scan: strings, quoted names and comments are skipped; outside
 * them a `)` may never close more than the SQL opened and a `;` (a second statement) gives up.
 * Text whose lexing is subtle (backslash escapes of E'…' strings, $$-quoting, nested block
 * comments) gives up rather than risk reading it differently from DuckDB.
 */
export function isWrappable(sql: string): boolean {
  const body = withoutFinalSemicolons(sql);
  if (body === '' || body.includes('\\') || body.includes('$')) return false;
  let depth = 0;
  let i = 0;
  while (i < body.length) {
    const char = body[i]!;
    const next = body[i + 1];
    if (char === "'" || char === '"') {
      // A doubled quote inside stands for itself.
      let end = i + 1;
      for (;;) {
        end = body.indexOf(char, end);
        if (end === -1) return false;
        if (body[end + 1] !== char) break;
        end += 2;
      }
      i = end + 1;
    } else if (char === '-' && next === '-') {
      // A comment that runs to the end is closed by the newline the wrapper adds.
      const end = body.indexOf('\n', i);
      if (end === -1) break;
      i = end + 1;
    } else if (char === '/' && next === '*') {
      const end = body.indexOf('*/', i + 2);
      if (end === -1 || body.slice(i + 2, end).includes('/*')) return false;
      i = end + 2;
    } else {
      if (char === '(') depth++;
      else if (char === ')' && --depth < 0) return false;
      else if (char === ';') return false;
      i++;
    }
  }
  return depth === 0;
}

/** True when DuckDB may have renamed a duplicate column name: `x_<n>` beside an `x` (any case). */
export function mayBeRenamed(names: readonly string[]): boolean {
  const lower = new Set(names.map((name) => name.toLowerCase()));
  return names.some((name) => {
    const match = /^(.*)_\d+$/s.exec(name);
    return match !== null && lower.has(match[1]!.toLowerCase());
  });
}
