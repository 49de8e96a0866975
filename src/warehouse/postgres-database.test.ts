import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from './database.js';
import { openDatabase } from './open-database.js';
import { WarehouseError } from './warehouse-error.js';

const SERVER = { host: '127.0.0.1', port: 5432, user: 'postgres', database: 'test' };
const SCHEMA = `nao_wh_${randomBytes(4).toString('hex')}`;

async function serverAvailable(): Promise<boolean> {
  const client = new pg.Client({ ...SERVER, connectionTimeoutMillis: 3000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

const available = await serverAvailable();
const required = Boolean(process.env.NAO_REQUIRE_SERVERS);
if (!available && !required) {
  console.warn(
    'Skipping the PostgreSQL warehouse tests: no server at 127.0.0.1:5432 (set NAO_REQUIRE_SERVERS=1 to fail instead).',
  );
}

async function expectFailure(promise: Promise<unknown>): Promise<WarehouseError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(WarehouseError);
  return error as WarehouseError;
}

describe.skipIf(!available && !required)('PostgreSQL warehouse', () => {
  let admin: pg.Client;
  let db: Database;

  async function snapshot(): Promise<unknown> {
    const result = await admin.query(
      `SELECT (SELECT count(*) FROM ${SCHEMA}.items) AS n, (SELECT sum(price) FROM ${SCHEMA}.items) AS total,
              (SELECT string_agg(table_name, ',' ORDER BY table_name) FROM information_schema.tables
                WHERE table_schema = $1) AS tables,
              (SELECT last_value FROM ${SCHEMA}.counter) AS counter`,
      [SCHEMA],
    );
    return result.rows[0];
  }

  beforeAll(async () => {
    admin = new pg.Client(SERVER);
    await admin.connect();
    await admin.query(`
      CREATE SCHEMA ${SCHEMA};
      CREATE TABLE ${SCHEMA}.items (id integer PRIMARY KEY, name text NOT NULL, price numeric(10,2));
      INSERT INTO ${SCHEMA}.items SELECT i, 'item ' || i, i * 1.25 FROM generate_series(0, 4999) AS i;
      CREATE TABLE ${SCHEMA}.precise (
        big bigint, exact numeric(38,10), moment timestamp, moment_tz timestamptz, day date,
        ratio double precision, absent integer, flag boolean, raw bytea, tags integer[], doc jsonb
      );
      INSERT INTO ${SCHEMA}.precise VALUES (
        9223372036854775807, '1234567890123456789012345678.0123456789', '2024-01-02 03:04:05.123456',
        '2024-01-02 03:04:05.123456+02', '2024-01-02', 0.1, NULL, true, '\\x616200ff', '{1,2}', '{"a": 1}'
      );
      CREATE VIEW ${SCHEMA}.expensive AS SELECT id, price FROM ${SCHEMA}.items WHERE price > 100;
      CREATE SEQUENCE ${SCHEMA}.counter;
    `);
    db = await openDatabase({ type: 'postgres', name: 'pg', ...SERVER, schema: SCHEMA });
  });

  afterAll(async () => {
    await db?.close();
    await admin?.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`);
    await admin?.end();
  });

  it('returns values losslessly, with the server spelling of the column types', async () => {
    const result = await db.query('SELECT * FROM precise');
    expect(result.columns).toEqual([
      { name: 'big', type: 'bigint' },
      { name: 'exact', type: 'numeric(38,10)' },
      { name: 'moment', type: 'timestamp without time zone' },
      { name: 'moment_tz', type: 'timestamp with time zone' },
      { name: 'day', type: 'date' },
      { name: 'ratio', type: 'double precision' },
      { name: 'absent', type: 'integer' },
      { name: 'flag', type: 'boolean' },
      { name: 'raw', type: 'bytea' },
      { name: 'tags', type: 'integer[]' },
      { name: 'doc', type: 'jsonb' },
    ]);
    expect(result.rows).toEqual([
      [
        '9223372036854775807',
        '1234567890123456789012345678.0123456789',
        '2024-01-02T03:04:05.123456',
        '2024-01-02T01:04:05.123456Z',
        '2024-01-02',
        0.1,
        null,
        true,
        '\\x616200ff',
        '{1,2}',
        '{"a": 1}',
      ],
    ]);
  });

  it.each<[string, unknown]>([
    ['42::int8', 42],
    ['(-9223372036854775807 - 1)::int8', '-9223372036854775808'],
    ['12.50::numeric(5,2)', '12.50'],
    ["'NaN'::float8", 'NaN'],
    ["'-Infinity'::float8", '-Infinity'],
    ['0.1::float4', 0.1],
    ['32767::int2', 32767],
    ["'infinity'::timestamp", 'infinity'],
    ["'2024-01-02 03:04:05'::timestamp", '2024-01-02T03:04:05'],
    ["'2024-01-02 03:04:05.5'::timestamp", '2024-01-02T03:04:05.500000'],
    ["'03:04:05.5'::time", '03:04:05.5'],
    ["interval '1 day 2 hours'", '1 day 02:00:00'],
    ["'eeccb8c5-9943-b2bb-bb5e-222f4e14b687'::uuid", 'eeccb8c5-9943-b2bb-bb5e-222f4e14b687'],
    ['false', false],
  ])('reads %s as %j', async (expression, expected) => {
    expect((await db.query(`SELECT ${expression} AS v`)).rows).toEqual([[expected]]);
  });

  it('resolves unqualified names in the configured schema', async () => {
    expect((await db.query('SELECT current_schema() AS s, count(*) AS n FROM items')).rows).toEqual([
      [SCHEMA, 5000],
    ]);
  });

  describe('is read-only, enforced by PostgreSQL', () => {
    it.each([
      "INSERT INTO items VALUES (99999, 'new', 1)",
      "UPDATE items SET name = 'changed'",
      'DELETE FROM items',
      'TRUNCATE items',
      'DROP TABLE items',
      'CREATE TABLE intruder (a integer)',
      'CREATE TEMP TABLE intruder (a integer)',
      'ALTER TABLE items ADD COLUMN extra integer',
      "SELECT nextval('counter')",
      "DO $$ BEGIN EXECUTE 'DROP TABLE items'; END $$",
    ])('refuses %s as READ_ONLY_VIOLATION', async (sql) => {
      const before = await snapshot();
      const error = await expectFailure(db.query(sql));
      expect(error.code).toBe('READ_ONLY_VIOLATION');
      expect(error.message).toContain('"pg" (postgres) is read-only');
      expect(error.engineMessage).toMatch(/read-only transaction/);
      expect(await snapshot()).toEqual(before);
    });

    it.each([
      "COMMIT; INSERT INTO items VALUES (99999, 'new', 1)",
      "SET TRANSACTION READ WRITE; INSERT INTO items VALUES (99999, 'new', 1)",
      'ROLLBACK; SET default_transaction_read_only = off; DROP TABLE items',
    ])('refuses to chain statements out of the transaction: %s', async (sql) => {
      const before = await snapshot();
      const error = await expectFailure(db.query(sql));
      expect(error.code).toBe('QUERY_FAILED');
      expect(error.engineMessage).toContain('cannot insert multiple commands');
      expect(await snapshot()).toEqual(before);
    });

    it('gives every query a fresh read-only transaction, whatever the last one did', async () => {
      await db.query('COMMIT');
      await db.query('SET TRANSACTION READ WRITE');
      await db.query("SET search_path TO 'public'");
      const error = await expectFailure(db.query("INSERT INTO items VALUES (99999, 'new', 1)"));
      expect(error.code).toBe('READ_ONLY_VIOLATION');
      expect((await db.query('SELECT count(*) AS n FROM items')).rows).toEqual([[5000]]);
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

  it('fetches through a row-limited portal, so a capped query over a huge result stops early', async () => {
    // 5000³ rows: only a plan pulled lazily, a portal at a time, answers this before the limit.
    const result = await db.query('SELECT a.id FROM items a CROSS JOIN items b CROSS JOIN items c', {
      maxRows: 3,
      timeoutMs: 10_000,
    });
    expect(result.rows).toHaveLength(3);
    expect(result.truncated).toBe(true);
  });

  it('cancels a query that passes its time limit, and keeps working', async () => {
    const started = performance.now();
    const error = await expectFailure(db.query('SELECT pg_sleep(30)', { timeoutMs: 300 }));
    expect(error.code).toBe('QUERY_TIMEOUT');
    expect(error.message).toContain('"pg" (postgres)');
    expect(error.message).toContain('300 ms');
    expect(performance.now() - started).toBeLessThan(10_000);
    expect((await db.query('SELECT 42 AS answer')).rows).toEqual([[42]]);
  });

  it('cancels the server-side query when the signal aborts', async () => {
    const controller = new AbortController();
    const reason = new Error('run cancelled');
    const marker = `nao_abort_${randomBytes(4).toString('hex')}`;
    setTimeout(() => controller.abort(reason), 200);
    const started = performance.now();
    await expect(db.query(`SELECT pg_sleep(30) AS ${marker}`, { signal: controller.signal })).rejects.toBe(
      reason,
    );
    expect(performance.now() - started).toBeLessThan(10_000);
    const still = await admin.query(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE state = 'active' AND query LIKE $1 AND pid <> pg_backend_pid()",
      [`%${marker}%`],
    );
    expect(still.rows[0].n).toBe(0);
  });

  it('runs queries side by side', async () => {
    const results = await Promise.all(
      [1, 2, 3, 4, 5].map((n) => db.query(`SELECT ${n} AS n, pg_sleep(0.1)`)),
    );
    expect(results.map((result) => result.rows[0]![0])).toEqual([1, 2, 3, 4, 5]);
  });

  it('reports engine errors as QUERY_FAILED with the message and hint apart', async () => {
    const error = await expectFailure(db.query('SELECT missing_column FROM items'));
    expect(error.code).toBe('QUERY_FAILED');
    expect(error.message).toContain('The query failed on database "pg" (postgres)');
    expect(error.engineMessage).toContain('column "missing_column" does not exist');
  });

  it('lists the tables and views of the configured schema with their column types', async () => {
    expect(await db.listTables()).toEqual([
      {
        schema: SCHEMA,
        name: 'expensive',
        columns: [
          { name: 'id', type: 'integer' },
          { name: 'price', type: 'numeric(10,2)' },
        ],
      },
      {
        schema: SCHEMA,
        name: 'items',
        columns: [
          { name: 'id', type: 'integer' },
          { name: 'name', type: 'text' },
          { name: 'price', type: 'numeric(10,2)' },
        ],
      },
      {
        schema: SCHEMA,
        name: 'precise',
        columns: [
          { name: 'big', type: 'bigint' },
          { name: 'exact', type: 'numeric(38,10)' },
          { name: 'moment', type: 'timestamp without time zone' },
          { name: 'moment_tz', type: 'timestamp with time zone' },
          { name: 'day', type: 'date' },
          { name: 'ratio', type: 'double precision' },
          { name: 'absent', type: 'integer' },
          { name: 'flag', type: 'boolean' },
          { name: 'raw', type: 'bytea' },
          { name: 'tags', type: 'integer[]' },
          { name: 'doc', type: 'jsonb' },
        ],
      },
    ]);
  });

  it('lists every user schema when none is configured, never the system ones', async () => {
    const all = await openDatabase({
      type: 'postgres',
      name: 'pg-all',
      url: 'postgres://postgres@127.0.0.1:5432/test',
    });
    try {
      const tables = await all.listTables();
      expect(tables.filter((table) => table.schema === SCHEMA).map((table) => table.name)).toEqual([
        'expensive',
        'items',
        'precise',
      ]);
      expect(tables.some((table) => ['pg_catalog', 'information_schema'].includes(table.schema ?? ''))).toBe(
        false,
      );
    } finally {
      await all.close();
    }
  });

  describe('connection failures', () => {
    it.each([
      [
        'a closed port, from separate fields',
        { host: '127.0.0.1', port: 1, user: 'nao_reader', password: 'hunter2-secret', database: 'shop' },
        '127.0.0.1:1/shop as user nao_reader',
        'ECONNREFUSED',
      ],
      [
        'a closed port, from a url',
        { url: 'postgres://nao_reader:hunter2-secret@127.0.0.1:1/shop' },
        '127.0.0.1:1/shop as user nao_reader',
        'ECONNREFUSED',
      ],
      [
        'a database that does not exist',
        { url: 'postgresql://postgres:hunter2-secret@127.0.0.1:5432/nao_no_such_database' },
        '127.0.0.1:5432/nao_no_such_database as user postgres',
        'database "nao_no_such_database" does not exist',
      ],
      [
        'a schema that does not exist',
        { ...SERVER, password: 'hunter2-secret', schema: 'nao_no_such_schema' },
        '127.0.0.1:5432/test as user postgres',
        'schema "nao_no_such_schema" does not exist',
      ],
    ])(
      '%s: CONNECTION_FAILED naming the target, never the password',
      async (_label, fields, target, reason) => {
        const error = await expectFailure(openDatabase({ type: 'postgres', name: 'remote', ...fields }));
        expect(error.code).toBe('CONNECTION_FAILED');
        expect(error.message).toContain(`"remote" (postgres at ${target})`);
        expect(error.message).toContain(reason);
        expect(error.message).not.toContain('hunter2');
        expect(JSON.stringify(error)).not.toContain('hunter2');
        expect(error.cause).toBeUndefined();
      },
    );
  });

  it('closes once, harmlessly twice, and cancels what still runs', async () => {
    const other = await openDatabase({ type: 'postgres', name: 'second', ...SERVER, schema: SCHEMA });
    const running = expectFailure(other.query('SELECT pg_sleep(30)'));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const started = performance.now();
    await other.close();
    await other.close();
    expect(performance.now() - started).toBeLessThan(10_000);
    expect((await running).code).toBe('DATABASE_CLOSED');
    expect((await expectFailure(other.query('SELECT 1'))).code).toBe('DATABASE_CLOSED');
  });
});
