/**
 * Just enough GoogleSQL for the fake BigQuery: the statement type a dry run reports (as
 * BigQuery names it in `statistics.query.statementType`), and the text DuckDB runs instead
 * (string literals in either quote, backtick paths, TIMESTAMP meaning a time-zone type, a
 * dataset's INFORMATION_SCHEMA.COLUMNS).
 */

type Token =
  | { kind: 'word'; text: string }
  | { kind: 'string'; value: string }
  | { kind: 'path'; parts: string[] }
  | { kind: 'other'; text: string };

export class GoogleSqlError extends Error {}

function tokenize(sql: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < sql.length) {
    const rest = sql.slice(i);
    const char = sql[i]!;
    if (rest.startsWith('--') || char === '#') {
      const end = sql.indexOf('\n', i);
      i = end === -1 ? sql.length : end;
    } else if (rest.startsWith('/*')) {
      const end = sql.indexOf('*/', i + 2);
      if (end === -1) throw new GoogleSqlError('Syntax error: Unclosed comment');
      i = end + 2;
    } else if (/\s/.test(char)) {
      tokens.push({ kind: 'other', text: ' ' });
      i++;
    } else if (char === "'" || char === '"') {
      let value = '';
      let j = i + 1;
      while (j < sql.length && sql[j] !== char) {
        if (sql[j] === '\\' && j + 1 < sql.length) {
          const escaped = sql[j + 1]!;
          value += escaped === 'n' ? '\n' : escaped === 't' ? '\t' : escaped;
          j += 2;
        } else {
          value += sql[j];
          j++;
        }
      }
      if (j >= sql.length) throw new GoogleSqlError('Syntax error: Unclosed string literal');
      tokens.push({ kind: 'string', value });
      i = j + 1;
    } else if (char === '`') {
      const end = sql.indexOf('`', i + 1);
      if (end === -1) throw new GoogleSqlError('Syntax error: Unclosed identifier literal');
      const parts = sql.slice(i + 1, end).split('.');
      const previous = tokens.at(-1);
      // `a`.`b` and `a.b` name the same path.
      if (previous?.kind === 'path' && sql[i - 1] === '.') previous.parts.push(...parts);
      else tokens.push({ kind: 'path', parts });
      i = end + 1;
    } else if (/[A-Za-z_]/.test(char)) {
      const word = /^[A-Za-z_][A-Za-z0-9_]*/.exec(rest)![0];
      const previous = tokens.at(-1);
      if (previous?.kind === 'path' && sql[i - 1] === '.') previous.parts.push(word);
      else tokens.push({ kind: 'word', text: word });
      i += word.length;
    } else if (char === '.' && sql[i + 1] === '`' && tokens.at(-1)?.kind === 'path') {
      i++;
    } else if (char === '.' && /[A-Za-z_]/.test(sql[i + 1] ?? '') && tokens.at(-1)?.kind === 'path') {
      i++;
    } else {
      tokens.push({ kind: 'other', text: char });
      i++;
    }
  }
  return tokens;
}

/** The statements of a text, split at semicolons outside literals; empty ones dropped. */
function statementsOf(tokens: Token[]): Token[][] {
  const statements: Token[][] = [[]];
  for (const token of tokens) {
    if (token.kind === 'other' && token.text === ';') statements.push([]);
    else statements.at(-1)!.push(token);
  }
  return statements.filter((statement) =>
    statement.some((token) => token.kind !== 'other' || token.text !== ' '),
  );
}

const OBJECT_KINDS = ['TABLE', 'VIEW', 'SCHEMA', 'FUNCTION', 'PROCEDURE', 'MODEL'];
const SCRIPTING = ['DECLARE', 'SET', 'BEGIN', 'IF', 'LOOP', 'WHILE', 'REPEAT', 'FOR', 'EXECUTE', 'RAISE'];

/** What BigQuery's dry run reports as `statementType`; a text of several statements is a SCRIPT. */
export function statementType(sql: string): string {
  const statements = statementsOf(tokenize(sql));
  if (statements.length === 0) throw new GoogleSqlError('Syntax error: Unexpected end of script');
  if (statements.length > 1) return 'SCRIPT';
  const words = statements[0]!
    .filter((token) => token.kind === 'word')
    .map((token) => token.text.toUpperCase());
  const first = statements[0]!.find((token) => token.kind !== 'other' || token.text !== ' ');
  if (first?.kind === 'other' && first.text === '(') return 'SELECT';
  const [keyword = '', ...more] = words;
  if (['SELECT', 'WITH', 'FROM'].includes(keyword)) return 'SELECT';
  if (['INSERT', 'UPDATE', 'DELETE', 'MERGE', 'CALL', 'ASSERT'].includes(keyword)) return keyword;
  if (keyword === 'TRUNCATE') return 'TRUNCATE_TABLE';
  if (keyword === 'EXPORT') return more[0] === 'MODEL' ? 'EXPORT_MODEL' : 'EXPORT_DATA';
  if (keyword === 'LOAD') return 'LOAD_DATA';
  if (SCRIPTING.includes(keyword)) return 'SCRIPT';
  if (['CREATE', 'DROP', 'ALTER'].includes(keyword)) {
    const modifiers = ['OR', 'REPLACE', 'TEMP', 'TEMPORARY', 'IF', 'NOT', 'EXISTS'];
    const kind = more.filter((word) => !modifiers.includes(word));
    let object = kind[0] ?? '';
    if (['EXTERNAL', 'SNAPSHOT', 'MATERIALIZED', 'SEARCH', 'VECTOR'].includes(object))
      object = `${object}_${kind[1]}`;
    else if (object === 'TABLE' && kind[1] === 'FUNCTION') object = 'TABLE_FUNCTION';
    else if (object === 'ROW') object = 'ROW_ACCESS_POLICY';
    if (!OBJECT_KINDS.includes(object.split('_').at(-1) ?? '') && !object.endsWith('POLICY')) {
      throw new GoogleSqlError(`Syntax error: Unexpected keyword ${kind[0] ?? 'end of statement'}`);
    }
    if (keyword === 'CREATE' && object === 'TABLE' && kind.includes('AS') && kind.includes('SELECT')) {
      return 'CREATE_TABLE_AS_SELECT';
    }
    return `${keyword}_${object}`;
  }
  throw new GoogleSqlError(`Syntax error: Unexpected keyword ${keyword || 'end of statement'}`);
}

function quoteDuckDb(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** The text DuckDB runs for a GoogleSQL statement, with `project` the fake's project id. */
export function toDuckDbSql(sql: string, project: string): string {
  let out = '';
  for (const token of tokenize(sql)) {
    if (token.kind === 'string') {
      out += `'${token.value.replaceAll("'", "''")}'`;
    } else if (token.kind === 'path') {
      const parts = token.parts[0] === project && token.parts.length > 1 ? token.parts.slice(1) : token.parts;
      const [dataset, schema, view] = parts;
      if (
        parts.length === 3 &&
        schema?.toUpperCase() === 'INFORMATION_SCHEMA' &&
        view?.toUpperCase() === 'COLUMNS'
      ) {
        out += `bq_information_schema_columns('${dataset!.replaceAll("'", "''")}')`;
      } else {
        out += parts.map(quoteDuckDb).join('.');
      }
    } else if (token.kind === 'word') {
      // A GoogleSQL TIMESTAMP is an instant, DuckDB's TIMESTAMPTZ; its DATETIME is DuckDB's TIMESTAMP.
      out += token.text.toUpperCase() === 'TIMESTAMP' ? 'TIMESTAMPTZ' : token.text;
    } else {
      out += token.text;
    }
  }
  return out;
}
