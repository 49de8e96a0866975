/**
 * A small SQL layout for reading the queries an agent ran: each major clause on its own line,
 * the select list one item per line, top-level AND/OR of WHERE and HAVING on their own lines,
 * subqueries indented. Only whitespace between tokens changes — never a keyword's case, a
 * string, a quoted name or a comment — so the formatted query means exactly the same thing.
 * Used by the web UI (no Node APIs here).
 */

interface Token {
  kind: 'word' | 'string' | 'quoted' | 'number' | 'line-comment' | 'block-comment' | 'punct' | 'operator';
  text: string;
  /** Whether whitespace separated it from the previous token in the input. */
  spaced: boolean;
}

interface Group {
  kind: 'group';
  open: Token;
  children: SqlNode[];
  /** null when the input never closed the parenthesis. */
  close: Token | null;
  spaced: boolean;
}

type SqlNode = Token | Group;

const INDENT = '  ';
/** Deeper nesting than this is left as written rather than risk the call stack. */
const MAX_DEPTH = 100;

const OPERATOR_CHARS = new Set('<>=!|&+-*/%^~:@#?'.split(''));
const JOIN_MODIFIERS = new Set([
  'NATURAL',
  'LEFT',
  'RIGHT',
  'FULL',
  'INNER',
  'OUTER',
  'CROSS',
  'SEMI',
  'ANTI',
  'ASOF',
  'POSITIONAL',
]);
const SINGLE_CLAUSES = new Set([
  'SELECT',
  'FROM',
  'WHERE',
  'HAVING',
  'LIMIT',
  'OFFSET',
  'WINDOW',
  'QUALIFY',
  'VALUES',
  'UNION',
  'INTERSECT',
  'EXCEPT',
]);

function isWordStart(char: string): boolean {
  return /[A-Za-z_]/.test(char) || char.charCodeAt(0) > 127;
}

function isWordChar(char: string): boolean {
  return /[A-Za-z0-9_$]/.test(char) || char.charCodeAt(0) > 127;
}

/** The end (exclusive) of a quoted run starting at `start`, where a doubled quote escapes itself. */
function quotedEnd(sql: string, start: number, quote: string, backslashEscapes: boolean): number {
  let index = start + 1;
  while (index < sql.length) {
    const char = sql[index];
    if (backslashEscapes && char === '\\') {
      index += 2;
      continue;
    }
    if (char === quote) {
      if (sql[index + 1] === quote) {
        index += 2;
        continue;
      }
      return index + 1;
    }
    index++;
  }
  return sql.length;
}

function tokenize(sql: string): Token[] {
  const tokens: Token[] = [];
  let index = 0;
  let spaced = false;
  const push = (kind: Token['kind'], end: number) => {
    tokens.push({ kind, text: sql.slice(index, end), spaced });
    spaced = false;
    index = end;
  };
  while (index < sql.length) {
    const char = sql[index]!;
    const next = sql[index + 1] ?? '';
    if (/\s/.test(char)) {
      spaced = true;
      index++;
    } else if (char === '-' && next === '-') {
      const end = sql.indexOf('\n', index);
      push('line-comment', end === -1 ? sql.length : end);
    } else if (char === '/' && next === '*') {
      const end = sql.indexOf('*/', index + 2);
      push('block-comment', end === -1 ? sql.length : end + 2);
    } else if (char === "'") {
      push('string', quotedEnd(sql, index, "'", false));
    } else if ((char === 'E' || char === 'e') && next === "'") {
      // PostgreSQL escape string: backslashes escape, so E'it\'s' is one token.
      const end = quotedEnd(sql, index + 1, "'", true);
      push('string', end);
    } else if (char === '"' || char === '`') {
      push('quoted', quotedEnd(sql, index, char, false));
    } else if (char === '$' && /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.test(sql.slice(index, index + 66))) {
      const tag = /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.exec(sql.slice(index, index + 66))![0];
      const end = sql.indexOf(tag, index + tag.length);
      push('string', end === -1 ? sql.length : end + tag.length);
    } else if (/[0-9]/.test(char) || (char === '.' && /[0-9]/.test(next))) {
      let end = index + 1;
      while (end < sql.length && /[0-9.]/.test(sql[end]!)) end++;
      if (/[eE]/.test(sql[end] ?? '') && /[0-9+-]/.test(sql[end + 1] ?? '')) {
        end += 2;
        while (end < sql.length && /[0-9]/.test(sql[end]!)) end++;
      }
      push('number', end);
    } else if (isWordStart(char) || (char === '$' && /[0-9]/.test(next))) {
      let end = index + 1;
      while (end < sql.length && isWordChar(sql[end]!)) end++;
      push('word', end);
    } else if ('(),;.[]{}'.includes(char)) {
      push('punct', index + 1);
    } else if (OPERATOR_CHARS.has(char)) {
      let end = index + 1;
      while (
        end < sql.length &&
        OPERATOR_CHARS.has(sql[end]!) &&
        !(sql[end] === '-' && sql[end + 1] === '-') &&
        !(sql[end] === '/' && sql[end + 1] === '*')
      ) {
        end++;
      }
      push('operator', end);
    } else {
      push('operator', index + 1);
    }
  }
  return tokens;
}

/** Parentheses as nested groups; returns null when nesting exceeds MAX_DEPTH. */
function buildTree(tokens: Token[]): SqlNode[] | null {
  const root: SqlNode[] = [];
  const stack: Group[] = [];
  const current = () => stack.at(-1)?.children ?? root;
  for (const token of tokens) {
    if (token.kind === 'punct' && token.text === '(') {
      const group: Group = { kind: 'group', open: token, children: [], close: null, spaced: token.spaced };
      current().push(group);
      stack.push(group);
      if (stack.length > MAX_DEPTH) return null;
    } else if (token.kind === 'punct' && token.text === ')' && stack.length > 0) {
      stack.pop()!.close = token;
    } else {
      current().push(token);
    }
  }
  return root;
}

function isToken(node: SqlNode | undefined): node is Token {
  return node !== undefined && node.kind !== 'group';
}

function isComment(node: SqlNode | undefined): boolean {
  return isToken(node) && (node.kind === 'line-comment' || node.kind === 'block-comment');
}

function upperWord(node: SqlNode | undefined): string | null {
  return isToken(node) && node.kind === 'word' ? node.text.toUpperCase() : null;
}

/** The index of the next node after `index` that is not a comment. */
function nextCode(nodes: readonly SqlNode[], index: number): number {
  let next = index + 1;
  while (next < nodes.length && isComment(nodes[next])) next++;
  return next;
}

function isSubquery(group: Group): boolean {
  const first = group.children.find((child) => !isComment(child));
  const word = upperWord(first);
  return word === 'SELECT' || word === 'WITH';
}

/**
 * How many nodes the clause head starting at `index` spans (GROUP BY: 2, LEFT OUTER JOIN: 3),
 * or 0 when no clause starts there.
 */
function clauseHeadLength(nodes: readonly SqlNode[], index: number): number {
  const word = upperWord(nodes[index]);
  if (word === null) return 0;
  // `t.from`, `t.limit`: a column that happens to be named like a keyword.
  const before = nodes[index - 1];
  if (isToken(before) && before.kind === 'punct' && before.text === '.') return 0;
  if (word === 'WITH') return index === 0 || nodes.slice(0, index).every(isComment) ? 1 : 0;
  if (word === 'GROUP' || word === 'ORDER') {
    const next = nextCode(nodes, index);
    return upperWord(nodes[next]) === 'BY' ? next - index + 1 : 0;
  }
  if (word === 'JOIN') return 1;
  if (JOIN_MODIFIERS.has(word)) {
    let next = index;
    while (JOIN_MODIFIERS.has(upperWord(nodes[next]) ?? '')) next = nextCode(nodes, next);
    return upperWord(nodes[next]) === 'JOIN' ? next - index + 1 : 0;
  }
  if (word === 'FROM') {
    // `a IS [NOT] DISTINCT FROM b` is a comparison, not a clause.
    let previous = index - 1;
    while (previous >= 0 && isComment(nodes[previous])) previous--;
    return upperWord(nodes[previous]) === 'DISTINCT' ? 0 : 1;
  }
  if (SINGLE_CLAUSES.has(word)) {
    // SELECT DISTINCT / UNION ALL keep their qualifier on the clause line.
    const next = nextCode(nodes, index);
    const qualifier = upperWord(nodes[next]);
    if ((word === 'SELECT' || word === 'UNION' || word === 'INTERSECT' || word === 'EXCEPT') && qualifier) {
      if (qualifier === 'ALL' || qualifier === 'DISTINCT') return next - index + 1;
    }
    return 1;
  }
  return 0;
}

interface Clause {
  head: SqlNode[];
  body: SqlNode[];
}

function splitClauses(nodes: readonly SqlNode[]): { prelude: SqlNode[]; clauses: Clause[] } {
  const prelude: SqlNode[] = [];
  const clauses: Clause[] = [];
  let index = 0;
  while (index < nodes.length) {
    const length = clauseHeadLength(nodes, index);
    if (length > 0) {
      clauses.push({ head: nodes.slice(index, index + length), body: [] });
      index += length;
      continue;
    }
    const clause = clauses.at(-1);
    (clause ? clause.body : prelude).push(nodes[index]!);
    index++;
  }
  return { prelude, clauses };
}

/** Splits at top-level commas, each comma kept at the end of its item. */
function splitItems(nodes: readonly SqlNode[]): SqlNode[][] {
  const items: SqlNode[][] = [[]];
  for (const node of nodes) {
    items.at(-1)!.push(node);
    if (isToken(node) && node.kind === 'punct' && node.text === ',') items.push([]);
  }
  return items.filter((item) => item.length > 0);
}

/** Splits a condition before each top-level AND/OR, except the AND of BETWEEN … AND …. */
function splitConditions(nodes: readonly SqlNode[]): SqlNode[][] {
  const parts: SqlNode[][] = [[]];
  let betweenOpen = false;
  let caseDepth = 0;
  for (const node of nodes) {
    const word = upperWord(node);
    if (word === 'CASE') caseDepth++;
    else if (word === 'END' && caseDepth > 0) caseDepth--;
    if (word === 'BETWEEN') betweenOpen = true;
    const splits = (word === 'AND' || word === 'OR') && caseDepth === 0 && !(word === 'AND' && betweenOpen);
    if (word === 'AND' && betweenOpen) betweenOpen = false;
    if (splits && parts.at(-1)!.length > 0) parts.push([]);
    parts.at(-1)!.push(node);
  }
  return parts.filter((part) => part.length > 0);
}

class Writer {
  private out = '';

  /** Starts a new line at `level`, unless the text so far already ends a line there. */
  line(level: number): void {
    this.out = this.out.replace(/[ \t]+$/, '');
    if (this.out !== '' && !this.out.endsWith('\n')) this.out += '\n';
    if (this.out !== '') this.out += INDENT.repeat(level);
  }

  text(text: string): void {
    this.out += text;
  }

  /** A space when `wanted`, unless at the start of a line or after one. */
  space(wanted: boolean): void {
    if (!wanted || this.out === '' || this.out.endsWith('\n') || this.out.endsWith(' ')) return;
    this.out += ' ';
  }

  /** Set after a `--` comment: whatever follows must go on a new line or it would be commented out. */
  endsWithLineComment = false;

  toString(): string {
    return this.out
      .split('\n')
      .map((line) => line.replace(/[ \t]+$/, ''))
      .join('\n')
      .trim();
  }
}

/** Writes nodes on the current line; a subquery inside breaks out onto indented lines. */
function writeInline(writer: Writer, nodes: readonly SqlNode[], level: number, first: boolean): void {
  nodes.forEach((node, position) => {
    if (writer.endsWithLineComment) {
      writer.line(level);
      writer.endsWithLineComment = false;
    } else {
      writer.space(!(first && position === 0) && node.spaced);
    }
    if (node.kind === 'group') {
      writeGroup(writer, node, level);
    } else {
      writer.text(node.text);
      writer.endsWithLineComment = node.kind === 'line-comment';
    }
  });
}

function writeGroup(writer: Writer, group: Group, level: number): void {
  writer.text(group.open.text);
  if (isSubquery(group)) {
    writeQuery(writer, group.children, level + 1);
    writer.line(level);
    writer.endsWithLineComment = false;
  } else {
    writeInline(writer, group.children, level, false);
    if (writer.endsWithLineComment && group.close !== null) {
      writer.line(level);
      writer.endsWithLineComment = false;
    } else if (group.close !== null) {
      writer.space(group.close.spaced);
    }
  }
  if (group.close !== null) writer.text(group.close.text);
}

function writeClause(writer: Writer, clause: Clause, level: number): void {
  writer.line(level);
  writer.endsWithLineComment = false;
  writeInline(writer, clause.head, level, true);
  const headWord = upperWord(clause.head[0]);
  if (clause.body.length === 0) return;
  if (headWord === 'SELECT') {
    const items = splitItems(clause.body);
    if (items.length > 1) {
      for (const item of items) {
        writer.line(level + 1);
        writer.endsWithLineComment = false;
        writeInline(writer, item, level + 1, true);
      }
      return;
    }
  }
  if (headWord === 'WHERE' || headWord === 'HAVING') {
    const parts = splitConditions(clause.body);
    writer.space(true);
    writeInline(writer, parts[0] ?? [], level, true);
    for (const part of parts.slice(1)) {
      writer.line(level + 1);
      writer.endsWithLineComment = false;
      writeInline(writer, part, level + 1, true);
    }
    return;
  }
  writer.space(true);
  writeInline(writer, clause.body, level, true);
}

function writeQuery(writer: Writer, nodes: readonly SqlNode[], level: number): void {
  const statements: SqlNode[][] = [[]];
  for (const node of nodes) {
    statements.at(-1)!.push(node);
    if (isToken(node) && node.kind === 'punct' && node.text === ';') statements.push([]);
  }
  statements
    .filter((statement) => statement.length > 0)
    .forEach((statement, position) => {
      if (position > 0) {
        writer.line(level);
        writer.text('\n');
      }
      const { prelude, clauses } = splitClauses(statement);
      if (prelude.length > 0) {
        writer.line(level);
        writeInline(writer, prelude, level, true);
      }
      for (const clause of clauses) writeClause(writer, clause, level);
      if (writer.endsWithLineComment) {
        writer.line(level);
        writer.endsWithLineComment = false;
      }
    });
}

/** The query laid out on several lines (see the module comment); whitespace-only input gives "". */
export function formatSql(sql: string): string {
  const tree = buildTree(tokenize(sql));
  if (tree === null) return sql.trim();
  const writer = new Writer();
  writeQuery(writer, tree, 0);
  return writer.toString();
}
