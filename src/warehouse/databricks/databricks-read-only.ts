/**
 * What Databricks may run for nao. A SQL warehouse has no read-only session, so nao asks the
 * warehouse's own parser, with EXPLAIN (which plans a statement and never runs it):
 * - `EXPLAIN SELECT * FROM (<statement>)` parses only when the statement is one query
 *   (SELECT, VALUES, TABLE, FROM …, WITH … SELECT): a write, a DDL statement, a SET or USE,
 *   a second statement or a CTE before an INSERT is a syntax error in a subquery;
 * - when it does not parse, `EXPLAIN <statement>` tells a statement the warehouse knows (then
 *   refused, as READ_ONLY_VIOLATION; SHOW and DESCRIBE excepted, they only read the catalog)
 *   from one with a syntax error (its own error, as QUERY_FAILED).
 * The wrap puts the statement on lines of its own, so a final `--` comment cannot hide the
 * closing parenthesis.
 */

/** One EXPLAIN on the warehouse: resolves when it parses, rejects with the warehouse's error. */
export type Explain = (statement: string) => Promise<void>;

export type StatementVerdict = { kind: 'query' } | { kind: 'refused' };

const METADATA_READ = /^(?:SHOW|DESCRIBE|DESC)\b/i;

/** The statement without the comments and blanks before it. */
function leadingText(sql: string): string {
  return sql.replace(/^(?:\s+|--[^\n]*(?:\n|$)|\/\*[\s\S]*?\*\/)*/, '');
}

/**
 * The statement without what follows its last token: final semicolons, blanks and comments
 * (`SELECT 1; -- done`), as it is wrapped and then run. Spark SQL's quoting is followed:
 * strings in '…' or "…" with backslash escapes, names in `…`, nested block comments.
 */
export function withoutFinalSemicolons(sql: string): string {
  let end = 0;
  let index = 0;
  while (index < sql.length) {
    const char = sql[index]!;
    if (char === '-' && sql[index + 1] === '-') {
      const newline = sql.indexOf('\n', index);
      index = newline === -1 ? sql.length : newline + 1;
    } else if (char === '/' && sql[index + 1] === '*') {
      let depth = 0;
      while (index < sql.length) {
        if (sql.startsWith('/*', index)) {
          depth++;
          index += 2;
        } else if (sql.startsWith('*/', index)) {
          depth--;
          index += 2;
          if (depth === 0) break;
        } else index++;
      }
    } else if (char === "'" || char === '"' || char === '`') {
      index++;
      while (index < sql.length && sql[index] !== char) index += sql[index] === '\\' && char !== '`' ? 2 : 1;
      index++;
      end = Math.min(index, sql.length);
    } else {
      index++;
      if (char !== ';' && !/\s/.test(char)) end = index;
    }
  }
  return sql.slice(0, end);
}

/**
 * Whether `statement` may run. Rejects with the warehouse's parse error when the statement
 * does not parse at all, and with any other error EXPLAIN met.
 */
export async function classifyStatement(options: {
  statement: string;
  explain: Explain;
  isParseError: (error: unknown) => boolean;
}): Promise<StatementVerdict> {
  const { statement, explain, isParseError } = options;
  try {
    await explain(`SELECT * FROM (\n${statement}\n)`);
    return { kind: 'query' };
  } catch (error) {
    if (!isParseError(error)) throw error;
  }
  // Not a query: a statement of another kind, or no statement at all. Its own EXPLAIN says which.
  await explain(statement);
  return METADATA_READ.test(leadingText(statement)) ? { kind: 'query' } : { kind: 'refused' };
}
