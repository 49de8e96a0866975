import { openDatabricksDatabase } from '../../src/warehouse/databricks/databricks-database.js';
import { type FakeDatabricks, startFakeDatabricks } from '../warehouse-fakes/databricks/fake-databricks.js';
import type { ConformanceEngine, EngineFixture } from './engine.js';

/** The fixture's schema; each fixture has a fake warehouse of its own, so the name is fixed. */
const SCHEMA = 'conformance';

export interface DatabricksFixture extends EngineFixture {
  warehouse: FakeDatabricks;
}

/** The fixture in a fake warehouse of ours (no Databricks can run here), which nao trusts by its certificate. */
async function setup(): Promise<DatabricksFixture> {
  const warehouse = await startFakeDatabricks();
  await warehouse.admin(`
    CREATE SCHEMA ${SCHEMA};
    USE ${warehouse.catalog}.${SCHEMA};
    CREATE TABLE items (id INTEGER PRIMARY KEY, name VARCHAR NOT NULL, price DECIMAL(10,2));
    INSERT INTO items SELECT i, 'item ' || i, i * 1.25 FROM range(5000) AS t(i);
    CREATE VIEW expensive AS SELECT id, price FROM items WHERE price > 100;`);
  const open = (name: string) =>
    openDatabricksDatabase(
      {
        type: 'databricks',
        name,
        server_hostname: warehouse.hostname,
        http_path: warehouse.httpPath,
        access_token: warehouse.token,
        catalog: warehouse.catalog,
        schema_name: SCHEMA,
      },
      { customCaCert: warehouse.certificate },
    );
  return {
    db: await open('conformance'),
    schema: SCHEMA,
    warehouse,
    open,
    snapshot: () =>
      warehouse.admin(`
        SELECT (SELECT md5(string_agg(id || ',' || name || ',' || price, ';' ORDER BY id)) FROM ${SCHEMA}.items),
               (SELECT string_agg(schema_name || '.' || table_name, ',' ORDER BY schema_name, table_name)
                  FROM duckdb_tables() WHERE database_name = '${warehouse.catalog}'),
               (SELECT string_agg(column_name, ',' ORDER BY column_index) FROM duckdb_columns()
                  WHERE database_name = '${warehouse.catalog}' AND table_name = 'items'),
               (SELECT string_agg(view_name, ',' ORDER BY view_name) FROM duckdb_views()
                  WHERE database_name = '${warehouse.catalog}')`),
    running: async (marker) => warehouse.running(marker),
    cleanup: () => warehouse.close(),
  };
}

/**
 * Databricks SQL as the fake warehouse runs it (Spark SQL where DuckDB agrees). Column types
 * are the protocol's TTypeIds, as Databricks names them.
 */
export const databricksEngine: ConformanceEngine<DatabricksFixture> = {
  label: 'Databricks (fake TCLIService warehouse)',
  dialect: 'databricks',
  missing: async () => undefined,
  setup,
  sql: {
    values: {
      'small integer': { expression: '42', type: 'INT' },
      'integer 2^53+1': { expression: 'CAST(9007199254740993 AS BIGINT)', type: 'BIGINT' },
      'smallest 64-bit integer': { expression: 'CAST(-9223372036854775807 - 1 AS BIGINT)', type: 'BIGINT' },
      'DECIMAL(38,10)': {
        expression: "CAST('1234567890123456789012345678.0123456789' AS DECIMAL(38,10))",
        type: 'DECIMAL(38,10)',
      },
      'decimal keeping its scale': { expression: 'CAST(12.50 AS DECIMAL(5,2))', type: 'DECIMAL(5,2)' },
      'double 0.1': { expression: 'CAST(0.1 AS DOUBLE)', type: 'DOUBLE' },
      'single-precision 0.1': { expression: 'CAST(0.1 AS FLOAT)', type: 'FLOAT' },
      NaN: { expression: "CAST('NaN' AS DOUBLE)", type: 'DOUBLE' },
      Infinity: { expression: "CAST('Infinity' AS DOUBLE)", type: 'DOUBLE' },
      '-Infinity': { expression: "CAST('-Infinity' AS DOUBLE)", type: 'DOUBLE' },
      'NULL of a typed column': { expression: 'CAST(NULL AS INT)', type: 'INT' },
      'text with accents and emoji': { expression: "'héllo 😀'", type: 'STRING' },
      true: { expression: 'true', type: 'BOOLEAN' },
      false: { expression: 'false', type: 'BOOLEAN' },
      date: { expression: "DATE '2024-01-02'", type: 'DATE' },
      // TIMESTAMP_NTZ travels with TIMESTAMP's type id (TIMESTAMP_TYPE), so nao reads every
      // timestamp as Databricks' default TIMESTAMP: an instant, in UTC, with Z.
      'timestamp to the microsecond': {
        none: 'TIMESTAMP_NTZ has TIMESTAMP’s type id on the wire; nao gives every timestamp as an instant (Z)',
      },
      'timestamp on a whole second': {
        none: 'TIMESTAMP_NTZ has TIMESTAMP’s type id on the wire; nao gives every timestamp as an instant (Z)',
      },
      'timestamp on half a second': {
        none: 'TIMESTAMP_NTZ has TIMESTAMP’s type id on the wire; nao gives every timestamp as an instant (Z)',
      },
      'timestamp with time zone (+02) in UTC': {
        expression: "TIMESTAMP '2024-01-02 03:04:05.123456+02:00'",
        type: 'TIMESTAMP',
      },
      'binary 61 62 00 ff': { expression: "unhex('616200ff')", type: 'BINARY' },
    },
    refusals: {
      'data writes': [
        "INSERT INTO items VALUES (99999, 'new', 1)",
        "UPDATE items SET name = 'changed'",
        'DELETE FROM items',
        "WITH c AS (SELECT 99999 AS id) INSERT INTO items SELECT id, 'new', 1 FROM c",
        "MERGE INTO items USING (SELECT 1 AS id) AS s ON items.id = s.id WHEN MATCHED THEN UPDATE SET name = 'x'",
      ],
      DDL: [
        'CREATE TABLE intruder (a INT)',
        'CREATE VIEW intruder AS SELECT 1 AS a',
        'DROP TABLE items',
        'ALTER TABLE items ADD COLUMN extra INT',
        'TRUNCATE TABLE items',
        'DROP VIEW expensive',
      ],
      // Databricks reaches other databases through Unity Catalog connections and foreign catalogs.
      'attaching another database': [
        "CREATE CONNECTION intruder TYPE postgresql OPTIONS (host 'localhost', port '5432', user 'u', password 'p')",
        "CREATE FOREIGN CATALOG intruder USING CONNECTION pg OPTIONS (database 'shop')",
      ],
      COPY: ["COPY INTO items FROM '/Volumes/main/default/landing' FILEFORMAT = CSV"],
      settings: [
        "SET TIME ZONE 'Asia/Tokyo'",
        'SET ansi_mode = false',
        `USE ${SCHEMA}`,
        "ALTER TABLE items SET TBLPROPERTIES ('delta.appendOnly' = 'true')",
      ],
    },
    moreRefusals: ['OPTIMIZE items', 'GRANT SELECT ON TABLE items TO `someone@example.com`'],
    slow: (marker) => `SELECT count(*) AS ${marker} FROM range(100000000000)`,
    endless: 'SELECT a.id FROM items a CROSS JOIN items b CROSS JOIN items c',
    memoryHungry: {
      none: 'the warehouse bounds the memory of its own queries (and spills to its own storage)',
    },
    session: {
      // SET and USE are refused (not queries), and every query has a session of its own anyway.
      change: [],
      check: 'SELECT current_schema() AS s',
      expected: [[SCHEMA]],
      stillRefused: "INSERT INTO items VALUES (99999, 'new', 1)",
    },
    tableTypes: { id: 'INT', name: 'STRING', price: 'DECIMAL(10,2)' },
  },
  brokenTargets: [
    {
      label: 'a closed port',
      config: {
        type: 'databricks',
        name: 'broken',
        server_hostname: '127.0.0.1:1',
        http_path: '/sql/1.0/warehouses/abc123',
        access_token: 'dapi-hunter2-secret',
      },
      target: '127.0.0.1:1/sql/1.0/warehouses/abc123',
      reason: 'ECONNREFUSED',
    },
    {
      label: 'a host that does not resolve',
      config: {
        type: 'databricks',
        name: 'broken',
        server_hostname: 'https://nao-no-such-workspace.invalid/',
        http_path: 'sql/1.0/warehouses/abc123',
        access_token: 'dapi-hunter2-secret',
      },
      target: 'nao-no-such-workspace.invalid/sql/1.0/warehouses/abc123',
      reason: 'ENOTFOUND',
    },
  ],
};
