import { describe, expect, it } from 'vitest';
import { classifyStatement, withoutFinalSemicolons } from './databricks-read-only.js';

class ParseError extends Error {}

/** A warehouse parser that knows the given statements and queries; anything else is a syntax error. */
function parser(options: { queries: string[]; statements: string[]; failing?: Map<string, Error> }) {
  const seen: string[] = [];
  const explain = async (text: string) => {
    seen.push(text);
    const failure = options.failing?.get(text);
    if (failure) throw failure;
    const wrapped = /^SELECT \* FROM \(\n([\s\S]*)\n\)$/.exec(text)?.[1];
    const known =
      wrapped === undefined ? options.statements.includes(text) : options.queries.includes(wrapped);
    if (!known) throw new ParseError(`syntax error in ${text}`);
  };
  return { explain, seen, isParseError: (error: unknown) => error instanceof ParseError };
}

describe('classifyStatement', () => {
  it('runs a statement that parses as a subquery, after one EXPLAIN of it wrapped', async () => {
    const warehouse = parser({ queries: ['WITH a AS (SELECT 1) SELECT * FROM a'], statements: [] });
    await expect(
      classifyStatement({ statement: 'WITH a AS (SELECT 1) SELECT * FROM a', ...warehouse }),
    ).resolves.toEqual({
      kind: 'query',
    });
    expect(warehouse.seen).toEqual(['SELECT * FROM (\nWITH a AS (SELECT 1) SELECT * FROM a\n)']);
  });

  it.each([
    'INSERT INTO t VALUES (1)',
    'WITH c AS (SELECT 1) INSERT INTO t SELECT * FROM c',
    "SET TIME ZONE 'Asia/Tokyo'",
  ])('refuses a statement the warehouse parses only on its own: %s', async (statement) => {
    const warehouse = parser({ queries: [], statements: [statement] });
    await expect(classifyStatement({ statement, ...warehouse })).resolves.toEqual({ kind: 'refused' });
  });

  it.each(['SHOW TABLES', 'describe table items', '-- what is there\nDESC items'])(
    'runs the catalog reads SHOW and DESCRIBE: %s',
    async (statement) => {
      const warehouse = parser({ queries: [], statements: [statement] });
      await expect(classifyStatement({ statement, ...warehouse })).resolves.toEqual({ kind: 'query' });
    },
  );

  it('rejects with the warehouse syntax error of a statement that does not parse at all', async () => {
    const warehouse = parser({ queries: [], statements: [] });
    await expect(classifyStatement({ statement: 'SELEC 1', ...warehouse })).rejects.toThrow(
      'syntax error in SELEC 1',
    );
  });

  it('hands on any other error of the wrapped EXPLAIN, so the query fails with the warehouse words', async () => {
    const failure = new Error('[UNRESOLVED_COLUMN] missing_column');
    const warehouse = parser({
      queries: [],
      statements: [],
      failing: new Map([['SELECT * FROM (\nSELECT missing_column FROM t\n)', failure]]),
    });
    await expect(classifyStatement({ statement: 'SELECT missing_column FROM t', ...warehouse })).rejects.toBe(
      failure,
    );
  });
});

describe('withoutFinalSemicolons', () => {
  it.each([
    ['SELECT 1;', 'SELECT 1'],
    ['SELECT 1 ; ;\n', 'SELECT 1'],
    ["SELECT ';'", "SELECT ';'"],
    ['SELECT 1; -- done\n', 'SELECT 1'],
    ["SELECT '--' AS a -- note", "SELECT '--' AS a"],
    ['SELECT 1 /* a /* nested */ comment */ ;', 'SELECT 1'],
    ["SELECT 'it\\'s;' ;", "SELECT 'it\\'s;'"],
    ['SELECT `a;b` FROM t;;', 'SELECT `a;b` FROM t'],
  ])('%j → %j', (sql, expected) => {
    expect(withoutFinalSemicolons(sql)).toBe(expected);
  });
});
