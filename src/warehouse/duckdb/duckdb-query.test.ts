import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QueryResult } from '../database.js';
import { type ReadDuckDbQueryOptions, readDuckDbQuery } from './duckdb-query.js';
import { readDuckDbResult } from './duckdb-result.js';

let instance: DuckDBInstance;
let connection: DuckDBConnection;
/** Every statement the reader sent, in order, as 'method: sql'. */
let sent: string[] = [];

beforeAll(async () => {
  instance = await DuckDBInstance.create(':memory:');
  connection = await instance.connect();
  await connection.run(`SET TimeZone = 'UTC'`);
  await connection.run(`CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy')`);
  await connection.run(`CREATE TABLE q AS SELECT range AS n,
    CASE WHEN range % 7 = 0 THEN NULL ELSE 'customer "' || range || '" é\n😀' END AS label,
    CASE WHEN range % 3 = 0 THEN '' ELSE 'c' || range END AS code,
    (range / 4)::DECIMAL(18,2) AS amount,
    DATE '2020-01-01' + (range % 1000)::INTEGER AS day,
    (['sad', 'ok', 'happy'])[range % 3 + 1]::mood AS feeling
    FROM range(10000)`);
  // The reader is given this connection; what it sends is recorded.
  for (const method of ['prepare', 'run', 'runAndReadAll', 'stream'] as const) {
    const original = connection[method].bind(connection) as (sql: string, ...rest: unknown[]) => unknown;
    Object.assign(connection, {
      [method]: (sql: string, ...rest: unknown[]) => {
        sent.push(`${method}: ${sql}`);
        return original(sql, ...rest);
      },
    });
  }
});

afterAll(() => {
  connection.closeSync();
  instance.closeSync();
});

/**
 * Reads `sql`; unless told otherwise, a text result switches to the temp table at once, so the
 * small tables here exercise the path that large results take.
 */
async function read(sql: string, options: Partial<ReadDuckDbQueryOptions> = {}) {
  sent = [];
  const result = await readDuckDbQuery({ connection, sql, streamedTextRows: 0, ...options });
  // Read through the temp table: it was created, and the query was not streamed again after
  // (a single statement is streamed by preparing it; several go through `stream`).
  const queryReads = sent.filter(
    (statement) => statement === `prepare: ${sql}` || statement === `stream: ${sql}`,
  );
  const materialized =
    sent.some((statement) => statement.startsWith('prepare: CREATE OR REPLACE TEMP TABLE')) &&
    queryReads.length === 1;
  return { result, materialized };
}

/** The plain streamed read, which the materialized one must equal. */
async function streamed(sql: string, maxRows?: number): Promise<QueryResult> {
  const { columns, rows, truncated } = await readDuckDbResult(await connection.stream(sql), { maxRows });
  return { columns, rows, truncated };
}

async function tablesLeft(): Promise<unknown[][]> {
  return (await connection.runAndReadAll('SELECT table_name FROM duckdb_tables() ORDER BY 1')).getRows();
}

describe('readDuckDbQuery', () => {
  it('reads a small text result from the stream alone: one statement', async () => {
    const sql = 'SELECT label, code FROM q WHERE n < 5000';
    const { result, materialized } = await read(sql, { streamedTextRows: undefined });
    expect(materialized).toBe(false);
    expect(sent).toEqual([`prepare: ${sql}`]);
    expect(result.rows).toHaveLength(5000);
  });

  it('reads a materialized result in one statement, cut at maxRows like the stream', async () => {
    const sql = 'SELECT label, n FROM q WHERE n < 3000 ORDER BY n DESC';
    const { result, materialized } = await read(sql, {
      materialize: true,
      maxRows: 2500,
      streamedTextRows: undefined,
    });
    expect(materialized).toBe(false);
    expect(sent).toEqual([`run: ${sql}`]);
    expect(result).toEqual(await streamed(sql, 2500));
  });

  it('switches a text result longer than the streamed rows to the temp table, with the same rows', async () => {
    const sql = 'SELECT label, n FROM q ORDER BY n DESC';
    const { result, materialized } = await read(sql, { streamedTextRows: 4096 });
    expect(materialized).toBe(true);
    expect(sent[0]).toBe(`prepare: ${sql}`);
    expect(result).toEqual(await streamed(sql));
  });

  it.each([
    'SELECT * FROM q',
    'SELECT label, n, code FROM q ORDER BY n DESC',
    'SELECT code, count(*) AS k, min(label) AS first FROM q GROUP BY code ORDER BY code',
    `SELECT '{"x": 1}'::JSON AS j, label, [label, code] AS pair, {'a': label} AS s FROM q WHERE n < 100 ORDER BY n`,
    "SELECT *, 'text beside every type' AS t FROM test_all_types()",
    "SELECT label, 'x' || n AS m FROM q WHERE n % 2 = 0 UNION ALL SELECT 'tail', 'y' ORDER BY m",
  ])('reads %s through the temp table, exactly like streaming', async (sql) => {
    const { result, materialized } = await read(sql);
    expect(materialized).toBe(true);
    expect(result).toEqual(await streamed(sql));
  });

  it('keeps the order of an ordered result longer than a row group, and cuts it at maxRows', async () => {
    const sql = "SELECT r, 'row ' || r AS label FROM range(300000) t(r) ORDER BY r * 7919 % 300000 DESC";
    const { result, materialized } = await read(sql, { maxRows: 200_000 });
    expect(materialized).toBe(true);
    expect(result.truncated).toBe(true);
    expect(result.rows).toHaveLength(200_000);
    const key = (row: unknown[]) => ((row[0] as number) * 7919) % 300_000;
    expect(
      result.rows.every((row, index) => key(row) === 299_999 - index && row[1] === `row ${row[0]}`),
    ).toBe(true);
  });

  it('materializes at most maxRows + 1 rows', async () => {
    const { result } = await read("SELECT 'x' || r AS label FROM range(1000000000000) t(r)", { maxRows: 3 });
    expect(result).toEqual({
      columns: [{ name: 'label', type: 'VARCHAR' }],
      rows: [['x0'], ['x1'], ['x2']],
      truncated: true,
    });
  });

  it.each([
    { maxRows: 0, rows: 0, truncated: true },
    { maxRows: 9_999, rows: 9_999, truncated: true },
    { maxRows: 10_000, rows: 10_000, truncated: false },
    { maxRows: undefined, rows: 10_000, truncated: false },
  ])('keeps $rows rows of 10,000 at maxRows=$maxRows', async ({ maxRows, rows, truncated }) => {
    const { result } = await read('SELECT label, n FROM q ORDER BY n', { maxRows });
    expect(result.rows).toHaveLength(rows);
    expect(result.truncated).toBe(truncated);
    expect(result.rows).toEqual((await streamed('SELECT label, n FROM q ORDER BY n', maxRows)).rows);
  });

  it('returns no rows of a result over the cap with drop-rows, without reading them', async () => {
    for (const sql of ['SELECT label FROM q', 'SELECT n FROM q']) {
      const { result } = await read(sql, { maxRows: 9_999, overflow: 'drop-rows' });
      expect(result).toMatchObject({ rows: [], truncated: true });
      expect(sent.some((statement) => statement.includes('to_json'))).toBe(false);
    }
  });

  it('keeps column names as the query spells them: duplicates, rowid and the stored names', async () => {
    const { result, materialized } = await read(
      'SELECT label AS x, code AS x, n AS X, n + 1 AS rowid, code AS c0, label AS answer FROM q WHERE n IN (1, 2) ORDER BY n DESC',
    );
    expect(materialized).toBe(true);
    expect(result.columns.map((column) => column.name)).toEqual(['x', 'x', 'X', 'rowid', 'c0', 'answer']);
    expect(result.rows).toEqual([
      ['customer "2" é\n😀', 'c2', 2, 3, 'c2', 'customer "2" é\n😀'],
      ['customer "1" é\n😀', 'c1', 1, 2, 'c1', 'customer "1" é\n😀'],
    ]);
  });

  it('reads a query ending in semicolons through the temp table', async () => {
    const { result, materialized } = await read('SELECT label FROM q WHERE n = 2;; \n');
    expect(materialized).toBe(true);
    expect(result.rows).toEqual([['customer "2" é\n😀']]);
  });

  it.each([
    ['a trailing comment after the semicolon', 'SELECT label FROM q WHERE n = 2; -- the answer'],
    ['PRAGMA', 'PRAGMA table_info(q)'],
    ['SHOW', 'SHOW TABLES'],
    ['DESCRIBE', 'DESCRIBE q'],
    ['SUMMARIZE', 'SUMMARIZE SELECT label FROM q'],
    ['EXPLAIN', 'EXPLAIN SELECT label FROM q'],
    ['several statements', 'SELECT 1 AS one; SELECT label FROM q WHERE n = 3'],
    ['a query without text', 'SELECT n, amount FROM q ORDER BY n DESC LIMIT 5'],
  ])('streams %s as before', async (_label, sql) => {
    const { result, materialized } = await read(sql);
    expect(materialized).toBe(false);
    expect(result).toEqual(await streamed(sql));
  });

  it.each([
    ['a query that does not bind', 'SELECT missing FROM q', /missing/],
    ['a parameter without value', 'SELECT $1::VARCHAR AS v', /param|value/i],
    ['a syntax error', 'SELEC label FROM q', /syntax/i],
  ])('reports %s as streaming does', async (_label, sql, message) => {
    const failure = await readDuckDbQuery({ connection, sql }).catch((error: unknown) => error);
    expect(String(failure)).toMatch(message);
    const streamFailure = await streamed(sql).catch((error: unknown) => error);
    expect(String(failure)).toBe(String(streamFailure));
  });

  it('fails with the engine error of a query that fails while it runs, and leaves no table', async () => {
    const failure = await readDuckDbQuery({
      connection,
      sql: "SELECT CASE WHEN n = 9000 THEN error('boom at 9000') ELSE label END AS label FROM q",
    }).catch((error: unknown) => error);
    expect(String(failure)).toContain('boom at 9000');
    expect(await tablesLeft()).toEqual([['q']]);
  });

  it('stops between statements when the checkpoint throws, and leaves no table', async () => {
    let calls = 0;
    const stop = new Error('stopped');
    const failure = await readDuckDbQuery({
      connection,
      sql: 'SELECT label, n FROM q',
      streamedTextRows: 0,
      checkpoint: () => {
        calls++;
        if (calls === 2) throw stop;
      },
    }).catch((error: unknown) => error);
    expect(failure).toBe(stop);
    expect(await tablesLeft()).toEqual([['q']]);
  });

  it('reads an empty text result from the stream alone', async () => {
    const { result, materialized } = await read('SELECT label FROM q WHERE false');
    expect(materialized).toBe(false);
    expect(result).toEqual({ columns: [{ name: 'label', type: 'VARCHAR' }], rows: [], truncated: false });
  });
});
