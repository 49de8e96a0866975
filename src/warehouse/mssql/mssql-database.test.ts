/** What only the SQL Server / Fabric warehouse does; what every engine does is in conformance/. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectFailure } from '../../../test-support/warehouse-conformance/engine.js';
import { type FakeTdsServer, startFakeTdsServer } from '../../../test-support/warehouse-fakes/tds/server.js';
import type { Database } from '../database.js';
import type { DatabaseConfig } from '../database-config.js';
import { openDatabase } from '../open-database.js';
import { openTdsDatabase } from './mssql-database.js';
import type { TdsDatabaseConfig } from './mssql-driver.js';

const LOGINS = {
  nao_reader: { password: 'hunter2-reader', role: 'reader' },
  nao_owner: { password: 'hunter2-owner', role: 'owner' },
} as const;

describe('SQL Server warehouse (fake TDS server)', () => {
  let fake: FakeTdsServer;
  let owner: Database;
  let reader: Database;

  const config = (user: keyof typeof LOGINS, name: string): TdsDatabaseConfig => ({
    type: 'mssql',
    name,
    host: '127.0.0.1',
    port: fake.port,
    database: 'shop',
    user,
    password: LOGINS[user].password,
    encrypt: false,
    trust_server_certificate: false,
  });
  const count = async () =>
    Number((await fake.admin.runAndReadAll('SELECT count(*) FROM dbo.items')).getRows()[0]?.[0]);

  beforeAll(async () => {
    fake = await startFakeTdsServer({ database: 'shop', logins: LOGINS });
    await fake.admin.run(
      "CREATE TABLE items (id INTEGER, name VARCHAR); INSERT INTO items SELECT i, 'item ' || i FROM range(10) t(i)",
    );
    owner = await openDatabase(config('nao_owner', 'owned'));
    reader = await openDatabase(config('nao_reader', 'read'));
  });

  afterAll(async () => {
    await owner?.close();
    await reader?.close();
    await fake?.close();
  });

  it('runs each query in a transaction it rolls back: a write the login may make is undone', async () => {
    const result = await owner.query(
      "INSERT INTO items VALUES (99, N'new'); SELECT count(*) AS n FROM items",
    );
    expect(result.rows).toEqual([[11]]);
    expect(await count()).toBe(10);
    expect((await owner.query('SELECT count(*) AS n FROM items')).rows).toEqual([[10]]);
  });

  it("cannot undo a write the query commits itself: only the login's permissions stop it (hence db_datareader)", async () => {
    await owner.query("INSERT INTO items VALUES (100, N'committed'); COMMIT");
    expect(await count()).toBe(11);
    await fake.admin.run('DELETE FROM items WHERE id = 100');
    const error = await expectFailure(reader.query("INSERT INTO items VALUES (100, N'committed'); COMMIT"));
    expect(error.code).toBe('READ_ONLY_VIOLATION');
    expect(error.engineMessage).toContain('The INSERT permission was denied');
    expect(error.engineMessage).toContain('SQL Server error 229');
    expect(await count()).toBe(10);
  });

  it.each([
    ["CAST('2024-01-02 03:04:05.1234567' AS DATETIME2(7))", 'datetime2(7)', '2024-01-02T03:04:05.1234567'],
    ["CAST('2024-01-02 03:04:05.1234567' AS DATETIME2)", 'datetime2(7)', '2024-01-02T03:04:05.1234567'],
    ["CAST('2024-01-02 03:04:05.120' AS DATETIME2(3))", 'datetime2(3)', '2024-01-02T03:04:05.120'],
    ["CAST('2024-01-02 03:04:05' AS DATETIME2(0))", 'datetime2(0)', '2024-01-02T03:04:05'],
    ["CAST('1999-12-31 23:59:59.9999999' AS DATETIME2(7))", 'datetime2(7)', '1999-12-31T23:59:59.9999999'],
    ['CAST(NULL AS DATETIME2(7))', 'datetime2(7)', null],
    ['CAST(-1 AS SMALLINT)', 'smallint', -1],
    ['CAST(255 AS TINYINT)', 'tinyint', 255],
  ])('reads %s as %s %j, to the 100 ns SQL Server keeps', async (expression, type, expected) => {
    const result = await reader.query(`SELECT ${expression} AS v`);
    expect(result.columns).toEqual([{ name: 'v', type }]);
    expect(result.rows).toEqual([[expected]]);
  });

  it('lists only the schema_name schema when one is configured', async () => {
    await fake.admin.run(
      'CREATE SCHEMA IF NOT EXISTS sales; CREATE TABLE IF NOT EXISTS sales.orders (id INTEGER)',
    );
    const all = await reader.listTables();
    expect(all.map((table) => `${table.schema}.${table.name}`)).toEqual(['dbo.items', 'sales.orders']);
    const sales = await openDatabase({ ...config('nao_reader', 'sales'), schema_name: 'sales' });
    try {
      expect(await sales.listTables()).toEqual([
        { schema: 'sales', name: 'orders', columns: [{ name: 'id', type: 'int' }] },
      ]);
    } finally {
      await sales.close();
    }
  });

  it('keeps only the first result set of a batch', async () => {
    const result = await reader.query('SELECT 1 AS a; SELECT 2 AS b');
    expect(result).toEqual({ columns: [{ name: 'a', type: 'int' }], rows: [[1]], truncated: false });
  });

  it('refuses a server that cannot encrypt when `encrypt` is on, before the login is sent', async () => {
    const logins = fake.logins();
    const error = await expectFailure(openDatabase({ ...config('nao_reader', 'tls'), encrypt: true }));
    expect(error.code).toBe('CONNECTION_FAILED');
    expect(error.message).toContain(
      'cannot encrypt the connection while `encrypt` is on, so nao did not log in',
    );
    expect(error.message).toContain('`encrypt: false`');
    expect(fake.logins()).toBe(logins);
  });

  it('still names a closed port when `encrypt` is on', async () => {
    const error = await expectFailure(
      openDatabase({ ...config('nao_reader', 'tls'), port: 1, encrypt: true }),
    );
    expect(error.message).toContain('ECONNREFUSED');
  });

  it('names the driver package when tedious is not installed, without the password', async () => {
    const missing = Object.assign(new Error("Cannot find package 'tedious'"), {
      code: 'ERR_MODULE_NOT_FOUND',
    });
    const error = await expectFailure(
      openTdsDatabase(config('nao_reader', 'nodriver'), { importDriver: () => Promise.reject(missing) }),
    );
    expect(error.code).toBe('CONNECTION_FAILED');
    expect(error.message).toContain(`"nodriver" (mssql at 127.0.0.1:${fake.port}/shop as user nao_reader)`);
    expect(error.message).toContain('tedious is an optional dependency of nao');
    expect(error.message).toContain('run `npm install tedious`');
    expect(error.message).not.toContain('hunter2');
  });

  it('refuses a Fabric auth mode that needs a browser, naming what to use instead', async () => {
    const fabric = {
      ...config('nao_reader', 'lakehouse'),
      type: 'fabric',
      auth_mode: 'azure_interactive',
    } as DatabaseConfig;
    const error = await expectFailure(openDatabase(fabric));
    expect(error.code).toBe('CONNECTION_FAILED');
    expect(error.message).toContain('"lakehouse" (fabric at');
    expect(error.message).toContain('use azure_cli');
  });
});

describe('SQL Server warehouse in a database without ALLOW_SNAPSHOT_ISOLATION (fake TDS server)', () => {
  let fake: FakeTdsServer;
  let db: Database;

  beforeAll(async () => {
    fake = await startFakeTdsServer({ database: 'shop', logins: LOGINS, allowSnapshotIsolation: false });
    await fake.admin.run('CREATE TABLE items (id INTEGER); INSERT INTO items VALUES (1), (2)');
    db = await openDatabase({
      type: 'mssql',
      name: 'legacy',
      host: '127.0.0.1',
      port: fake.port,
      database: 'shop',
      user: 'nao_reader',
      password: LOGINS.nao_reader.password,
      encrypt: false,
      trust_server_certificate: false,
    });
  });

  afterAll(async () => {
    await db?.close();
    await fake?.close();
  });

  it('answers in a READ COMMITTED transaction once SQL Server refuses SNAPSHOT (error 3952), still read-only', async () => {
    expect((await db.query('SELECT count(*) AS n FROM items')).rows).toEqual([[2]]);
    expect((await db.query('SELECT max(id) AS m FROM items')).rows).toEqual([[2]]);
    expect((await expectFailure(db.query('DELETE FROM items'))).code).toBe('READ_ONLY_VIOLATION');
  });
});
