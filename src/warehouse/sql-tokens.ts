/**
 * The words of a PostgreSQL or MySQL/MariaDB statement, read the way the server reads them:
 * comments (PostgreSQL's nest), string literals, dollar quotes, quoted identifiers. nao's
 * statement guards (postgres-statement-guard.ts, mysql-statement-guard.ts) look for names in
 * them; a text they cannot read is refused, never guessed at.
 */

export type SqlTokenKind = 'word' | 'quoted' | 'string' | 'symbol';

export interface SqlToken {
  kind: SqlTokenKind;
  /** A word or quoted identifier in lower case (quoted ones too: a refusal errs on the safe side); a symbol's character. */
  text: string;
}

export type SqlLexDialect = 'postgres' | 'mysql';

export interface SqlLexOptions {
  dialect: SqlLexDialect;
  /**
   * Whether a backslash escapes the next character inside '…' (MySQL's default; PostgreSQL's
   * with standard_conforming_strings off). The server's setting can change, so callers read
   * the statement both ways.
   */
  backslashEscapes: boolean;
}

/** A statement nao cannot read; its guards refuse it. */
export class SqlLexError extends Error {
  /** True when no reading of backslashes would help: an executable comment, a Unicode-escaped name. */
  readonly always: boolean;

  constructor(message: string, options: { always: boolean } = { always: false }) {
    super(message);
    this.always = options.always;
  }
}

const WORD_START = /[A-Za-z_\u0080-\uffff]/;
const WORD_PART = /[A-Za-z0-9_$\u0080-\uffff]/;
/** A dollar quote's opening tag: `$$` or `$name$`. */
const DOLLAR_TAG = /\$([A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*)?\$/y;
const MYSQL_WORD_PART = /[A-Za-z0-9_$\u0080-\uffff]/;

/** The tokens of `sql`, comments left out; throws SqlLexError for what the server's lexer would read differently or not at all. */
export function sqlTokens(sql: string, options: SqlLexOptions): SqlToken[] {
  const tokens: SqlToken[] = [];
  const mysql = options.dialect === 'mysql';
  let at = 0;
  const length = sql.length;

  /** The end of a quoted run opened at `start` by `quote`, doubled quotes (and backslashes when `escapes`) inside. */
  const closing = (start: number, quote: string, escapes: boolean): number => {
    let i = start + 1;
    while (i < length) {
      const char = sql[i];
      if (escapes && char === '\\') {
        i += 2;
        continue;
      }
      if (char === quote) {
        if (sql[i + 1] === quote) {
          i += 2;
          continue;
        }
        return i + 1;
      }
      i++;
    }
    throw new SqlLexError(`an unterminated ${quote} quote`);
  };

  while (at < length) {
    const char = sql[at]!;
    const next = sql[at + 1];
    if (/\s/.test(char)) {
      at++;
    } else if (char === '-' && next === '-' && (!mysql || !(sql.charCodeAt(at + 2) > 32))) {
      // MySQL's `--` starts a comment only before a space, a control character or the end.
      const end = sql.indexOf('\n', at);
      at = end === -1 ? length : end + 1;
    } else if (mysql && char === '#') {
      const end = sql.indexOf('\n', at);
      at = end === -1 ? length : end + 1;
    } else if (char === '/' && next === '*') {
      if (mysql && /^\/\*(!|M!)/.test(sql.slice(at, at + 4))) {
        // MySQL and MariaDB run what an executable comment holds.
        throw new SqlLexError('an executable comment (/*! … */)', { always: true });
      }
      at = mysql ? mysqlCommentEnd(sql, at) : postgresCommentEnd(sql, at);
    } else if (char === "'") {
      const end = closing(at, "'", options.backslashEscapes);
      tokens.push({ kind: 'string', text: sql.slice(at + 1, end - 1) });
      at = end;
    } else if (char === '"') {
      // In MySQL "…" is a string unless ANSI_QUOTES is set: read as a name, so that either way it is checked.
      const end = closing(at, '"', mysql && options.backslashEscapes);
      tokens.push({
        kind: 'quoted',
        text: sql
          .slice(at + 1, end - 1)
          .replaceAll('""', '"')
          .toLowerCase(),
      });
      at = end;
    } else if (mysql && char === '`') {
      const end = closing(at, '`', false);
      tokens.push({
        kind: 'quoted',
        text: sql
          .slice(at + 1, end - 1)
          .replaceAll('``', '`')
          .toLowerCase(),
      });
      at = end;
    } else if (!mysql && (char === 'E' || char === 'e') && next === "'") {
      const end = closing(at + 1, "'", true);
      tokens.push({ kind: 'string', text: sql.slice(at + 2, end - 1) });
      at = end;
    } else if (!mysql && (char === 'U' || char === 'u') && next === '&' && /["']/.test(sql[at + 2] ?? '')) {
      // A Unicode-escaped name (U&"\0070g_read_file") could spell any name: nao does not decode them.
      throw new SqlLexError('a Unicode-escaped name or string (U&"…")', { always: true });
    } else if (!mysql && char === '$' && dollarTag(sql, at) !== undefined) {
      const tag = dollarTag(sql, at)!;
      const end = sql.indexOf(tag, at + tag.length);
      if (end === -1) throw new SqlLexError(`an unterminated ${tag} quote`);
      tokens.push({ kind: 'string', text: sql.slice(at + tag.length, end) });
      at = end + tag.length;
    } else if (WORD_START.test(char) || (mysql && /[0-9$]/.test(char))) {
      const part = mysql ? MYSQL_WORD_PART : WORD_PART;
      let end = at + 1;
      while (end < length && part.test(sql[end]!)) end++;
      tokens.push({ kind: 'word', text: sql.slice(at, end).toLowerCase() });
      at = end;
    } else if (/[0-9]/.test(char)) {
      let end = at + 1;
      while (end < length && /[A-Za-z0-9_.]/.test(sql[end]!)) end++;
      tokens.push({ kind: 'word', text: sql.slice(at, end).toLowerCase() });
      at = end;
    } else {
      tokens.push({ kind: 'symbol', text: char });
      at++;
    }
  }
  return tokens;
}

function dollarTag(sql: string, at: number): string | undefined {
  DOLLAR_TAG.lastIndex = at;
  return DOLLAR_TAG.exec(sql)?.[0];
}

/** PostgreSQL's block comments nest: an inner opening needs its own closing. */
function postgresCommentEnd(sql: string, start: number): number {
  let depth = 0;
  let at = start;
  while (at < sql.length) {
    if (sql.startsWith('/*', at)) {
      depth++;
      at += 2;
    } else if (sql.startsWith('*/', at)) {
      depth--;
      at += 2;
      if (depth === 0) return at;
    } else {
      at++;
    }
  }
  throw new SqlLexError('an unterminated /* comment');
}

function mysqlCommentEnd(sql: string, start: number): number {
  const end = sql.indexOf('*/', start + 2);
  if (end === -1) throw new SqlLexError('an unterminated /* comment');
  return end + 2;
}

/**
 * The token streams of `sql` under both readings of a backslash in '…' (see
 * SqlLexOptions.backslashEscapes); a reading the server could not parse either is left out.
 * Throws SqlLexError when neither reading succeeds.
 */
export function sqlReadings(sql: string, dialect: SqlLexDialect): SqlToken[][] {
  const readings: SqlToken[][] = [];
  let failure: unknown;
  for (const backslashEscapes of [true, false]) {
    try {
      readings.push(sqlTokens(sql, { dialect, backslashEscapes }));
    } catch (error) {
      if (!(error instanceof SqlLexError) || error.always) throw error;
      failure = error;
    }
  }
  if (readings.length === 0) throw failure;
  return readings;
}

export interface StatementRules {
  dialect: SqlLexDialect;
  /** The words a query may start with (after opening parentheses). */
  queryStarts: ReadonlySet<string>;
  /** Names nao refuses wherever they appear as a word or quoted name, whatever the role may do. */
  deniedNames: RegExp;
  /** Why a denied name is refused, said after it. */
  deniedReason: string;
  /** Statements refused by their leading words, in lower case and one space apart (`show grants`). */
  deniedStatements?: readonly string[];
}

/**
 * Why nao refuses `sql` before the server sees it, or undefined: it must read as one query
 * (starting with a word of `queryStarts`, no `INTO`), and name nothing of `deniedNames`,
 * whichever way the server reads backslashes.
 */
export function statementRefusal(sql: string, rules: StatementRules): string | undefined {
  let readings: SqlToken[][];
  try {
    readings = sqlReadings(sql, rules.dialect);
  } catch (error) {
    if (!(error instanceof SqlLexError)) throw error;
    return `nao cannot read the statement safely (${error.message}), so it does not run it`;
  }
  for (const tokens of readings) {
    const first = tokens.find((token) => !(token.kind === 'symbol' && token.text === '('));
    if (first === undefined) return undefined; // Empty: the server says so.
    if (first.kind !== 'word' || !rules.queryStarts.has(first.text)) {
      const starts = [...rules.queryStarts].map((word) => word.toUpperCase()).join(', ');
      return `nao runs only queries (${starts}); this statement starts with ${first.kind === 'word' ? first.text.toUpperCase() : `"${first.text}"`}`;
    }
    const opening = tokens
      .slice(tokens.indexOf(first), tokens.indexOf(first) + 3)
      .map((token) => token.text)
      .join(' ');
    const denied = rules.deniedStatements?.find((words) => `${opening} `.startsWith(`${words} `));
    if (denied !== undefined)
      return `nao refuses ${denied.toUpperCase()}: it shows accounts or other sessions`;
    for (const token of tokens) {
      if (token.kind === 'word' && token.text === 'into') {
        return 'nao refuses SELECT … INTO (it creates a table, writes a file or sets variables)';
      }
      if ((token.kind === 'word' || token.kind === 'quoted') && rules.deniedNames.test(token.text)) {
        return `nao refuses ${token.text}: ${rules.deniedReason}`;
      }
    }
  }
  return undefined;
}
