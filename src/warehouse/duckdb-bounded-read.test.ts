import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOUNDED_ROWS, isWrappable, mayBeRenamed, readBounded } from './duckdb-bounded-read.js';
import { readDuckDbResult } from './duckdb-result.js';

describe('isWrappable', () => {
  it.each([
    'SELECT 1',
    'SELECT 1;',
    '  SELECT 1 ;; \n',
    'WITH x AS (SELECT (1)) SELECT * FROM x',
    "SELECT ')' AS p, 'it''s (' AS q",
    'SELECT 1 AS ")", 2 AS "a "")"',
    'SELECT 1 -- closes ) here',
    'SELECT 1 -- note )\nFROM range(3)',
    'SELECT /* ) ; */ 1',
  ])('wraps %j', (sql) => {
    expect(isWrappable(sql)).toBe(true);
  });

  it.each([
    ['', 'nothing'],
    [' ;; ', 'only semicolons'],
    ['SELECT 1) UNION ALL (SELECT 2', 'closes the wrapper and opens another'],
    ['SELECT 1)', 'closes more than it opens'],
    ['SELECT (1', 'leaves a parenthesis open'],
    ['SELECT 1; SELECT 2', 'two statements'],
    ['SELECT 1; -- done', 'a comment after the last semicolon'],
    ["SELECT 'open", 'an open string'],
    ['SELECT 1 AS "open', 'an open quoted name'],
    ['SELECT 1 /* open', 'an open comment'],
    ['SELECT /* a /* b */ ) */ 1', 'a nested comment'],
    ["SELECT E'\\'' || ')'", 'backslash escapes'],
    ['SELECT $$)$$', 'dollar quoting'],
  ])('refuses %j (%s)', (sql) => {
    expect(isWrappable(sql)).toBe(false);
  });
});

describe('mayBeRenamed', () => {
  it.each([
    [['a', 'a_1'], true],
    [['A', 'a_1'], true],
    [['a_1', 'a', 'a_2'], true],
    [['x_1', 'x_1_1'], true],
    [['a', 'b', 'count_star()'], false],
    [['a_1', 'b_2'], false],
    [['order_id', 'orders'], false],
  ])('%j → %s', (names, expected) => {
    expect(mayBeRenamed(names)).toBe(expected);
  });
});

let instance: DuckDBInstance;
let connection: DuckDBConnection;
/** Statements sent, as 'method: sql'. */
let sent: string[] = [];

beforeAll(async () => {
  // Two threads and a table of several row groups: the order of an inner ORDER BY must survive
  // a parallel engine.
  instance = await DuckDBInstance.create(':memory:', { threads: '2' });
  connection = await instance.connect();
  await connection.run(
    "CREATE TABLE t AS SELECT r AS id, 'row ' || r AS label, r % 10 AS bucket FROM range(400000) s(r)",
  );
  const run = connection.run.bind(connection);
  Object.assign(connection, {
    run: (sql: string) => {
      sent.push(sql);
      return run(sql);
    },
  });
});

afterAll(() => {
  connection.closeSync();
  instance.closeSync();
});

async function bounded(sql: string, maxRows = 1_000_000) {
  sent = [];
  return readBounded({ connection, sql, maxRows });
}

/** The plain streamed read of the SQL as written. */
async function streamed(sql: string, maxRows?: number) {
  const { columns, rows, truncated } = await readDuckDbResult(await connection.stream(sql), { maxRows });
  return { columns, rows, truncated };
}

describe('readBounded', () => {
  it.each([
    'SELECT count(*) FROM t WHERE id < 5000',
    'SELECT id, label FROM t ORDER BY id * 7919 % 400000 DESC LIMIT 3000',
    'SELECT bucket, count(*) AS n, min(label) AS first FROM t GROUP BY ALL ORDER BY bucket DESC',
    'WITH small AS (SELECT * FROM t WHERE id < 10) SELECT label, id FROM small ORDER BY id DESC;',
    "SELECT 1 AS \"A\", 'x' AS b, NULL AS c, [1, 2] AS l, {'k': 'v'} AS s, 1.50::DECIMAL(5,2) AS d",
    'DESCRIBE t',
    'FROM t SELECT label WHERE id BETWEEN 10 AND 12',
  ])('reads %s in one statement, exactly as streaming does', async (sql) => {
    const result = await bounded(sql);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatch(/^SELECT \* FROM \(/);
    expect(result).toEqual(await streamed(sql));
  });

  it('keeps the first maxRows rows of a longer result, in order, and says it was cut', async () => {
    const sql = 'SELECT id FROM t ORDER BY id DESC';
    const result = await bounded(sql, 100);
    expect(sent).toEqual([`SELECT * FROM (${sql}\n) LIMIT 101`]);
    expect(result?.truncated).toBe(true);
    expect(result?.rows).toEqual(Array.from({ length: 100 }, (_, index) => [399_999 - index]));
  });

  it('takes a result of exactly maxRows rows whole', async () => {
    const result = await bounded('SELECT id FROM t WHERE id < 100', 100);
    expect(result?.truncated).toBe(false);
    expect(result?.rows).toHaveLength(100);
  });

  it('leaves a result longer than its bound, but within maxRows, to the streamed read', async () => {
    expect(await bounded(`SELECT id FROM t WHERE id <= ${BOUNDED_ROWS}`)).toBeUndefined();
    expect(sent).toEqual([
      `SELECT * FROM (SELECT id FROM t WHERE id <= ${BOUNDED_ROWS}\n) LIMIT ${BOUNDED_ROWS + 1}`,
    ]);
    expect((await bounded(`SELECT id FROM t WHERE id < ${BOUNDED_ROWS}`))?.rows).toHaveLength(BOUNDED_ROWS);
  });

  it('gives up when DuckDB renamed a duplicate column name', async () => {
    expect(await bounded('SELECT id, id FROM t WHERE id < 3')).toBeUndefined();
    expect(sent).toHaveLength(1);
  });

  it('never runs SQL that could escape the wrapper, and gives errors back to the streamed read', async () => {
    expect(await bounded('SELECT 1) UNION ALL (SELECT 2')).toBeUndefined();
    expect(sent).toEqual([]);
    for (const sql of ['SELECT nope FROM t', "PRAGMA table_info('t')", 'SELECT 1 +']) {
      expect(await bounded(sql)).toBeUndefined();
    }
  });
});
