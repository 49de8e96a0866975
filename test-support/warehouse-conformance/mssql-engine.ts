/**
 * SQL Server and Microsoft Fabric against the fake TDS server of test-support (no SQL Server
 * runs on this machine): tedious runs for real over TCP, the server executes on DuckDB, and
 * nao's login is only in db_datareader, as the README asks, so writes are refused with SQL
 * Server's own permission errors.
 */

import type { DatabaseConfig } from '../../src/config/schema.js';
import { openDatabase } from '../../src/warehouse/open-database.js';
import { type FakeTdsServer, startFakeTdsServer } from '../warehouse-fakes/tds/server.js';
import type { BrokenTarget, ConformanceEngine, EngineFixture } from './engine.js';

const DATABASE = 'shop';
const READER = { user: 'nao_reader', password: 'hunter2-reader' };

async function setup(fake: FakeTdsServer, config: (name: string) => DatabaseConfig): Promise<EngineFixture> {
  await fake.admin.run(`
    CREATE TABLE items (id INTEGER PRIMARY KEY, name VARCHAR NOT NULL, price DECIMAL(10,2));
    INSERT INTO items SELECT i, 'item ' || i, i * 1.25 FROM range(5000) t(i);
    CREATE VIEW expensive AS SELECT id, price FROM items WHERE price > 100;`);
  const open = (name: string) => openDatabase(config(name));
  return {
    db: await open('conformance'),
    schema: 'dbo',
    open,
    snapshot: async () =>
      (
        await fake.admin.runAndReadAll(
          `SELECT (SELECT md5(string_agg(id || name || price, ',' ORDER BY id)) FROM dbo.items),
                  (SELECT string_agg(table_name, ',' ORDER BY table_name) FROM information_schema.tables
                    WHERE table_catalog = current_database())`,
        )
      ).getRows(),
    running: async (marker) => fake.running(marker),
    cleanup: () => fake.close(),
  };
}

const sql: ConformanceEngine['sql'] = {
  values: {
    'small integer': { expression: 'CAST(42 AS INT)', type: 'int' },
    'integer 2^53+1': { expression: 'CAST(9007199254740993 AS BIGINT)', type: 'bigint' },
    'smallest 64-bit integer': { expression: 'CAST(-9223372036854775808 AS BIGINT)', type: 'bigint' },
    'DECIMAL(38,10)': {
      expression: "CAST('1234567890123456789012345678.0123456789' AS DECIMAL(38,10))",
      type: 'decimal(38,10)',
    },
    'decimal keeping its scale': { expression: 'CAST(12.50 AS DECIMAL(5,2))', type: 'decimal(5,2)' },
    'double 0.1': { expression: 'CAST(0.1 AS FLOAT)', type: 'float' },
    'single-precision 0.1': { expression: 'CAST(0.1 AS REAL)', type: 'real' },
    NaN: { none: 'SQL Server floats have no NaN' },
    Infinity: { none: 'SQL Server floats have no infinities' },
    '-Infinity': { none: 'SQL Server floats have no infinities' },
    'NULL of a typed column': { expression: 'CAST(NULL AS INT)', type: 'int' },
    'text with accents and emoji': {
      expression: "CAST(N'héllo 😀' AS NVARCHAR(4000))",
      type: 'nvarchar(4000)',
    },
    true: { expression: 'CAST(1 AS BIT)', type: 'bit' },
    false: { expression: 'CAST(0 AS BIT)', type: 'bit' },
    date: { expression: "CAST('2024-01-02' AS DATE)", type: 'date' },
    'timestamp to the microsecond': {
      expression: "CAST('2024-01-02 03:04:05.123456' AS DATETIME2(6))",
      type: 'datetime2(6)',
    },
    'timestamp on a whole second': {
      expression: "CAST('2024-01-02 03:04:05' AS DATETIME2(6))",
      type: 'datetime2(6)',
    },
    'timestamp on half a second': {
      expression: "CAST('2024-01-02 03:04:05.5' AS DATETIME2(6))",
      type: 'datetime2(6)',
    },
    'timestamp with time zone (+02) in UTC': {
      expression: "CAST('2024-01-02 03:04:05.123456+02:00' AS DATETIMEOFFSET(6))",
      type: 'datetimeoffset(6)',
    },
    'binary 61 62 00 ff': { expression: 'CAST(0x616200FF AS VARBINARY(8000))', type: 'varbinary(8000)' },
  },
  refusals: {
    'data writes': [
      "INSERT INTO items VALUES (99999, N'new', 1)",
      "UPDATE items SET name = N'changed'",
      'DELETE FROM items',
    ],
    DDL: [
      'CREATE TABLE intruder (a INT)',
      'DROP TABLE items',
      'ALTER TABLE items ADD extra INT',
      'TRUNCATE TABLE items',
      'DROP VIEW expensive',
      'CREATE VIEW intruder AS SELECT 1 AS a',
      'SELECT * INTO intruder FROM items',
    ],
    'attaching another database': ["EXEC sp_addlinkedserver @server = N'nao_intruder'"],
    COPY: ["BULK INSERT items FROM '/etc/hostname'"],
    settings: [
      "EXEC sp_configure 'show advanced options', 1",
      'RECONFIGURE',
      `ALTER DATABASE ${DATABASE} SET ALLOW_SNAPSHOT_ISOLATION OFF`,
    ],
  },
  // What a rollback could not undo: a COMMIT of nao's transaction after a write, another database, a shell.
  moreRefusals: [
    "INSERT INTO items VALUES (99999, N'new', 1); COMMIT",
    'CREATE DATABASE nao_intruder',
    "EXEC xp_cmdshell 'touch /tmp/nao_intruder'",
  ],
  slow: (marker) => `WAITFOR DELAY '00:00:30'; SELECT 1 AS ${marker}`,
  endless: 'SELECT a.id FROM items a CROSS JOIN items b CROSS JOIN items c',
  memoryHungry: {
    none: 'the server grants each query its memory and spills to tempdb; nao has no per-query limit to set',
  },
  session: {
    // A query that ends nao's transaction and loosens the session: the next one is in nao's transaction again.
    change: ['SET TRANSACTION ISOLATION LEVEL READ UNCOMMITTED', 'SET IMPLICIT_TRANSACTIONS ON', 'COMMIT'],
    check: 'SELECT @@TRANCOUNT AS open_transactions',
    expected: [[1]],
    stillRefused: "INSERT INTO items VALUES (99999, N'new', 1)",
  },
  tableTypes: { id: 'int', name: 'nvarchar(max)', price: 'decimal(10,2)' },
};

const TLS = { encrypt: false, trust_server_certificate: false };

function brokenTargets(type: 'mssql' | 'fabric', port: number): BrokenTarget[] {
  const at = {
    name: 'broken',
    host: '127.0.0.1',
    ...TLS,
    ...(type === 'fabric' ? { auth_mode: 'sql_password' } : {}),
  };
  const targets: BrokenTarget[] = [
    {
      label: 'a closed port',
      config: {
        type,
        ...at,
        port: 1,
        database: DATABASE,
        user: 'nao_reader',
        password: 'hunter2-secret',
      } as DatabaseConfig,
      target: `127.0.0.1:1/${DATABASE} as user nao_reader`,
      reason: 'ECONNREFUSED',
    },
    {
      label: 'a wrong password',
      config: {
        type,
        ...at,
        port,
        database: DATABASE,
        user: 'nao_reader',
        password: 'hunter2-wrong',
      } as DatabaseConfig,
      target: `127.0.0.1:${port}/${DATABASE} as user nao_reader`,
      reason: "Login failed for user 'nao_reader'",
    },
    {
      label: 'a database that does not exist',
      config: { type, ...at, port, database: 'nao_no_such_database', ...READER } as DatabaseConfig,
      target: `127.0.0.1:${port}/nao_no_such_database as user nao_reader`,
      reason: 'Cannot open database "nao_no_such_database"',
    },
  ];
  if (type === 'fabric') {
    targets.push({
      label: 'a service principal without tenant',
      config: {
        type,
        ...at,
        port,
        database: DATABASE,
        auth_mode: 'azure_service_principal',
        client_id: 'nao-app',
        client_secret: 'hunter2-secret',
      } as DatabaseConfig,
      target: `127.0.0.1:${port}/${DATABASE} as user nao-app`,
      reason: 'needs `tenant_id`',
    });
  }
  return targets;
}

async function tdsEngine(type: 'mssql' | 'fabric', label: string): Promise<ConformanceEngine> {
  const fake = await startFakeTdsServer({
    database: DATABASE,
    logins: { [READER.user]: { password: READER.password, role: 'reader' } },
  });
  const auth = type === 'fabric' ? { auth_mode: 'sql_password' } : {};
  const config = (name: string) =>
    ({
      type,
      name,
      host: '127.0.0.1',
      port: fake.port,
      database: DATABASE,
      ...READER,
      ...TLS,
      ...auth,
    }) as DatabaseConfig;
  return {
    label,
    dialect: type,
    missing: async () => undefined,
    setup: () => setup(fake, config),
    sql,
    brokenTargets: brokenTargets(type, fake.port),
  };
}

/** SQL Server; the fake server listens from import on, and the fixture's cleanup stops it. */
export const mssqlEngine = await tdsEngine('mssql', 'SQL Server (fake TDS server)');

/** Fabric's SQL endpoint speaks the same TDS; what differs is the configuration (auth modes). */
export const fabricEngine = await tdsEngine('fabric', 'Microsoft Fabric (fake TDS server)');
