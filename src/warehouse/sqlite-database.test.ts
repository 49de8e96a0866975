import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from './database.js';
import { openDatabase } from './open-database.js';
import { WarehouseError } from './warehouse-error.js';

let dir: string;
let file: string;
let db: Database;

const SETUP = `
  CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL, price NUMERIC);
  WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 4999)
  INSERT INTO items SELECT i, 'item ' || i, i * 1.25 FROM n;
  CREATE TABLE precise (big INTEGER, exact TEXT, at TEXT, ratio REAL, absent INTEGER, raw BLOB);
  INSERT INTO precise VALUES (9223372036854775807, '1234567890123456789012345678.0123456789',
    '2024-01-02 03:04:05.123456', 0.1, NULL, x'616200ff');
  CREATE VIEW expensive AS SELECT id, price FROM items WHERE price > 100;
  PRAGMA user_version = 7;
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
  dir = mkdtempSync(path.join(os.tmpdir(), 'nao-sqlite-'));
  file = path.join(dir, 'warehouse.sqlite');
  const writer = new BetterSqlite3(file);
  writer.exec(SETUP);
  writer.close();
  db = await openDatabase({ type: 'sqlite', name: 'lite', path: 'warehouse.sqlite' }, { projectDir: dir });
});

afterAll(async () => {
  await db?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('SQLite warehouse', () => {
  it('returns values losslessly, with declared types or storage classes', async () => {
    const result = await db.query('SELECT *, big - 1 AS computed, 1.5 AS literal FROM precise');
    expect(result.columns).toEqual([
      { name: 'big', type: 'INTEGER' },
      { name: 'exact', type: 'TEXT' },
      { name: 'at', type: 'TEXT' },
      { name: 'ratio', type: 'REAL' },
      { name: 'absent', type: 'INTEGER' },
      { name: 'raw', type: 'BLOB' },
      { name: 'computed', type: 'INTEGER' },
      { name: 'literal', type: 'REAL' },
    ]);
    expect(result.rows).toEqual([
      [
        '9223372036854775807',
        '1234567890123456789012345678.0123456789',
        '2024-01-02 03:04:05.123456',
        0.1,
        null,
        '\\x616200ff',
        '9223372036854775806',
        1.5,
      ],
    ]);
  });

  describe('is read-only, enforced by SQLite', () => {
    it.each([
      "INSERT INTO items VALUES (99999, 'new', 1)",
      "UPDATE items SET name = 'changed'",
      'DELETE FROM items',
      'DROP TABLE items',
      'CREATE TABLE intruder (a INTEGER)',
      'CREATE TEMP TABLE intruder (a INTEGER)',
      'ALTER TABLE items ADD COLUMN extra INTEGER',
      'PRAGMA user_version = 8',
      'PRAGMA journal_mode = WAL',
      "INSERT INTO items VALUES (99998, 'x', 1) RETURNING id",
      "VACUUM INTO '{dir}/copy.sqlite'",
    ])('refuses %s as READ_ONLY_VIOLATION', async (template) => {
      const before = fingerprint();
      const error = await expectFailure(db.query(template.replaceAll('{dir}', dir)));
      expect(error.code).toBe('READ_ONLY_VIOLATION');
      expect(error.message).toContain('"lite" (sqlite) is read-only');
      expect(fingerprint()).toBe(before);
    });

    it('does not let a query switch query_only off for the next one', async () => {
      await db.query('PRAGMA query_only = OFF');
      expect((await expectFailure(db.query('CREATE TEMP TABLE intruder (a INTEGER)'))).code).toBe(
        'READ_ONLY_VIOLATION',
      );
    });

    it('cannot create another database file through ATTACH', async () => {
      const error = await expectFailure(db.query(`ATTACH '${path.join(dir, 'other.sqlite')}' AS other`));
      expect(error.code).toBe('QUERY_FAILED');
      expect(existsSync(path.join(dir, 'other.sqlite'))).toBe(false);
    });

    it('leaves the data and the file as they were', async () => {
      const result = await db.query(
        'SELECT count(*) AS n, sum(price) AS total, max(name) AS last, (SELECT user_version FROM pragma_user_version) AS version FROM items',
      );
      expect(result.rows).toEqual([[5000, 15621875, 'item 999', 7]]);
      // VACUUM INTO is refused before it copies anything; SQLite may leave an empty file behind.
      const copy = path.join(dir, 'copy.sqlite');
      if (existsSync(copy)) expect(statSync(copy).size).toBe(0);
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

  it('iterates, so a capped query over an endless result stops early', async () => {
    const result = await db.query(
      'WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT i FROM n',
      { maxRows: 3, timeoutMs: 10_000 },
    );
    expect(result).toEqual({
      columns: [{ name: 'i', type: 'INTEGER' }],
      rows: [[1], [2], [3]],
      truncated: true,
    });
  });

  it('kills a query that passes its time limit; one queued behind it times out without running', async () => {
    const endless = 'WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT count(*) FROM n';
    const started = performance.now();
    const slow = expectFailure(db.query(endless, { timeoutMs: 600 }));
    // The limit counts from the call: this one never gets the process before its 200 ms pass.
    const queued = expectFailure(db.query('SELECT 1', { timeoutMs: 200 }));
    expect((await queued).code).toBe('QUERY_TIMEOUT');
    const error = await slow;
    expect(error.code).toBe('QUERY_TIMEOUT');
    expect(error.message).toContain('"lite" (sqlite)');
    expect(error.message).toContain('600 ms');
    expect(performance.now() - started).toBeLessThan(10_000);
    expect((await db.query('SELECT 42 AS answer')).rows).toEqual([[42]]);
  });

  it('rejects with the reason of an aborted signal', async () => {
    const controller = new AbortController();
    const reason = new Error('run cancelled');
    setTimeout(() => controller.abort(reason), 100);
    await expect(
      db.query('WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT count(*) FROM n', {
        signal: controller.signal,
      }),
    ).rejects.toBe(reason);
    expect((await db.query('SELECT 2 AS two')).rows).toEqual([[2]]);
  });

  it('reports engine errors as QUERY_FAILED with the engine message apart', async () => {
    const error = await expectFailure(db.query('SELECT missing_column FROM items'));
    expect(error.code).toBe('QUERY_FAILED');
    expect(error.engineMessage).toBe('no such column: missing_column');
    expect((await expectFailure(db.query('SELECT 1; SELECT 2'))).engineMessage).toMatch(
      /more than one statement/,
    );
  });

  it('lists tables and views with their declared column types', async () => {
    expect(await db.listTables()).toEqual([
      {
        schema: null,
        name: 'expensive',
        columns: [
          { name: 'id', type: 'INTEGER' },
          { name: 'price', type: 'NUMERIC' },
        ],
      },
      {
        schema: null,
        name: 'items',
        columns: [
          { name: 'id', type: 'INTEGER' },
          { name: 'name', type: 'TEXT' },
          { name: 'price', type: 'NUMERIC' },
        ],
      },
      {
        schema: null,
        name: 'precise',
        columns: [
          { name: 'big', type: 'INTEGER' },
          { name: 'exact', type: 'TEXT' },
          { name: 'at', type: 'TEXT' },
          { name: 'ratio', type: 'REAL' },
          { name: 'absent', type: 'INTEGER' },
          { name: 'raw', type: 'BLOB' },
        ],
      },
    ]);
  });

  it.each([
    ['a missing file', 'missing.sqlite', 'no such file'],
    ['a file that is not SQLite', 'junk.sqlite', 'file is not a database'],
  ])('fails to open %s with CONNECTION_FAILED naming the path', async (_label, name, reason) => {
    writeFileSync(path.join(dir, 'junk.sqlite'), 'not a database at all'.repeat(500));
    const error = await expectFailure(
      openDatabase({ type: 'sqlite', name: 'broken', path: path.join(dir, name) }),
    );
    expect(error.code).toBe('CONNECTION_FAILED');
    expect(error.message).toContain(`"broken" (sqlite at ${path.join(dir, name)})`);
    expect(error.message).toContain(reason);
    expect(existsSync(path.join(dir, 'missing.sqlite'))).toBe(false);
  });

  // Last: it closes the database the other tests share.
  it('closes once, harmlessly twice, and stops what still runs', async () => {
    const running = expectFailure(
      db.query('WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT count(*) FROM n'),
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    await db.close();
    await db.close();
    expect((await running).code).toBe('DATABASE_CLOSED');
    expect((await expectFailure(db.query('SELECT 1'))).code).toBe('DATABASE_CLOSED');
    expect((await expectFailure(db.listTables())).code).toBe('DATABASE_CLOSED');
  });
});
