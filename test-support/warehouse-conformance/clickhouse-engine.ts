import { randomBytes } from 'node:crypto';
import { type ClickHouseClient, ClickHouseLogLevel, createClient } from '@clickhouse/client';
import type { DatabaseConfig } from '../../src/config/schema.js';
import type { Database } from '../../src/warehouse/database.js';
import { openDatabase } from '../../src/warehouse/open-database.js';
import type { ConformanceEngine, EngineFixture } from './engine.js';

/**
 * A real ClickHouse server on this machine (test-support/warehouse-fakes/clickhouse/start-server.sh
 * starts one: the Debian package, 18.16), reached over its HTTP interface.
 */
export const CLICKHOUSE_SERVER = { host: '127.0.0.1', port: 8123, user: 'default', password: '' };

export interface ClickHouseFixture extends EngineFixture {
  /** The fixture's own database, which nao is configured with. */
  schema: string;
  /** A client of the test itself, without readonly. */
  admin: ClickHouseClient;
  /** Rows of an admin query, as JSON objects. */
  adminRows(query: string): Promise<Record<string, unknown>[]>;
}

type ClickHouseConfig = Extract<DatabaseConfig, { type: 'clickhouse' }>;

/** An entry as the config schema outputs it, defaults filled. */
export function clickhouseConfig(fields: Partial<ClickHouseConfig> & { name: string; database: string }) {
  return {
    type: 'clickhouse',
    ...CLICKHOUSE_SERVER,
    protocol: 'http',
    secure: false,
    verify: true,
    ...fields,
  } satisfies ClickHouseConfig;
}

function adminClient(): ClickHouseClient {
  return createClient({
    url: `http://${CLICKHOUSE_SERVER.host}:${CLICKHOUSE_SERVER.port}`,
    username: CLICKHOUSE_SERVER.user,
    password: CLICKHOUSE_SERVER.password,
    log: { level: ClickHouseLogLevel.OFF },
  });
}

async function missing(): Promise<string | undefined> {
  const client = adminClient();
  try {
    const ping = await client.ping();
    return ping.success
      ? undefined
      : `no ClickHouse server at ${CLICKHOUSE_SERVER.host}:${CLICKHOUSE_SERVER.port}`;
  } finally {
    await client.close();
  }
}

/** The fixture in a database of its own (MergeTree table, view), dropped by cleanup(). */
async function setup(): Promise<ClickHouseFixture> {
  const schema = `nao_wh_${randomBytes(4).toString('hex')}`;
  const admin = adminClient();
  for (const statement of [
    `CREATE DATABASE ${schema}`,
    `CREATE TABLE ${schema}.items (id Int32, name String, price Decimal(10, 2)) ENGINE = MergeTree ORDER BY id`,
    `INSERT INTO ${schema}.items SELECT toInt32(number), concat('item ', toString(number)), toDecimal32(number * 1.25, 2) FROM numbers(5000)`,
    `CREATE VIEW ${schema}.expensive AS SELECT id, price FROM ${schema}.items WHERE price > 100`,
  ]) {
    await admin.command({ query: statement });
  }
  const adminRows = async (query: string) =>
    (await (await admin.query({ query, format: 'JSONEachRow' })).json()) as Record<string, unknown>[];
  const open = (name: string, options?: { memoryLimit?: string }): Promise<Database> =>
    openDatabase(clickhouseConfig({ name, database: schema }), options);
  return {
    db: await open('conformance'),
    schema,
    admin,
    adminRows,
    open,
    snapshot: async () => [
      await adminRows(
        `SELECT count() AS n, sum(id) AS ids, sum(length(name)) AS names, toString(sum(price)) AS prices FROM ${schema}.items`,
      ),
      await adminRows(`SELECT name, engine FROM system.tables WHERE database = '${schema}' ORDER BY name`),
      await adminRows("SELECT name FROM system.databases WHERE name LIKE 'nao_intruder%'"),
      await adminRows(`SELECT count() AS n FROM system.mutations WHERE database = '${schema}'`),
    ],
    running: async (marker) =>
      Number(
        (
          await adminRows(
            `SELECT count() AS n FROM system.processes WHERE query LIKE '%${marker}%' AND query NOT LIKE '%system.processes%'`,
          )
        )[0]?.n,
      ),
    async cleanup() {
      await admin.command({ query: `DROP DATABASE IF EXISTS ${schema}` });
      await admin.close();
    },
  };
}

/** Types ClickHouse 18.16 (this machine's) does not have; newer servers do, and the converters read them (clickhouse-value.test.ts). */
const NO_DATETIME64 =
  'DateTime64 (sub-second timestamps) came with ClickHouse 20.1; the server here is 18.16';
const NO_BOOL = 'Bool came with ClickHouse 21.12; on 18.16 a comparison gives UInt8 1 or 0';

/**
 * ClickHouse under `readonly=1` (clickhouse-database.ts). What the server still allows: `KILL
 * QUERY` of the same user's queries, so nao's user should be its own.
 */
export const clickhouseEngine: ConformanceEngine<ClickHouseFixture> = {
  label: 'ClickHouse',
  dialect: 'clickhouse',
  missing,
  setup,
  sql: {
    values: {
      'small integer': { expression: 'toInt32(42)', type: 'Int32' },
      'integer 2^53+1': { expression: 'toInt64(9007199254740993)', type: 'Int64' },
      'smallest 64-bit integer': { expression: 'toInt64(-9223372036854775808)', type: 'Int64' },
      'DECIMAL(38,10)': {
        expression: "toDecimal128('1234567890123456789012345678.0123456789', 10)",
        type: 'Decimal(38, 10)',
      },
      'decimal keeping its scale': { expression: "toDecimal32('12.50', 2)", type: 'Decimal(9, 2)' },
      'double 0.1': { expression: 'toFloat64(0.1)', type: 'Float64' },
      'single-precision 0.1': { expression: 'toFloat32(0.1)', type: 'Float32' },
      NaN: { expression: 'nan', type: 'Float64' },
      Infinity: { expression: 'inf', type: 'Float64' },
      '-Infinity': { expression: '-inf', type: 'Float64' },
      'NULL of a typed column': { expression: 'CAST(NULL AS Nullable(Int32))', type: 'Nullable(Int32)' },
      'text with accents and emoji': { expression: "'héllo 😀'", type: 'String' },
      true: { none: NO_BOOL },
      false: { none: NO_BOOL },
      date: { expression: "toDate('2024-01-02')", type: 'Date' },
      'timestamp to the microsecond': { none: NO_DATETIME64 },
      // A DateTime without a zone is the server's wall-clock time, kept as ClickHouse prints it.
      'timestamp on a whole second': { expression: "toDateTime('2024-01-02 03:04:05')", type: 'DateTime' },
      'timestamp on half a second': { none: NO_DATETIME64 },
      'timestamp with time zone (+02) in UTC': { none: NO_DATETIME64 },
      // ClickHouse strings are bytes: one that is not UTF-8 is binary data.
      'binary 61 62 00 ff': { expression: "unhex('616200ff')", type: 'String' },
    },
    refusals: {
      'data writes': [
        "INSERT INTO items VALUES (99999, 'new', 1)",
        "ALTER TABLE items UPDATE name = 'changed' WHERE 1",
        'ALTER TABLE items DELETE WHERE 1',
      ],
      DDL: [
        'CREATE TABLE intruder (a Int32) ENGINE = Memory',
        'CREATE TEMPORARY TABLE intruder (a Int32)',
        'DROP TABLE items',
        'ALTER TABLE items ADD COLUMN extra Int32',
        'TRUNCATE TABLE items',
        'DROP TABLE expensive',
        'RENAME TABLE items TO renamed',
        'CREATE DATABASE nao_intruder',
      ],
      // Other servers and databases are reached through table functions, all refused under readonly=1.
      'attaching another database': [
        "SELECT * FROM remote('127.0.0.1', system.one)",
        "SELECT * FROM mysql('127.0.0.1:3306', 'test', 't', 'root', '')",
      ],
      COPY: [
        "SELECT * FROM file('/etc/hostname', 'TSV', 'line String')",
        "INSERT INTO items SELECT * FROM url('http://127.0.0.1:8123/?query=SELECT+1', 'TSV', 'id Int32')",
      ],
      settings: ['SET readonly = 0', 'SELECT 1 SETTINGS readonly = 0', 'SET max_memory_usage = 0'],
    },
    moreRefusals: ['OPTIMIZE TABLE items', 'SYSTEM DROP DNS CACHE', 'DETACH TABLE items'],
    slow: (marker) => `SELECT sum(number) AS ${marker} FROM system.numbers`,
    endless: 'SELECT number FROM system.numbers',
    memoryHungry:
      'SELECT count(DISTINCT number) AS n FROM (SELECT number FROM system.numbers LIMIT 300000000)',
    session: {
      // readonly=1 refuses every SET (see `settings` above) and nao sends no session_id, so no
      // statement can change what the next query runs with: nothing to change here.
      change: [],
      check: "SELECT name, value FROM system.settings WHERE name = 'readonly'",
      expected: [['readonly', '1']],
      stillRefused: "INSERT INTO items VALUES (99999, 'new', 1)",
    },
    tableTypes: { id: 'Int32', name: 'String', price: 'Decimal(10, 2)' },
  },
  brokenTargets: [
    {
      label: 'a closed port',
      config: clickhouseConfig({
        name: 'broken',
        port: 1,
        user: 'nao_reader',
        password: 'hunter2-secret',
        database: 'shop',
      }),
      target: '127.0.0.1:1/shop as user nao_reader',
      reason: 'ECONNREFUSED',
    },
    {
      label: 'a wrong password',
      config: clickhouseConfig({ name: 'broken', password: 'hunter2-secret', database: 'default' }),
      target: '127.0.0.1:8123/default as user default',
      reason: 'password',
    },
    {
      label: 'a database that does not exist',
      config: clickhouseConfig({ name: 'broken', database: 'nao_no_such_database' }),
      target: '127.0.0.1:8123/nao_no_such_database as user default',
      reason: "nao_no_such_database doesn't exist",
    },
    {
      label: 'the native protocol',
      config: clickhouseConfig({
        name: 'broken',
        protocol: 'native',
        port: undefined,
        database: 'shop',
        password: 'hunter2-secret',
      }),
      target: '127.0.0.1:9000/shop as user default',
      reason: 'HTTP interface only',
    },
  ],
};
