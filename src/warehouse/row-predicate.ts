/**
 * The grammar a row security `predicate` may use, as the original nao's row security guard
 * allows it: comparisons (`=`, `<>`, `!=`, `<`, `<=`, `>`, `>=`), `IN (…)`, `BETWEEN … AND …`,
 * `IS [NOT] NULL|TRUE|FALSE`, joined by `AND`, `OR`, `NOT` and parentheses, over unqualified
 * columns and literals (numbers, 'strings', TRUE, FALSE, NULL). No functions, subqueries,
 * casts or comments: a predicate is a plain filter, so that nothing in it can read other rows
 * or behave differently per engine. Every comparison names a column, and every column is one
 * of the policy's `constraint_columns`.
 */
export type RowPredicateCheck = { valid: true; columns: string[] } | { valid: false; error: string };

type Token =
  | { kind: 'word'; text: string; upper: string }
  | { kind: 'quoted'; text: string }
  | { kind: 'string'; text: string }
  | { kind: 'number'; text: string }
  | { kind: 'symbol'; text: string };

const SYMBOLS = ['<=', '>=', '<>', '!=', '=', '<', '>', '(', ')', ',', '-'] as const;

class PredicateError extends Error {}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const char = text[i]!;
    if (/\s/.test(char)) {
      i++;
      continue;
    }
    if (text.startsWith('--', i) || text.startsWith('/*', i) || char === ';') {
      throw new PredicateError('comments and `;` are not allowed');
    }
    if (char === "'" || char === '"') {
      let j = i + 1;
      let value = '';
      for (;;) {
        if (j >= text.length)
          throw new PredicateError(`unterminated ${char === "'" ? 'string' : 'quoted name'}`);
        if (text[j] === char) {
          if (text[j + 1] === char) {
            value += char;
            j += 2;
            continue;
          }
          break;
        }
        value += text[j];
        j++;
      }
      tokens.push(char === "'" ? { kind: 'string', text: value } : { kind: 'quoted', text: value });
      i = j + 1;
      continue;
    }
    const number = /^(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?/.exec(text.slice(i));
    if (number !== null) {
      tokens.push({ kind: 'number', text: number[0] });
      i += number[0].length;
      continue;
    }
    const word = /^[A-Za-z_][A-Za-z0-9_$]*/.exec(text.slice(i));
    if (word !== null) {
      tokens.push({ kind: 'word', text: word[0], upper: word[0].toUpperCase() });
      i += word[0].length;
      continue;
    }
    const symbol = SYMBOLS.find((candidate) => text.startsWith(candidate, i));
    if (symbol === undefined) throw new PredicateError(`unexpected character "${char}"`);
    tokens.push({ kind: 'symbol', text: symbol });
    i += symbol.length;
  }
  return tokens;
}

const KEYWORDS = new Set(['AND', 'OR', 'NOT', 'IN', 'IS', 'NULL', 'TRUE', 'FALSE', 'BETWEEN']);
const COMPARISONS = new Set(['=', '<>', '!=', '<', '<=', '>', '>=']);

/** A recursive-descent reader of the grammar above; it collects the columns it meets. */
class PredicateReader {
  private position = 0;
  readonly columns: { name: string; quoted: boolean }[] = [];

  constructor(private readonly tokens: Token[]) {}

  read(): void {
    if (this.tokens.length === 0) throw new PredicateError('it is empty');
    this.or();
    const rest = this.tokens[this.position];
    if (rest !== undefined) throw new PredicateError(`unexpected "${rest.text}"`);
  }

  private peek(): Token | undefined {
    return this.tokens[this.position];
  }

  private isWord(upper: string): boolean {
    const token = this.peek();
    return token?.kind === 'word' && token.upper === upper;
  }

  private isSymbol(text: string): boolean {
    const token = this.peek();
    return token?.kind === 'symbol' && token.text === text;
  }

  private expectSymbol(text: string): void {
    if (!this.isSymbol(text)) throw new PredicateError(`expected "${text}"${this.found()}`);
    this.position++;
  }

  private found(): string {
    const token = this.peek();
    return token === undefined ? ' at the end' : ` before "${token.text}"`;
  }

  private or(): void {
    this.and();
    while (this.isWord('OR')) {
      this.position++;
      this.and();
    }
  }

  private and(): void {
    this.not();
    while (this.isWord('AND')) {
      this.position++;
      this.not();
    }
  }

  private not(): void {
    if (this.isWord('NOT')) {
      this.position++;
      this.not();
      return;
    }
    if (this.isSymbol('(')) {
      this.position++;
      this.or();
      this.expectSymbol(')');
      return;
    }
    this.comparison();
  }

  private comparison(): void {
    const before = this.columns.length;
    this.operand();
    const token = this.peek();
    if (token?.kind === 'symbol' && COMPARISONS.has(token.text)) {
      this.position++;
      this.operand();
    } else if (this.isWord('IS')) {
      this.position++;
      if (this.isWord('NOT')) this.position++;
      if (!(this.isWord('NULL') || this.isWord('TRUE') || this.isWord('FALSE'))) {
        throw new PredicateError(`expected NULL, TRUE or FALSE after IS${this.found()}`);
      }
      this.position++;
    } else {
      if (this.isWord('NOT')) this.position++;
      if (this.isWord('IN')) {
        this.position++;
        this.expectSymbol('(');
        this.literal();
        while (this.isSymbol(',')) {
          this.position++;
          this.literal();
        }
        this.expectSymbol(')');
      } else if (this.isWord('BETWEEN')) {
        this.position++;
        this.operand();
        if (!this.isWord('AND')) throw new PredicateError(`expected AND in BETWEEN${this.found()}`);
        this.position++;
        this.operand();
      } else {
        throw new PredicateError(`expected a comparison${this.found()}`);
      }
    }
    if (this.columns.length === before) {
      throw new PredicateError('every comparison must name one of the constraint columns');
    }
  }

  private operand(): void {
    const token = this.peek();
    if (token?.kind === 'quoted') {
      this.columns.push({ name: token.text, quoted: true });
      this.position++;
      return;
    }
    if (token?.kind === 'word' && !KEYWORDS.has(token.upper)) {
      if (this.tokens[this.position + 1]?.text === '(') {
        throw new PredicateError(`functions are not allowed (${token.text})`);
      }
      if (this.tokens[this.position + 1]?.text === '.') {
        throw new PredicateError('columns must be unqualified');
      }
      this.columns.push({ name: token.text, quoted: false });
      this.position++;
      return;
    }
    this.literal();
  }

  private literal(): void {
    const token = this.peek();
    if (token?.kind === 'symbol' && token.text === '-') {
      this.position++;
      if (this.peek()?.kind !== 'number')
        throw new PredicateError(`expected a number after "-"${this.found()}`);
      this.position++;
      return;
    }
    if (token?.kind === 'string' || token?.kind === 'number') {
      this.position++;
      return;
    }
    if (token?.kind === 'word' && ['NULL', 'TRUE', 'FALSE'].includes(token.upper)) {
      this.position++;
      return;
    }
    throw new PredicateError(`expected a column or a literal${this.found()}`);
  }
}

/**
 * Whether `predicate` is a filter of the grammar above over `constraintColumns` (unquoted
 * names match case-insensitively, quoted ones exactly); on success, the columns it names as
 * the constraint columns spell them.
 */
export function checkRowPredicate(options: {
  predicate: string;
  constraintColumns: readonly string[];
}): RowPredicateCheck {
  try {
    if (options.predicate.includes('.')) {
      // Only numbers may hold a dot; a qualified column (t.region) is refused here.
      const withoutNumbers = options.predicate.replace(/'(?:[^']|'')*'|\d*\.\d+|\d+\./g, '');
      if (withoutNumbers.includes('.')) throw new PredicateError('columns must be unqualified');
    }
    const reader = new PredicateReader(tokenize(options.predicate));
    reader.read();
    const columns: string[] = [];
    for (const column of reader.columns) {
      const match = options.constraintColumns.find((name) =>
        column.quoted ? name === column.name : name.toLowerCase() === column.name.toLowerCase(),
      );
      if (match === undefined) {
        const allowed = options.constraintColumns.map((name) => `"${name}"`).join(', ') || 'none';
        throw new PredicateError(`column "${column.name}" is not one of constraint_columns (${allowed})`);
      }
      if (!columns.includes(match)) columns.push(match);
    }
    return { valid: true, columns };
  } catch (error) {
    if (error instanceof PredicateError) return { valid: false, error: error.message };
    throw error;
  }
}
