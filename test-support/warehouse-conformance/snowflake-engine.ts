import type { Database } from '../../src/warehouse/database.js';
import { openDatabase } from '../../src/warehouse/open-database.js';
import { startFakeSnowflake } from '../warehouse-fakes/snowflake/fake-snowflake.js';
import { toDuckDbSql } from '../warehouse-fakes/snowflake/snowflake-sql.js';
import type { ConformanceEngine, EngineFixture } from './engine.js';

const USER = 'nao_reader';
const PASSWORD = 'fake-password';
const DATABASE = 'NAO_DB';
const SCHEMA = 'CONFORMANCE';

// Started with the module, so the broken targets below can name its port.
const fake = await startFakeSnowflake({ user: USER, password: PASSWORD, database: DATABASE, schema: SCHEMA });

/**
 * The fixture in the fake account of test-support/warehouse-fakes/snowflake (Snowflake's REST
 * protocol over DuckDB): snowflake-sdk runs for real against it, over http on 127.0.0.1.
 */
async function setup(): Promise<EngineFixture> {
  await fake.admin.run(
    toDuckDbSql(`
      SET search_path = '${SCHEMA}';
      CREATE TABLE items (id NUMBER(38,0), name VARCHAR NOT NULL, price NUMBER(10,2));
      INSERT INTO items SELECT range, 'item ' || range, range * 1.25 FROM TABLE(GENERATOR(ROWCOUNT => 5000));
      CREATE VIEW expensive AS SELECT id, price FROM items WHERE price > 100;`),
  );
  const open = (name: string): Promise<Database> =>
    openDatabase({
      type: 'snowflake',
      name,
      account_id: 'nao-fake',
      username: USER,
      password: PASSWORD,
      database: DATABASE,
      schema: SCHEMA,
      host: '127.0.0.1',
      port: fake.port,
      protocol: 'http',
    });
  return {
    db: await open('conformance'),
    schema: SCHEMA,
    open,
    snapshot: async () =>
      (
        await fake.admin.run(
          `SELECT (SELECT md5(string_agg(id || name || price, ',' ORDER BY id)) FROM "${SCHEMA}".items),
                  (SELECT string_agg(table_schema || '.' || table_name, ',' ORDER BY table_schema, table_name)
                     FROM information_schema.tables),
                  (SELECT string_agg(database_name, ',' ORDER BY database_name) FROM duckdb_databases())`,
        )
      ).getRows(),
    running: async (marker) => fake.running(marker),
    cleanup: () => fake.close(),
  };
}

const DOUBLE_ONLY = "Snowflake's FLOAT, REAL and DOUBLE are all double precision";

/** An account nao cannot use, reached at `where`; its password must never show. */
function brokenAccount(where: { host: string; port?: number; protocol?: 'http' }) {
  return {
    type: 'snowflake' as const,
    name: 'broken',
    account_id: 'acme',
    username: USER,
    password: 'hunter2-secret',
    database: DATABASE,
    ...where,
  };
}

/**
 * What the statement-type check does not refuse, so nao's role should not be allowed it:
 * functions with effects called from a query (SYSTEM$CANCEL_ALL_QUERIES, SYSTEM$ABORT_SESSION,
 * external functions).
 */
export const snowflakeEngine: ConformanceEngine = {
  label: 'Snowflake (fake account)',
  dialect: 'snowflake',
  missing: async () => undefined,
  setup,
  sql: {
    values: {
      'small integer': { expression: 'CAST(42 AS NUMBER(38,0))', type: 'NUMBER(38,0)' },
      'integer 2^53+1': { expression: 'CAST(9007199254740993 AS NUMBER(38,0))', type: 'NUMBER(38,0)' },
      'smallest 64-bit integer': {
        expression: 'CAST(-9223372036854775808 AS NUMBER(38,0))',
        type: 'NUMBER(38,0)',
      },
      'DECIMAL(38,10)': {
        expression: "CAST('1234567890123456789012345678.0123456789' AS NUMBER(38,10))",
        type: 'NUMBER(38,10)',
      },
      'decimal keeping its scale': { expression: "CAST('12.50' AS NUMBER(5,2))", type: 'NUMBER(5,2)' },
      'double 0.1': { expression: 'CAST(0.1 AS DOUBLE)', type: 'FLOAT' },
      'single-precision 0.1': { none: DOUBLE_ONLY },
      NaN: { expression: "CAST('NaN' AS DOUBLE)", type: 'FLOAT' },
      Infinity: { expression: "CAST('inf' AS DOUBLE)", type: 'FLOAT' },
      '-Infinity': { expression: "CAST('-inf' AS DOUBLE)", type: 'FLOAT' },
      'NULL of a typed column': { expression: 'CAST(NULL AS NUMBER(38,0))', type: 'NUMBER(38,0)' },
      'text with accents and emoji': { expression: "'héllo 😀'", type: 'VARCHAR' },
      true: { expression: 'TRUE', type: 'BOOLEAN' },
      false: { expression: 'FALSE', type: 'BOOLEAN' },
      date: { expression: "DATE '2024-01-02'", type: 'DATE' },
      'timestamp to the microsecond': {
        expression: "CAST('2024-01-02 03:04:05.123456' AS TIMESTAMP_NTZ(6))",
        type: 'TIMESTAMP_NTZ(6)',
      },
      'timestamp on a whole second': {
        expression: "CAST('2024-01-02 03:04:05' AS TIMESTAMP_NTZ(6))",
        type: 'TIMESTAMP_NTZ(6)',
      },
      'timestamp on half a second': {
        expression: "CAST('2024-01-02 03:04:05.5' AS TIMESTAMP_NTZ(6))",
        type: 'TIMESTAMP_NTZ(6)',
      },
      'timestamp with time zone (+02) in UTC': {
        expression: "CAST('2024-01-02 03:04:05.123456+02:00' AS TIMESTAMP_TZ(6))",
        type: 'TIMESTAMP_TZ(6)',
      },
      'binary 61 62 00 ff': { expression: "TO_BINARY('616200ff', 'HEX')", type: 'BINARY' },
    },
    refusals: {
      'data writes': [
        "INSERT INTO items VALUES (99999, 'new', 1)",
        "UPDATE items SET name = 'changed'",
        'DELETE FROM items',
        "MERGE INTO items USING (SELECT 1 AS id) s ON items.id = s.id WHEN MATCHED THEN UPDATE SET name = 'merged'",
      ],
      DDL: [
        'CREATE TABLE intruder (a INT)',
        'CREATE TEMPORARY TABLE intruder (a INT)',
        'CREATE TABLE intruder AS SELECT * FROM items',
        'DROP TABLE items',
        'ALTER TABLE items ADD COLUMN extra INT',
        'TRUNCATE TABLE items',
        'DROP VIEW expensive',
        'ALTER TABLE items RENAME TO renamed',
      ],
      // Snowflake reaches other data through shares and external stages.
      'attaching another database': [
        'CREATE DATABASE nao_intruder',
        "CREATE STAGE nao_intruder URL = 's3://bucket/path'",
      ],
      COPY: [
        "COPY INTO items FROM @~/staged FILE_FORMAT = (TYPE = 'CSV')",
        'COPY INTO @~/unloaded FROM items',
      ],
      settings: ["ALTER SESSION SET TIMEZONE = 'Europe/Paris'", 'USE SCHEMA information_schema'],
    },
    moreRefusals: [
      'BEGIN',
      'COMMIT',
      'CALL SYSTEM$WAIT(1)',
      "PUT 'file:///etc/hostname' @~",
      'GET @~/unloaded file:///tmp/',
      'GRANT SELECT ON TABLE items TO ROLE PUBLIC',
      // A second statement after a read: one statement per request.
      'SELECT 1; DROP TABLE items',
    ],
    slow: (marker) =>
      `SELECT COUNT(*) AS ${marker} FROM TABLE(GENERATOR(ROWCOUNT => 1000000)) a CROSS JOIN TABLE(GENERATOR(ROWCOUNT => 1000000)) b WHERE RANDOM() < 0`,
    endless: 'SELECT a.id FROM items a CROSS JOIN items b CROSS JOIN items c',
    memoryHungry: {
      none: "a Snowflake warehouse's memory is the account's to bound (it spills to storage); nao has no setting for it",
    },
    // Nothing nao lets run (SELECT, SHOW, DESCRIBE) changes a session: ALTER SESSION and USE
    // are refused by their statement type (settings, above).
    session: {
      change: [],
      check: 'SELECT COUNT(*) AS n FROM items',
      expected: [[5000]],
      stillRefused: "INSERT INTO items VALUES (99999, 'new', 1)",
    },
    // The fake's catalog is DuckDB's: a real account names them NUMBER(38,0), TEXT, NUMBER(10,2).
    tableTypes: { id: 'DECIMAL(38,0)', name: 'VARCHAR', price: 'DECIMAL(10,2)' },
  },
  brokenTargets: [
    {
      label: 'a closed port',
      config: brokenAccount({ host: '127.0.0.1', port: 1, protocol: 'http' }),
      target: `127.0.0.1:1/${DATABASE} as user ${USER}`,
      reason: 'ECONNREFUSED',
    },
    {
      label: 'an account host that does not resolve',
      config: brokenAccount({ host: 'nao-no-such-account.invalid' }),
      target: `nao-no-such-account.invalid:443/${DATABASE} as user ${USER}`,
      reason: 'ENOTFOUND',
    },
    {
      label: 'a wrong password',
      config: brokenAccount({ host: '127.0.0.1', port: fake.port, protocol: 'http' }),
      target: `127.0.0.1:${fake.port}/${DATABASE} as user ${USER}`,
      reason: 'Incorrect username or password was specified',
    },
  ],
};
