import { DEFAULT_MAXIMUM_BYTES_BILLED } from '../../src/warehouse/bigquery/bigquery-config.js';
import type { Database } from '../../src/warehouse/database.js';
import { openDatabase } from '../../src/warehouse/open-database.js';
import { type FakeBigQuery, startFakeBigQuery } from '../warehouse-fakes/bigquery/fake-bigquery.js';
import type { ConformanceEngine, EngineFixture } from './engine.js';

const PROJECT = 'nao-conformance';
const DATASET = 'nao_conformance';

export interface BigQueryFixture extends EngineFixture {
  /** The fixture's dataset, nao's `dataset_id`. */
  schema: string;
  fake: FakeBigQuery;
}

/**
 * The fixture in a dataset of a fake BigQuery (test-support/warehouse-fakes/bigquery): the
 * real @google-cloud/bigquery client talks REST to it, and DuckDB runs the SQL.
 */
async function setup(): Promise<BigQueryFixture> {
  const fake = await startFakeBigQuery({ projectId: PROJECT });
  // Each fake is a DuckDB of its own, so the dataset's name can be fixed, and named in refusals.
  const schema = DATASET;
  await fake.admin.run(`
    CREATE SCHEMA ${schema};
    CREATE TABLE ${schema}.items (id INTEGER PRIMARY KEY, name VARCHAR NOT NULL, price DECIMAL(10,2));
    INSERT INTO ${schema}.items SELECT i, 'item ' || i, i * 1.25 FROM range(5000) t(i);
    CREATE VIEW ${schema}.expensive AS SELECT id, price FROM ${schema}.items WHERE price > 100;`);
  const open = (name: string): Promise<Database> =>
    openDatabase({
      type: 'bigquery',
      name,
      project_id: PROJECT,
      dataset_id: schema,
      api_endpoint: fake.url,
      maximum_bytes_billed: DEFAULT_MAXIMUM_BYTES_BILLED,
    });
  return {
    db: await open('conformance'),
    schema,
    fake,
    open,
    snapshot: async () =>
      (
        await fake.admin.runAndReadAll(
          `SELECT (SELECT md5(string_agg(id || name || price, ',' ORDER BY id)) FROM ${schema}.items),
                  (SELECT string_agg(schema_name || '.' || table_name, ',' ORDER BY schema_name, table_name)
                     FROM duckdb_tables() WHERE NOT internal),
                  (SELECT string_agg(view_name, ',' ORDER BY view_name) FROM duckdb_views() WHERE NOT internal),
                  (SELECT string_agg(schema_name, ',' ORDER BY schema_name) FROM duckdb_schemas())`,
        )
      ).getRows(),
    running: async (marker) => fake.running(marker),
    cleanup: () => fake.close(),
  };
}

const CLOSED_PORT = 'http://127.0.0.1:1';

/**
 * BigQuery has no read-only session: nao dry-runs each statement and runs only those whose
 * `statementType` is SELECT (bigquery-database.ts). The fake runs whatever it is sent, so a
 * statement that got past nao would change the snapshot.
 */
export const bigqueryEngine: ConformanceEngine<BigQueryFixture> = {
  label: 'BigQuery (fake REST API)',
  dialect: 'bigquery',
  missing: async () => undefined,
  setup,
  sql: {
    values: {
      'small integer': { expression: '42', type: 'INT64' },
      'integer 2^53+1': { expression: '9007199254740993', type: 'INT64' },
      'smallest 64-bit integer': { expression: "CAST('-9223372036854775808' AS INT64)", type: 'INT64' },
      'DECIMAL(38,10)': {
        expression: "BIGNUMERIC '1234567890123456789012345678.0123456789'",
        type: 'BIGNUMERIC',
      },
      'decimal keeping its scale': {
        none: 'BigQuery sends NUMERIC values as their shortest decimal text (12.5), and a result schema carries no scale to pad them to',
      },
      'double 0.1': { expression: 'CAST(0.1 AS FLOAT64)', type: 'FLOAT64' },
      'single-precision 0.1': { none: 'BigQuery has no single-precision type: FLOAT64 is its only float' },
      NaN: { expression: "CAST('NaN' AS FLOAT64)", type: 'FLOAT64' },
      Infinity: { expression: "CAST('inf' AS FLOAT64)", type: 'FLOAT64' },
      '-Infinity': { expression: "CAST('-inf' AS FLOAT64)", type: 'FLOAT64' },
      'NULL of a typed column': { expression: 'CAST(NULL AS INT64)', type: 'INT64' },
      'text with accents and emoji': { expression: "'héllo 😀'", type: 'STRING' },
      true: { expression: 'true', type: 'BOOL' },
      false: { expression: 'false', type: 'BOOL' },
      date: { expression: "DATE '2024-01-02'", type: 'DATE' },
      'timestamp to the microsecond': {
        expression: "DATETIME '2024-01-02 03:04:05.123456'",
        type: 'DATETIME',
      },
      'timestamp on a whole second': { expression: "DATETIME '2024-01-02 03:04:05'", type: 'DATETIME' },
      'timestamp on half a second': { expression: "DATETIME '2024-01-02 03:04:05.5'", type: 'DATETIME' },
      'timestamp with time zone (+02) in UTC': {
        expression: "TIMESTAMP '2024-01-02 03:04:05.123456+02'",
        type: 'TIMESTAMP',
      },
      'binary 61 62 00 ff': { expression: "FROM_HEX('616200ff')", type: 'BYTES' },
    },
    refusals: {
      'data writes': [
        "INSERT INTO items VALUES (99999, 'new', 1)",
        "UPDATE items SET name = 'changed' WHERE true",
        'DELETE FROM items WHERE true',
        "MERGE INTO items USING (SELECT 1 AS id) AS s ON items.id = s.id WHEN MATCHED THEN UPDATE SET name = 'merged'",
      ],
      DDL: [
        'CREATE TABLE intruder (a INT64)',
        'CREATE TABLE intruder AS SELECT 1 AS a',
        'CREATE VIEW intruder AS SELECT 1 AS a',
        'DROP TABLE items',
        'ALTER TABLE items ADD COLUMN extra INT64',
        'TRUNCATE TABLE items',
        'DROP VIEW expensive',
      ],
      'attaching another database': [
        "CREATE EXTERNAL TABLE intruder OPTIONS (format = 'CSV', uris = ['gs://nao-intruder/*.csv'])",
      ],
      COPY: [
        "EXPORT DATA OPTIONS (uri = 'gs://nao-intruder/*.csv', format = 'CSV') AS SELECT * FROM items",
        "LOAD DATA INTO items FROM FILES (format = 'CSV', uris = ['gs://nao-intruder/items.csv'])",
      ],
      settings: [
        "SET @@dataset_id = 'nao_other'",
        "ALTER SCHEMA nao_conformance SET OPTIONS (description = 'changed')",
      ],
    },
    moreRefusals: [
      // A script whose first statement reads: the whole text is one SCRIPT to the dry run.
      "SELECT 1; INSERT INTO items VALUES (99999, 'new', 1)",
      'CREATE SCHEMA nao_intruder',
      'DROP SCHEMA nao_conformance CASCADE',
      'CREATE TEMP TABLE intruder AS SELECT 1 AS a',
    ],
    slow: (marker) =>
      `SELECT SUM(a.id * b.id * c.id) AS ${marker} FROM items a CROSS JOIN items b CROSS JOIN items c`,
    // BigQuery finishes a job before any row can be read, so "endless" is a large result that
    // completes (200,000 rows); the cap must stop nao from paging through it.
    endless: 'SELECT a.id FROM items a CROSS JOIN (SELECT id FROM items LIMIT 40) b',
    memoryHungry: {
      none: "BigQuery bounds each query's resources itself; nao bounds what a query may bill (`maximum_bytes_billed`, bigquery-database.test.ts)",
    },
    session: {
      // Every query is a job of its own and nao opens no BigQuery session: nothing one query
      // sets reaches the next. What the next one must still find is nao's default dataset.
      change: [],
      check: 'SELECT COUNT(*) AS n FROM items',
      expected: [[5000]],
      stillRefused: "INSERT INTO items VALUES (99999, 'new', 1)",
    },
    tableTypes: { id: 'INT64', name: 'STRING', price: 'NUMERIC(10, 2)' },
  },
  brokenTargets: [
    {
      label: 'a closed port',
      config: {
        type: 'bigquery',
        name: 'broken',
        project_id: PROJECT,
        dataset_id: 'shop',
        api_endpoint: CLOSED_PORT,
        maximum_bytes_billed: DEFAULT_MAXIMUM_BYTES_BILLED,
      },
      target: `${PROJECT}.shop via 127.0.0.1:1`,
      reason: 'ECONNREFUSED',
    },
    {
      label: 'a service account key over plain http',
      config: {
        type: 'bigquery',
        name: 'broken',
        project_id: PROJECT,
        api_endpoint: CLOSED_PORT,
        credentials_json: { type: 'service_account', private_key: 'hunter2-secret-key-material' },
        maximum_bytes_billed: DEFAULT_MAXIMUM_BYTES_BILLED,
      },
      target: `${PROJECT} via 127.0.0.1:1`,
      reason: 'nao never sends credentials in clear text',
    },
    {
      label: 'a key file that does not exist',
      config: {
        type: 'bigquery',
        name: 'broken',
        project_id: PROJECT,
        credentials_path: 'no-such-key.json',
        maximum_bytes_billed: DEFAULT_MAXIMUM_BYTES_BILLED,
      },
      target: `${PROJECT} via bigquery.googleapis.com`,
      reason: 'no-such-key.json) cannot be read',
    },
  ],
};
