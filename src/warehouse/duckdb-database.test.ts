import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from './database.js';
import { openDatabase } from './open-database.js';
import { WarehouseError } from './warehouse-error.js';

let dir: string;
let file: string;
let db: Database;

const SETUP = `
  CREATE TABLE items (id INTEGER, name VARCHAR, price DECIMAL(10,2));
  INSERT INTO items SELECT range, 'item ' || range, range * 1.25 FROM range(5000);
  CREATE TABLE precise (
    big BIGINT, huge HUGEINT, exact DECIMAL(38,10), moment TIMESTAMP, moment_tz TIMESTAMPTZ, day DATE,
    ratio DOUBLE, nothing INTEGER, flag BOOLEAN, tags VARCHAR[]
  );
  INSERT INTO precise VALUES (
    9223372036854775807, 170141183460469231731687303715884105727,
    '1234567890123456789012345678.0123456789', TIMESTAMP '2024-01-02 03:04:05.123456',
    TIMESTAMPTZ '2024-01-02 03:04:05.123456+02', DATE '2024-01-02', 0.1, NULL, true, ['a', 'b']
  );
  CREATE SCHEMA analytics;
  CREATE VIEW analytics.expensive AS SELECT id, price FROM items WHERE price > 100;
`;

function fingerprint(): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

async function expectFailure(promise: Promise<unknown>): Promise<WarehouseError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(WarehouseError);
  return error as WarehouseError;
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'nao-duckdb-'));
  file = path.join(dir, 'warehouse.duckdb');
  const writer = await DuckDBInstance.create(file);
  const connection = await writer.connect();
  await connection.run(SETUP);
  connection.closeSync();
  writer.closeSync();
  db = await openDatabase(
    { type: 'duckdb', name: 'warehouse', path: 'warehouse.duckdb' },
    { projectDir: dir },
  );
});

afterAll(async () => {
  await db?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('DuckDB warehouse', () => {
  it('returns values losslessly, with the engine types of the columns', async () => {
    const result = await db.query('SELECT * FROM precise');
    expect(result.columns).toEqual([
      { name: 'big', type: 'BIGINT' },
      { name: 'huge', type: 'HUGEINT' },
      { name: 'exact', type: 'DECIMAL(38,10)' },
      { name: 'moment', type: 'TIMESTAMP' },
      { name: 'moment_tz', type: 'TIMESTAMP WITH TIME ZONE' },
      { name: 'day', type: 'DATE' },
      { name: 'ratio', type: 'DOUBLE' },
      { name: 'nothing', type: 'INTEGER' },
      { name: 'flag', type: 'BOOLEAN' },
      { name: 'tags', type: 'VARCHAR[]' },
    ]);
    expect(result.rows).toEqual([
      [
        '9223372036854775807',
        '170141183460469231731687303715884105727',
        '1234567890123456789012345678.0123456789',
        '2024-01-02T03:04:05.123456',
        '2024-01-02T01:04:05.123456Z',
        '2024-01-02',
        0.1,
        null,
        true,
        '["a","b"]',
      ],
    ]);
    expect(result.truncated).toBe(false);
  });

  it('works in UTC whatever the machine time zone', async () => {
    const result = await db.query(
      "SELECT current_setting('TimeZone') AS zone, TIMESTAMPTZ '2024-06-01 00:30:00+02'::DATE AS day",
    );
    expect(result.rows).toEqual([['UTC', '2024-05-31']]);
  });

  describe('is read-only, enforced by DuckDB', () => {
    const writes = [
      "INSERT INTO items VALUES (99999, 'new', 1)",
      "UPDATE items SET name = 'changed'",
      'DELETE FROM items',
      'DROP TABLE items',
      'CREATE TABLE intruder (a INTEGER)',
      'ALTER TABLE items ADD COLUMN extra INTEGER',
      'CREATE SCHEMA intruders',
      'DROP VIEW analytics.expensive',
      'TRUNCATE items',
    ];

    it.each(writes)('refuses %s as READ_ONLY_VIOLATION', async (sql) => {
      const before = fingerprint();
      const error = await expectFailure(db.query(sql));
      expect(error.code).toBe('READ_ONLY_VIOLATION');
      expect(error.message).toContain('"warehouse" (duckdb) is read-only');
      expect(error.engineMessage).toMatch(/read-only mode/);
      expect(fingerprint()).toBe(before);
    });

    it.each([
      ["COPY items TO '{dir}/copy.csv'", 'copy.csv'],
      ["COPY (SELECT 1) TO '{dir}/copy.parquet' (FORMAT parquet)", 'copy.parquet'],
      ["EXPORT DATABASE '{dir}/export'", 'export'],
      ["ATTACH '{dir}/other.duckdb' AS other", 'other.duckdb'],
      ["SELECT * FROM read_csv('{dir}/../../etc/hostname')", 'never-created'],
      ['SET enable_external_access = true', 'never-created'],
      ["SET GLOBAL access_mode = 'READ_WRITE'", 'never-created'],
      ['SET threads = 1', 'never-created'],
      ["PRAGMA enable_profiling = 'json'", 'never-created'],
    ])('refuses %s and writes no host file', async (template, created) => {
      const before = fingerprint();
      const error = await expectFailure(db.query(template.replaceAll('{dir}', dir)));
      expect(['QUERY_FAILED', 'READ_ONLY_VIOLATION']).toContain(error.code);
      expect(existsSync(path.join(dir, created))).toBe(false);
      expect(fingerprint()).toBe(before);
    });

    it('leaves the data as it was', async () => {
      const result = await db.query(
        'SELECT count(*) AS n, sum(price) AS total, max(name) AS last FROM items',
      );
      expect(result.rows).toEqual([[5000, '15621875.00', 'item 999']]);
    });
  });

  it.each([
    { maxRows: 10, rows: 10, truncated: true },
    { maxRows: 4999, rows: 4999, truncated: true },
    { maxRows: 5000, rows: 5000, truncated: false },
    { maxRows: 0, rows: 0, truncated: true },
  ])('keeps $maxRows rows of 5000 (truncated: $truncated)', async ({ maxRows, rows, truncated }) => {
    const result = await db.query('SELECT id FROM items ORDER BY id', { maxRows });
    expect(result.rows).toHaveLength(rows);
    expect(result.truncated).toBe(truncated);
  });

  it('reads text results through a temp table without touching the file, in the query order', async () => {
    const before = fingerprint();
    // More than one row group (122,880 rows), cut by the row cap, in descending order.
    const result = await db.query(
      "SELECT r AS id, 'name ' || r AS name, r % 3 = 0 AS flag FROM range(300000) t(r) ORDER BY r DESC",
      { maxRows: 200_000 },
    );
    expect(result.truncated).toBe(true);
    expect(result.rows).toHaveLength(200_000);
    expect(result.rows[0]).toEqual([299_999, 'name 299999', false]);
    expect(
      result.rows.every((row, index) => row[0] === 299_999 - index && row[1] === `name ${299_999 - index}`),
    ).toBe(true);
    expect(fingerprint()).toBe(before);
  });

  it('keeps the column names of a text result as the query spells them', async () => {
    const result = await db.query(
      'SELECT a.id, b.id, a.name, a.id + 1 AS rowid FROM items a JOIN items b ON a.id = b.id ORDER BY a.id LIMIT 2',
    );
    expect(result.columns.map((column) => column.name)).toEqual(['id', 'id', 'name', 'rowid']);
    expect(result.rows).toEqual([
      [0, 0, 'item 0', 1],
      [1, 1, 'item 1', 2],
    ]);
  });

  it.each([
    ['PRAGMA', "PRAGMA table_info('items')", ['cid', 'name', 'type', 'notnull', 'dflt_value', 'pk'], 3],
    ['SHOW', 'SHOW TABLES', ['name'], 2],
    ['DESCRIBE', 'DESCRIBE items', ['column_name', 'column_type', 'null', 'key', 'default', 'extra'], 3],
    ['EXPLAIN', 'EXPLAIN SELECT name FROM items', ['explain_key', 'explain_value'], 1],
    ['several statements', 'SELECT 1 AS one; SELECT name FROM items WHERE id = 7', ['name'], 1],
  ])('answers %s as before', async (_label, sql, columns, rows) => {
    const result = await db.query(sql);
    expect(result.columns.map((column) => column.name)).toEqual(columns);
    expect(result.rows).toHaveLength(rows);
    expect(result.truncated).toBe(false);
  });

  it('cancels a text query that passes its time limit, or is aborted', async () => {
    const slow = "SELECT 'total ' || sum(a.range * b.range) AS total FROM range(1000000) a, range(1000000) b";
    const error = await expectFailure(db.query(slow, { timeoutMs: 300 }));
    expect(error.code).toBe('QUERY_TIMEOUT');
    const controller = new AbortController();
    const reason = new Error('run cancelled');
    setTimeout(() => controller.abort(reason), 100);
    await expect(db.query(slow, { signal: controller.signal })).rejects.toBe(reason);
    expect((await db.query("SELECT 'still here' AS answer")).rows).toEqual([['still here']]);
  });

  it('reports a text query failing while it runs as QUERY_FAILED', async () => {
    const error = await expectFailure(
      db.query("SELECT CASE WHEN id = 4000 THEN error('bad row 4000') ELSE name END AS name FROM items"),
    );
    expect(error.code).toBe('QUERY_FAILED');
    expect(error.engineMessage).toContain('bad row 4000');
  });

  it('streams, so a capped query over a huge result stops early', async () => {
    const result = await db.query('SELECT range AS n FROM range(1000000000000)', {
      maxRows: 3,
      timeoutMs: 10_000,
    });
    expect(result.rows).toEqual([[0], [1], [2]]);
    expect(result.truncated).toBe(true);
  });

  it('stops a query whose limit passes before its statement starts to run', async () => {
    // DuckDB clears an interrupt as a statement begins; one sent during connect or prepare
    // would be lost and the cross join would run on.
    for (let attempt = 0; attempt < 20; attempt++) {
      const error = await expectFailure(
        db.query('SELECT sum(a.range * b.range) FROM range(1000000) a, range(1000000) b', { timeoutMs: 1 }),
      );
      expect(error.code).toBe('QUERY_TIMEOUT');
    }
  }, 20_000);

  it('cancels a query that passes its time limit, and keeps working', async () => {
    const started = performance.now();
    const error = await expectFailure(
      db.query('SELECT sum(a.range * b.range) FROM range(1000000) a, range(1000000) b', { timeoutMs: 300 }),
    );
    expect(error.code).toBe('QUERY_TIMEOUT');
    expect(error.message).toContain('"warehouse"');
    expect(error.message).toContain('300 ms');
    expect(performance.now() - started).toBeLessThan(10_000);
    expect((await db.query('SELECT 42 AS answer')).rows).toEqual([[42]]);
  });

  it('rejects with the reason of an aborted signal', async () => {
    const controller = new AbortController();
    const reason = new Error('run cancelled');
    setTimeout(() => controller.abort(reason), 100);
    await expect(
      db.query('SELECT sum(a.range * b.range) FROM range(1000000) a, range(1000000) b', {
        signal: controller.signal,
      }),
    ).rejects.toBe(reason);
    await expect(db.query('SELECT 1', { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
  });

  it('gives every query a fresh session: what one creates, the next never sees', async () => {
    await db.query('CREATE TEMP TABLE left_behind AS SELECT 42 AS n');
    await db.query('SET VARIABLE left_behind = 42');
    await expect(db.query('SELECT * FROM left_behind')).rejects.toMatchObject({ code: 'QUERY_FAILED' });
    expect((await db.query("SELECT getvariable('left_behind') AS v")).rows).toEqual([[null]]);
  });

  it('runs a database of small tables on one DuckDB thread, and keeps insertion order', async () => {
    const settings =
      "SELECT current_setting('threads') AS threads, current_setting('preserve_insertion_order') AS kept";
    expect((await db.query(settings)).rows).toEqual([[1, true]]);
    // A table of more than one row group keeps the engine's default threads.
    const bigFile = path.join(dir, 'big.duckdb');
    const writer = await DuckDBInstance.create(bigFile);
    const connection = await writer.connect();
    await connection.run('CREATE TABLE events AS SELECT range AS id FROM range(200000)');
    const defaults = (await connection.runAndReadAll("SELECT current_setting('threads')")).getRows()[0]?.[0];
    // Where the engine would use several, the small file's 1 is nao's choice, not the default.
    if (os.availableParallelism() > 1) expect(Number(defaults)).toBeGreaterThan(1);
    connection.closeSync();
    writer.closeSync();
    const big = await openDatabase({ type: 'duckdb', name: 'big', path: 'big.duckdb' }, { projectDir: dir });
    try {
      expect((await big.query(settings)).rows).toEqual([[Number(defaults), true]]);
    } finally {
      await big.close();
    }
  });

  it('reads a small result in one bounded statement, and SQL it cannot wrap as written', async () => {
    // DuckDB's own view of the statement it ran.
    const [[bounded]] = (await db.query('SELECT current_query() AS q')).rows as [[string]];
    expect(bounded).toMatch(/^SELECT \* FROM \(SELECT current_query\(\) AS q\n\) LIMIT \d+$/);
    const asWritten = 'SELECT current_query() AS q; -- a comment after the semicolon';
    expect((await db.query(asWritten)).rows).toEqual([[asWritten]]);
  });

  it('runs queries side by side', async () => {
    const results = await Promise.all([1, 2, 3].map((n) => db.query(`SELECT ${n} AS n`)));
    expect(results.map((result) => result.rows)).toEqual([[[1]], [[2]], [[3]]]);
  });

  it('reports engine errors as QUERY_FAILED with the engine message apart', async () => {
    const error = await expectFailure(db.query('SELECT missing_column FROM items'));
    expect(error.code).toBe('QUERY_FAILED');
    expect(error.message).toContain('The query failed on database "warehouse" (duckdb)');
    expect(error.engineMessage).toContain('missing_column');
    expect((await expectFailure(db.query('  '))).code).toBe('QUERY_FAILED');
    expect((await expectFailure(db.query('SELECT 1', { maxRows: -1 }))).code).toBe('INVALID_QUERY_OPTIONS');
    expect((await expectFailure(db.query('SELECT 1', { timeoutMs: 0 }))).code).toBe('INVALID_QUERY_OPTIONS');
  });

  it('lists tables and views of every user schema with their column types', async () => {
    expect(await db.listTables()).toEqual([
      {
        schema: 'analytics',
        name: 'expensive',
        columns: [
          { name: 'id', type: 'INTEGER' },
          { name: 'price', type: 'DECIMAL(10,2)' },
        ],
      },
      {
        schema: 'main',
        name: 'items',
        columns: [
          { name: 'id', type: 'INTEGER' },
          { name: 'name', type: 'VARCHAR' },
          { name: 'price', type: 'DECIMAL(10,2)' },
        ],
      },
      {
        schema: 'main',
        name: 'precise',
        columns: [
          { name: 'big', type: 'BIGINT' },
          { name: 'huge', type: 'HUGEINT' },
          { name: 'exact', type: 'DECIMAL(38,10)' },
          { name: 'moment', type: 'TIMESTAMP' },
          { name: 'moment_tz', type: 'TIMESTAMP WITH TIME ZONE' },
          { name: 'day', type: 'DATE' },
          { name: 'ratio', type: 'DOUBLE' },
          { name: 'nothing', type: 'INTEGER' },
          { name: 'flag', type: 'BOOLEAN' },
          { name: 'tags', type: 'VARCHAR[]' },
        ],
      },
    ]);
  });

  it.each([
    ['a missing file', 'missing.duckdb', 'does not exist'],
    ['a file that is not DuckDB', 'junk.duckdb', 'not a valid DuckDB database'],
  ])('fails to open %s with CONNECTION_FAILED naming the path', async (_label, name, reason) => {
    writeFileSync(path.join(dir, 'junk.duckdb'), 'not a database at all'.repeat(500));
    const error = await expectFailure(
      openDatabase({ type: 'duckdb', name: 'broken', path: path.join(dir, name) }),
    );
    expect(error.code).toBe('CONNECTION_FAILED');
    expect(error.message).toContain('"broken" (duckdb at ');
    expect(error.message).toContain(path.join(dir, name));
    expect(error.message).toContain(reason);
    expect(existsSync(path.join(dir, 'missing.duckdb'))).toBe(false);
  });

  it('closes once, harmlessly twice, interrupts what still runs and refuses queries afterwards', async () => {
    const other = await openDatabase({ type: 'duckdb', name: 'second', path: file });
    expect((await other.query('SELECT count(*) AS n FROM items')).rows).toEqual([[5000]]);
    const running = expectFailure(
      other.query('SELECT sum(a.range * b.range) FROM range(1000000) a, range(1000000) b'),
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    await other.close();
    await other.close();
    expect((await running).code).toBe('DATABASE_CLOSED');
    expect((await expectFailure(other.query('SELECT 1'))).code).toBe('DATABASE_CLOSED');
    expect((await expectFailure(other.listTables())).code).toBe('DATABASE_CLOSED');
  });
});
