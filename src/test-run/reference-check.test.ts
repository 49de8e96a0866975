import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseConfig } from '../config/schema.js';
import { DATABASE_TYPES } from '../warehouse/database-config.js';
import { type Database, openDatabase, plannedAhead } from '../warehouse/index.js';
import { checkReferenceSql, checkReferences } from './reference-check.js';

let dir: string;
const databases: Record<string, Database> = {};

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'nao-reference-check-'));
  const duckdbFile = path.join(dir, 'shop.duckdb');
  const instance = await DuckDBInstance.create(duckdbFile);
  const connection = await instance.connect();
  await connection.run('CREATE TABLE orders (id INTEGER, amount DOUBLE); INSERT INTO orders VALUES (1, 2.5)');
  connection.closeSync();
  instance.closeSync();
  const sqliteFile = path.join(dir, 'shop.sqlite');
  const sqlite = new BetterSqlite3(sqliteFile);
  sqlite.exec('CREATE TABLE orders (id INTEGER, amount REAL); INSERT INTO orders VALUES (1, 2.5)');
  sqlite.close();
  const configs: DatabaseConfig[] = [
    { type: 'duckdb', name: 'duckdb', path: duckdbFile },
    { type: 'sqlite', name: 'sqlite', path: sqliteFile },
    // The servers' own catalog tables: present on every server, no fixture to create.
    {
      type: 'postgres',
      name: 'postgres',
      host: '127.0.0.1',
      port: 5432,
      user: 'postgres',
      database: 'test',
      allow_privileged_role: true,
    },
    {
      type: 'mysql',
      name: 'mysql',
      host: '127.0.0.1',
      port: 3306,
      user: 'root',
      database: 'test',
      allow_privileged_role: true,
    },
    // The same servers under the types that share their adapters, as the conformance suite does.
    {
      type: 'redshift',
      name: 'redshift',
      host: '127.0.0.1',
      port: 5432,
      user: 'postgres',
      password: 'unused-by-trust',
      database: 'test',
      auth_mode: 'password',
      sslmode: 'disable',
    },
    {
      type: 'starrocks',
      name: 'starrocks',
      host: '127.0.0.1',
      port: 3306,
      user: 'root',
      password: '',
      database: 'test',
    },
  ];
  for (const config of configs) databases[config.name] = await openDatabase(config, { projectDir: dir });
});
afterAll(async () => {
  await Promise.all(Object.values(databases).map((database) => database.close()));
  await rm(dir, { recursive: true, force: true });
});

const TABLE: Record<string, string> = {
  duckdb: 'orders',
  sqlite: 'orders',
  postgres: 'pg_catalog.pg_class',
  mysql: 'information_schema.tables',
};

describe('checkReferenceSql: planned on the real engines, no rows read', () => {
  it.each(['duckdb', 'sqlite', 'postgres', 'mysql'])(
    '%s: a valid query, a CTE and a leading comment plan',
    async (name) => {
      const database = databases[name]!;
      const table = TABLE[name]!;
      for (const sql of [
        `SELECT COUNT(*) AS n FROM ${table}`,
        `WITH t AS (SELECT * FROM ${table}) SELECT COUNT(*) AS n FROM t;`,
        `-- the count\nSELECT COUNT(*) AS n FROM ${table}`,
      ]) {
        expect(await checkReferenceSql({ sql, database })).toEqual({ status: 'valid', database: name });
      }
    },
  );

  it.each([
    ['duckdb', 'Catalog Error: Table with name no_such_table does not exist!'],
    ['sqlite', 'no such table: no_such_table'],
    ['postgres', 'relation "no_such_table" does not exist'],
    ['mysql', "Table 'test.no_such_table' doesn't exist"],
  ])('%s: a missing table is invalid, with the engine message once', async (name, engine) => {
    const check = await checkReferenceSql({
      sql: 'SELECT id FROM no_such_table',
      database: databases[name]!,
    });
    expect(check).toEqual({
      status: 'invalid',
      database: name,
      error: expect.stringContaining(
        `reference SQL failed: database "${name}" (${databases[name]!.dialect}): ${engine}`,
      ),
    });
    if (check.status === 'invalid') expect(check.error.match(/failed/g)).toHaveLength(1);
  });

  it.each(['duckdb', 'sqlite', 'postgres', 'mysql'])('%s: a syntax error is invalid', async (name) => {
    const check = await checkReferenceSql({ sql: 'SELEC id FROM orders', database: databases[name]! });
    expect(check.status).toBe('invalid');
  });

  it('does not run the query: a plan of a query that would fail at run time is valid', async () => {
    // Division by zero happens only when rows are read; EXPLAIN reads none.
    const check = await checkReferenceSql({
      sql: 'SELECT relpages / (relpages - relpages) AS x FROM pg_catalog.pg_class',
      database: databases.postgres!,
    });
    expect(check.status).toBe('valid');
  });

  it('leaves a statement that is not a query unchecked instead of guessing', async () => {
    for (const sql of ['SHOW TABLES', '-- the tables\nDESCRIBE orders', 'PRAGMA table_info(orders)']) {
      const check = await checkReferenceSql({ sql, database: databases.duckdb! });
      expect(check).toEqual({ status: 'unchecked', reason: expect.stringContaining('only a query') });
    }
  });

  it('duckdb: leaves SQL of several statements to the run, and runs none of them', async () => {
    const database = databases.duckdb!;
    // error() fails only when it runs: a check that ran the second statement would say invalid.
    // The second SQL reads a temp table its first statement makes: planned alone it is missing.
    for (const sql of [
      "SELECT 1; SELECT error('the check ran this statement')",
      'CREATE TEMP TABLE recent AS SELECT * FROM orders;\nSELECT COUNT(*) AS n FROM recent',
    ]) {
      expect(await checkReferenceSql({ sql, database })).toEqual({
        status: 'unchecked',
        reason: 'it has 2 statements; only a single statement is planned ahead of the run',
      });
    }
    // The run itself runs them all and keeps the last result.
    const run = await database.query(
      'CREATE TEMP TABLE recent AS SELECT * FROM orders;\nSELECT COUNT(*) AS n FROM recent',
      { maxRows: 10 },
    );
    expect(run.rows).toEqual([[1]]);
    // One statement, trailing semicolon and comment included, is still planned.
    for (const sql of ['SELECT COUNT(*) AS n FROM orders;', 'SELECT COUNT(*) AS n FROM orders; -- all']) {
      expect(await checkReferenceSql({ sql, database })).toEqual({ status: 'valid', database: 'duckdb' });
    }
    expect((await checkReferenceSql({ sql: 'SELEC 1; SELECT 2', database })).status).toBe('invalid');
  });

  it.each(['sqlite', 'postgres', 'mysql'])(
    '%s: SQL of several statements is invalid, as its run would fail',
    async (name) => {
      const check = await checkReferenceSql({ sql: 'SELECT 1; SELECT 2', database: databases[name]! });
      expect(check.status).toBe('invalid');
    },
  );

  it('plans on exactly the engines nao test validate opens to plan', () => {
    expect(DATABASE_TYPES.filter(plannedAhead).sort()).toEqual(['duckdb', 'mysql', 'postgres', 'sqlite']);
    for (const [type, database] of Object.entries(databases)) {
      expect(database.plan !== undefined, type).toBe(plannedAhead(type as (typeof DATABASE_TYPES)[number]));
    }
  });

  it('leaves an engine without a plan-only check unchecked, and never queries it', async () => {
    const queried: string[] = [];
    const database: Database = {
      name: 'warehouse',
      dialect: 'bigquery',
      query: async (sql) => {
        queried.push(sql);
        return { columns: [], rows: [], truncated: false };
      },
      listTables: async () => [],
      close: async () => undefined,
    };
    expect(await checkReferenceSql({ sql: 'SELECT 1', database })).toEqual({
      status: 'unchecked',
      reason: 'nao does not plan bigquery queries ahead of the run',
    });
    expect(queried).toEqual([]);
  });
});

describe('checkReferences: a whole suite', () => {
  it('keys each test by file, decides its database as validation does, and skips tests without SQL', async () => {
    const checks = await checkReferences({
      tests: [
        { relativePath: 'ok.yml', sql: 'SELECT id FROM orders', database: 'duckdb' },
        { relativePath: 'bad.yml', sql: 'SELECT nope FROM orders', database: 'sqlite' },
        { relativePath: 'judged.yml', sql: null, database: null },
        { relativePath: 'unnamed.yml', sql: 'SELECT 1', database: null },
        { relativePath: 'down.yml', sql: 'SELECT 1', database: 'offline' },
      ],
      databases: [databases.duckdb!, databases.sqlite!],
      unavailable: [{ name: 'offline', reason: 'Could not connect to database "offline"' }],
    });
    expect(Object.fromEntries(checks)).toEqual({
      'ok.yml': { status: 'valid', database: 'duckdb' },
      'bad.yml': {
        status: 'invalid',
        database: 'sqlite',
        error: 'reference SQL failed: database "sqlite" (sqlite): no such column: nope',
      },
      'unnamed.yml': {
        status: 'invalid',
        database: null,
        error:
          'database: several databases are configured (duckdb, sqlite, offline); name the one the reference SQL runs on',
      },
      'down.yml': { status: 'unchecked', reason: 'Could not connect to database "offline"' },
    });
  });
});
