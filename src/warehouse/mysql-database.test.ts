import { randomBytes } from 'node:crypto';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from './database.js';
import { openDatabase } from './open-database.js';
import { WarehouseError } from './warehouse-error.js';

const SERVER = { host: '127.0.0.1', port: 3306, user: 'root', database: 'test' };
const PREFIX = `nao_wh_${randomBytes(4).toString('hex')}`;
const ITEMS = `${PREFIX}_items`;
const PRECISE = `${PREFIX}_precise`;
const LEGACY = `${PREFIX}_legacy`;
const DROPPER = `${PREFIX}_dropper`;

async function serverAvailable(): Promise<boolean> {
  try {
    const connection = await mysql.createConnection({ ...SERVER, connectTimeout: 3000 });
    await connection.end();
    return true;
  } catch {
    return false;
  }
}

const available = await serverAvailable();
const required = Boolean(process.env.NAO_REQUIRE_SERVERS);
if (!available && !required) {
  console.warn(
    'Skipping the MySQL/MariaDB warehouse tests: no server at 127.0.0.1:3306 (set NAO_REQUIRE_SERVERS=1 to fail instead).',
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

describe.skipIf(!available && !required)('MySQL/MariaDB warehouse', () => {
  let admin: mysql.Connection;
  let db: Database;

  async function snapshot(): Promise<unknown> {
    const [rows] = await admin.query(
      `SELECT (SELECT count(*) FROM ${ITEMS}) AS n, (SELECT sum(price) FROM ${ITEMS}) AS total,
              (SELECT count(*) FROM ${LEGACY}) AS legacy,
              (SELECT group_concat(TABLE_NAME ORDER BY TABLE_NAME) FROM information_schema.TABLES
                WHERE TABLE_SCHEMA = 'test' AND TABLE_NAME LIKE '${PREFIX}%') AS tables,
              (SELECT count(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = '${PREFIX}') AS databases_made`,
    );
    return rows;
  }

  async function running(marker: string): Promise<number> {
    const [rows] = await admin.query<mysql.RowDataPacket[]>(
      "SELECT count(*) AS n FROM information_schema.PROCESSLIST WHERE INFO LIKE ? AND INFO NOT LIKE '%PROCESSLIST%'",
      [`%${marker}%`],
    );
    return Number(rows[0]?.n);
  }

  beforeAll(async () => {
    admin = await mysql.createConnection({ ...SERVER, multipleStatements: true });
    await admin.query(`
      SET time_zone = '+00:00', max_recursive_iterations = 100000;
      CREATE TABLE ${ITEMS} (id INT PRIMARY KEY, name VARCHAR(40) NOT NULL, price DECIMAL(10,2)) ENGINE=InnoDB;
      INSERT INTO ${ITEMS} WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 4999)
        SELECT i, CONCAT('item ', i), i * 1.25 FROM n;
      CREATE TABLE ${PRECISE} (
        big BIGINT, exact DECIMAL(38,10), moment DATETIME(6), stamp TIMESTAMP(6) NULL, day DATE, ratio DOUBLE,
        absent INT, flag TINYINT(1), raw VARBINARY(8), doc JSON, huge BIGINT UNSIGNED, bits BIT(8), single FLOAT
      );
      INSERT INTO ${PRECISE} VALUES (
        9223372036854775807, '1234567890123456789012345678.0123456789', '2024-01-02 03:04:05.123456',
        '2024-01-02 01:04:05.123456', '2024-01-02', 0.1, NULL, true, x'616200ff', '{"a": 1}',
        18446744073709551615, b'101', 0.1
      );
      CREATE TABLE ${LEGACY} (a INT) ENGINE=MyISAM;
      INSERT INTO ${LEGACY} VALUES (1), (2);
      CREATE PROCEDURE ${DROPPER}() BEGIN DROP TABLE ${ITEMS}; END;
    `);
    db = await openDatabase({ type: 'mysql', name: 'maria', ...SERVER });
  });

  afterAll(async () => {
    await db?.close();
    await admin?.query(`
      DROP TABLE IF EXISTS ${ITEMS}, ${PRECISE}, ${LEGACY}, ${PREFIX}_intruder;
      DROP PROCEDURE IF EXISTS ${DROPPER};
      DROP DATABASE IF EXISTS ${PREFIX};
    `);
    await admin?.end();
  });

  it('returns values losslessly, with MySQL spellings of the column types', async () => {
    const result = await db.query(`SELECT * FROM ${PRECISE}`);
    expect(result.columns.map((column) => column.type)).toEqual([
      'BIGINT',
      'DECIMAL(38,10)',
      'DATETIME(6)',
      'TIMESTAMP(6)',
      'DATE',
      'DOUBLE',
      'INT',
      'TINYINT',
      'VARBINARY',
      expect.stringMatching(/^(JSON|TEXT)$/),
      'BIGINT UNSIGNED',
      'BIT',
      'FLOAT',
    ]);
    expect(result.rows).toEqual([
      [
        '9223372036854775807',
        '1234567890123456789012345678.0123456789',
        '2024-01-02T03:04:05.123456',
        '2024-01-02T01:04:05.123456',
        '2024-01-02',
        0.1,
        null,
        1,
        '\\x616200ff',
        '{"a": 1}',
        '18446744073709551615',
        5,
        0.1,
      ],
    ]);
  });

  it.each<[string, unknown]>([
    ['CAST(42 AS SIGNED)', 42],
    ["CAST('12.50' AS DECIMAL(5,2))", '12.50'],
    ["CAST('2024-01-02 03:04:05' AS DATETIME)", '2024-01-02T03:04:05'],
    ["CAST('2024-01-02 03:04:05.5' AS DATETIME(6))", '2024-01-02T03:04:05.500000'],
    ["CAST('03:04:05.5' AS TIME(1))", '03:04:05.5'],
    ["_utf8mb4'héllo'", 'héllo'],
    ['NULL', null],
  ])('reads %s as %j', async (expression, expected) => {
    expect((await db.query(`SELECT ${expression} AS v`)).rows).toEqual([[expected]]);
  });

  describe('is read-only, enforced by the server', () => {
    it.each([
      `INSERT INTO ${ITEMS} VALUES (99999, 'new', 1)`,
      `UPDATE ${ITEMS} SET name = 'changed'`,
      `DELETE FROM ${ITEMS}`,
      `INSERT INTO ${LEGACY} VALUES (3)`,
      `DELETE FROM ${LEGACY}`,
      `TRUNCATE TABLE ${ITEMS}`,
      `DROP TABLE ${ITEMS}`,
      `CREATE TABLE ${PREFIX}_intruder (a INT)`,
      `CREATE TEMPORARY TABLE ${PREFIX}_intruder (a INT)`,
      `ALTER TABLE ${ITEMS} ADD COLUMN extra INT`,
      `RENAME TABLE ${ITEMS} TO ${PREFIX}_renamed`,
      `CREATE DATABASE ${PREFIX}`,
      `LOCK TABLES ${ITEMS} WRITE`,
      `CALL ${DROPPER}()`,
      `SELECT * FROM ${ITEMS} FOR UPDATE`,
      'COMMIT',
      'SET TRANSACTION READ WRITE',
    ])('refuses %s as READ_ONLY_VIOLATION', async (sql) => {
      const before = await snapshot();
      const error = await expectFailure(db.query(sql));
      expect(error.code).toBe('READ_ONLY_VIOLATION');
      expect(error.message).toContain('"maria" (mysql) is read-only');
      expect(await snapshot()).toEqual(before);
    });

    it('runs one statement per query, so nothing can be chained after the transaction', async () => {
      const before = await snapshot();
      const error = await expectFailure(db.query(`SELECT 1; DROP TABLE ${ITEMS}`));
      expect(error.code).toBe('QUERY_FAILED');
      expect(await snapshot()).toEqual(before);
    });

    it('gives every query a fresh read-only transaction, whatever the last one did', async () => {
      await db.query('SET SESSION TRANSACTION READ WRITE');
      await db.query('SET autocommit = 0');
      await db.query("SET time_zone = '+05:00'");
      expect((await expectFailure(db.query(`INSERT INTO ${ITEMS} VALUES (99999, 'new', 1)`))).code).toBe(
        'READ_ONLY_VIOLATION',
      );
      expect((await db.query(`SELECT stamp FROM ${PRECISE}`)).rows).toEqual([['2024-01-02T01:04:05.123456']]);
    });
  });

  it.each([
    { maxRows: 10, rows: 10, truncated: true },
    { maxRows: 4999, rows: 4999, truncated: true },
    { maxRows: 5000, rows: 5000, truncated: false },
    { maxRows: 0, rows: 0, truncated: true },
  ])('keeps $maxRows rows of 5000 (truncated: $truncated)', async ({ maxRows, rows, truncated }) => {
    const result = await db.query(`SELECT id FROM ${ITEMS} ORDER BY id`, { maxRows });
    expect(result.rows).toHaveLength(rows);
    expect(result.truncated).toBe(truncated);
  });

  it('streams, and stops the server once the cap is passed', async () => {
    const marker = `nao_cap_${randomBytes(4).toString('hex')}`;
    const result = await db.query(
      `SELECT a.id AS ${marker} FROM ${ITEMS} a CROSS JOIN ${ITEMS} b CROSS JOIN ${ITEMS} c`,
      {
        maxRows: 3,
        timeoutMs: 10_000,
      },
    );
    expect(result.rows).toHaveLength(3);
    expect(result.truncated).toBe(true);
    await expect.poll(() => running(marker), { timeout: 3000 }).toBe(0);
  });

  it('cancels a query that passes its time limit, and keeps working', async () => {
    const started = performance.now();
    const error = await expectFailure(db.query('SELECT SLEEP(30)', { timeoutMs: 300 }));
    expect(error.code).toBe('QUERY_TIMEOUT');
    expect(error.message).toContain('"maria" (mysql)');
    expect(error.message).toContain('300 ms');
    expect(performance.now() - started).toBeLessThan(10_000);
    expect((await db.query('SELECT 42 AS answer')).rows).toEqual([[42]]);
  });

  it('kills the server-side query when the signal aborts', async () => {
    const controller = new AbortController();
    const reason = new Error('run cancelled');
    const marker = `nao_abort_${randomBytes(4).toString('hex')}`;
    setTimeout(() => controller.abort(reason), 200);
    const started = performance.now();
    await expect(db.query(`SELECT SLEEP(30) AS ${marker}`, { signal: controller.signal })).rejects.toBe(
      reason,
    );
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(await running(marker)).toBe(0);
  });

  it('runs queries side by side', async () => {
    const results = await Promise.all(
      [1, 2, 3, 4, 5].map((n) => db.query(`SELECT ${n} AS n, SLEEP(0.1) AS s`)),
    );
    expect(results.map((result) => result.rows[0]![0])).toEqual([1, 2, 3, 4, 5]);
  });

  it('reports engine errors as QUERY_FAILED with the engine message apart', async () => {
    const error = await expectFailure(db.query(`SELECT missing_column FROM ${ITEMS}`));
    expect(error.code).toBe('QUERY_FAILED');
    expect(error.message).toContain('The query failed on database "maria" (mysql)');
    expect(error.engineMessage).toContain("Unknown column 'missing_column'");
  });

  it('lists the tables of the connected database with their column types', async () => {
    const tables = (await db.listTables()).filter((table) => table.name.startsWith(PREFIX));
    expect(tables.map((table) => [table.schema, table.name])).toEqual([
      ['test', ITEMS],
      ['test', LEGACY],
      ['test', PRECISE],
    ]);
    expect(tables[0]!.columns).toEqual([
      { name: 'id', type: 'int(11)' },
      { name: 'name', type: 'varchar(40)' },
      { name: 'price', type: 'decimal(10,2)' },
    ]);
  });

  describe('connection failures', () => {
    it.each([
      [
        'a closed port',
        { host: '127.0.0.1', port: 1, user: 'nao_reader', password: 'hunter2-secret', database: 'shop' },
        '127.0.0.1:1/shop as user nao_reader',
        'ECONNREFUSED',
      ],
      [
        'a wrong password, from a url',
        { url: 'mysql://root:hunter2-secret@127.0.0.1:3306/test' },
        '127.0.0.1:3306/test as user root',
        'Access denied',
      ],
      [
        'a database that does not exist',
        { url: 'mysql://root@127.0.0.1:3306/nao_no_such_database' },
        '127.0.0.1:3306/nao_no_such_database as user root',
        "Unknown database 'nao_no_such_database'",
      ],
    ])(
      '%s: CONNECTION_FAILED naming the target, never the password',
      async (_label, fields, target, reason) => {
        const error = await expectFailure(openDatabase({ type: 'mysql', name: 'remote', ...fields }));
        expect(error.code).toBe('CONNECTION_FAILED');
        expect(error.message).toContain(`"remote" (mysql at ${target})`);
        expect(error.message).toContain(reason);
        expect(error.message).not.toContain('hunter2');
        expect(JSON.stringify(error)).not.toContain('hunter2');
        expect(error.cause).toBeUndefined();
      },
    );
  });

  it('closes once, harmlessly twice, and kills what still runs', async () => {
    const other = await openDatabase({ type: 'mysql', name: 'second', ...SERVER });
    const marker = `nao_close_${randomBytes(4).toString('hex')}`;
    const pending = expectFailure(other.query(`SELECT SLEEP(30) AS ${marker}`));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const started = performance.now();
    await other.close();
    await other.close();
    expect(performance.now() - started).toBeLessThan(10_000);
    expect((await pending).code).toBe('DATABASE_CLOSED');
    expect(await running(marker)).toBe(0);
    expect((await expectFailure(other.query('SELECT 1'))).code).toBe('DATABASE_CLOSED');
  });
});
