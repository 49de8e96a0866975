import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { DatabaseConfig } from '../../src/config/schema.js';
import type { Database } from '../../src/warehouse/database.js';
import { openDatabase } from '../../src/warehouse/open-database.js';
import { missingPostgres, POSTGRES_SERVER } from '../local-servers.js';
import type { ConformanceEngine, EngineFixture } from './engine.js';

export interface PostgresFixture extends EngineFixture {
  schema: string;
  /** A connection of the test itself, with every right. */
  admin: pg.Client;
}

/** The suite connects as the server's superuser, which nao allows only when told (postgres-database.test.ts tries both). */
const postgresConfig = (name: string, schema: string): DatabaseConfig => ({
  type: 'postgres',
  name,
  ...POSTGRES_SERVER,
  schema,
  allow_privileged_role: true,
});

/**
 * The fixture in a schema of its own, which nao is configured with (by `configOf`: another
 * engine of the PostgreSQL family opens it as its own type); dropped by cleanup().
 */
export async function setupPostgresFixture(
  configOf: (name: string, schema: string) => DatabaseConfig = postgresConfig,
): Promise<PostgresFixture> {
  const schema = `nao_wh_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client(POSTGRES_SERVER);
  await admin.connect();
  await admin.query(`
    CREATE SCHEMA ${schema};
    SET search_path TO ${schema};
    CREATE TABLE items (id integer PRIMARY KEY, name text NOT NULL, price numeric(10,2));
    INSERT INTO items SELECT i, 'item ' || i, i * 1.25 FROM generate_series(0, 4999) AS i;
    CREATE VIEW expensive AS SELECT id, price FROM items WHERE price > 100;
    CREATE SEQUENCE counter;`);
  const open = (name: string): Promise<Database> => openDatabase(configOf(name, schema));
  return {
    db: await open('conformance'),
    schema,
    admin,
    open,
    snapshot: async () =>
      (
        await admin.query({
          rowMode: 'array',
          text: `SELECT (SELECT md5(string_agg(items::text, ',' ORDER BY id)) FROM items),
                        (SELECT string_agg(table_name, ',' ORDER BY table_name) FROM information_schema.tables
                          WHERE table_schema = $1),
                        (SELECT last_value FROM counter),
                        (SELECT string_agg(datname, ',') FROM pg_database WHERE datname LIKE 'nao\\_intruder%'),
                        (SELECT string_agg(extname, ',' ORDER BY extname) FROM pg_extension),
                        (SELECT count(*) FROM pg_db_role_setting)`,
          values: [schema],
        })
      ).rows,
    running: async (marker) =>
      (
        await admin.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE state = 'active' AND query LIKE $1 AND pid <> pg_backend_pid()",
          [`%${marker}%`],
        )
      ).rows[0]!.n,
    async cleanup() {
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.end();
    },
  };
}

/** Statements a read-only transaction refuses beyond the kinds every engine has. */
export const POSTGRES_MORE_REFUSALS = [
  "SELECT nextval('counter')",
  "DO $$ BEGIN EXECUTE 'DROP TABLE items'; END $$",
  'VACUUM items',
  'CREATE DATABASE nao_intruder',
];

/**
 * Session changes the server lets a query make, undone before the next query. PostgreSQL's
 * statement guard refuses them outright; Redshift (without the guard) runs them.
 */
export const POSTGRES_SESSION = {
  change: [
    "SET TimeZone TO 'Asia/Tokyo'",
    'SET TRANSACTION READ WRITE',
    'SET default_transaction_read_only = off',
  ],
  check: "SELECT current_setting('TimeZone') AS zone, current_setting('transaction_read_only') AS ro",
  expected: [['UTC', 'on']],
  stillRefused: "INSERT INTO items VALUES (99999, 'new', 1)",
};

/**
 * PostgreSQL as its superuser, which `allow_privileged_role` lets in: what a read-only
 * transaction would let a superuser do (`COPY … TO PROGRAM`, pg_read_file) nao's statement
 * guard refuses, tried in postgres-role.test.ts as superuser and as a SELECT-only role.
 */
export const postgresEngine: ConformanceEngine<PostgresFixture> = {
  label: 'PostgreSQL',
  dialect: 'postgres',
  missing: missingPostgres,
  setup: () => setupPostgresFixture(),
  sql: {
    values: {
      'small integer': { expression: '42', type: 'integer' },
      'integer 2^53+1': { expression: '9007199254740993::int8', type: 'bigint' },
      'smallest 64-bit integer': { expression: '(-9223372036854775807 - 1)::int8', type: 'bigint' },
      'DECIMAL(38,10)': {
        expression: "'1234567890123456789012345678.0123456789'::numeric(38,10)",
        type: 'numeric(38,10)',
      },
      'decimal keeping its scale': { expression: '12.50::numeric(5,2)', type: 'numeric(5,2)' },
      'double 0.1': { expression: '0.1::float8', type: 'double precision' },
      'single-precision 0.1': { expression: '0.1::float4', type: 'real' },
      NaN: { expression: "'NaN'::float8", type: 'double precision' },
      Infinity: { expression: "'Infinity'::float8", type: 'double precision' },
      '-Infinity': { expression: "'-Infinity'::float8", type: 'double precision' },
      'NULL of a typed column': { expression: 'NULL::integer', type: 'integer' },
      'text with accents and emoji': { expression: "'héllo 😀'::text", type: 'text' },
      true: { expression: 'true', type: 'boolean' },
      false: { expression: 'false', type: 'boolean' },
      date: { expression: "DATE '2024-01-02'", type: 'date' },
      'timestamp to the microsecond': {
        expression: "TIMESTAMP '2024-01-02 03:04:05.123456'",
        type: 'timestamp without time zone',
      },
      'timestamp on a whole second': {
        expression: "TIMESTAMP '2024-01-02 03:04:05'",
        type: 'timestamp without time zone',
      },
      'timestamp on half a second': {
        expression: "TIMESTAMP '2024-01-02 03:04:05.5'",
        type: 'timestamp without time zone',
      },
      'timestamp with time zone (+02) in UTC': {
        expression: "TIMESTAMPTZ '2024-01-02 03:04:05.123456+02'",
        type: 'timestamp with time zone',
      },
      'binary 61 62 00 ff': { expression: "'\\x616200ff'::bytea", type: 'bytea' },
    },
    refusals: {
      'data writes': [
        "INSERT INTO items VALUES (99999, 'new', 1)",
        "UPDATE items SET name = 'changed'",
        'DELETE FROM items',
      ],
      DDL: [
        'CREATE TABLE intruder (a integer)',
        'CREATE TEMP TABLE intruder (a integer)',
        'DROP TABLE items',
        'ALTER TABLE items ADD COLUMN extra integer',
        'TRUNCATE items',
        'DROP VIEW expensive',
      ],
      // PostgreSQL reaches other databases through foreign-data wrappers.
      'attaching another database': ['CREATE EXTENSION IF NOT EXISTS postgres_fdw'],
      COPY: ["COPY items FROM '/etc/hostname'", 'COPY items FROM STDIN'],
      settings: [
        "ALTER SYSTEM SET work_mem = '1GB'",
        "ALTER DATABASE test SET work_mem = '1GB'",
        "ALTER ROLE CURRENT_USER SET work_mem = '1GB'",
      ],
    },
    moreRefusals: [
      ...POSTGRES_MORE_REFUSALS,
      ...POSTGRES_SESSION.change,
      "SELECT set_config('TimeZone', 'Asia/Tokyo', false)",
    ],
    slow: (marker) => `SELECT pg_sleep(30) AS ${marker}`,
    // 5000³ rows: only a plan pulled lazily can answer before the time limit.
    endless: 'SELECT a.id FROM items a CROSS JOIN items b CROSS JOIN items c',
    memoryHungry: {
      none: 'the server bounds the memory of each sort and hash (work_mem) and spills to its own temporary files',
    },
    session: {
      none: 'nao refuses every statement that changes the session (SET, set_config): see moreRefusals',
    },
    tableTypes: { id: 'integer', name: 'text', price: 'numeric(10,2)' },
  },
  brokenTargets: [
    {
      label: 'a closed port, from separate fields',
      config: {
        type: 'postgres',
        name: 'broken',
        host: '127.0.0.1',
        port: 1,
        user: 'nao_reader',
        password: 'hunter2-secret',
        database: 'shop',
      },
      target: '127.0.0.1:1/shop as user nao_reader',
      reason: 'ECONNREFUSED',
    },
    {
      label: 'a closed port, from a url',
      config: {
        type: 'postgres',
        name: 'broken',
        url: 'postgres://nao_reader:hunter2-secret@127.0.0.1:1/shop',
      },
      target: '127.0.0.1:1/shop as user nao_reader',
      reason: 'ECONNREFUSED',
    },
    {
      label: 'a database that does not exist',
      config: {
        type: 'postgres',
        name: 'broken',
        url: 'postgresql://postgres:hunter2-secret@127.0.0.1:5432/nao_no_such_database',
      },
      target: '127.0.0.1:5432/nao_no_such_database as user postgres',
      reason: 'database "nao_no_such_database" does not exist',
    },
    {
      label: 'a schema that does not exist',
      config: {
        type: 'postgres',
        name: 'broken',
        ...POSTGRES_SERVER,
        password: 'hunter2-secret',
        schema: 'nao_no_such_schema',
      },
      target: '127.0.0.1:5432/test as user postgres',
      reason: 'schema "nao_no_such_schema" does not exist',
    },
  ],
};
