import { randomBytes } from 'node:crypto';
import type { Database } from '../../src/warehouse/database.js';
import { openDatabase } from '../../src/warehouse/open-database.js';
import { AthenaFake } from '../warehouse-fakes/athena/server.js';
import type { ConformanceEngine, EngineFixture } from './engine.js';
import { trinoSqlValues } from './trino-sql-values.js';

const ACCESS_KEY_ID = 'AKIANAOFAKE0000001';
const SECRET = 'nao-fake-secret-access-key';

// Started at import: the broken targets below need its endpoint when the tests are collected.
const fake = await AthenaFake.start({ accessKeyIds: [ACCESS_KEY_ID] });

export interface AthenaFixture extends EngineFixture {
  schema: string;
  fake: AthenaFake;
}

const CREDENTIALS = { aws_access_key_id: ACCESS_KEY_ID, aws_secret_access_key: SECRET };

/** The fixture in a database (schema) of its own of the fake's catalog; the fake stops at cleanup(). */
async function setup(): Promise<AthenaFixture> {
  const schema = `nao_wh_${randomBytes(4).toString('hex')}`;
  await fake.executor.admin(`
    CREATE SCHEMA memory.${schema};
    USE memory.${schema};
    CREATE TABLE items (id integer, name varchar, price decimal(10,2));
    INSERT INTO items SELECT i, 'item ' || i, i * 1.25 FROM range(5000) t(i);
    CREATE VIEW expensive AS SELECT id, price FROM items WHERE price > 100;`);
  const open = (name: string): Promise<Database> =>
    openDatabase({
      type: 'athena',
      name,
      region_name: 'eu-west-1',
      s3_staging_dir: 's3://nao-results/athena/',
      schema_name: schema,
      endpoint: fake.endpoint,
      ...CREDENTIALS,
    });
  const snapshot = async () => {
    const cursor = await fake.executor.open(
      `SELECT (SELECT md5(string_agg(id || name || price, ',' ORDER BY id)) FROM memory.${schema}.items),
              (SELECT string_agg(schema_name || '.' || table_name, ',' ORDER BY schema_name, table_name)
                 FROM duckdb_tables() WHERE database_name = 'memory'),
              (SELECT string_agg(schema_name, ',' ORDER BY schema_name) FROM duckdb_schemas() WHERE database_name = 'memory')`,
      undefined,
    );
    try {
      return await cursor.next();
    } finally {
      cursor.close();
    }
  };
  return {
    db: await open('conformance'),
    schema,
    fake,
    open,
    snapshot,
    running: async (marker) => fake.running(marker),
    cleanup: () => fake.close(),
  };
}

/**
 * Against the Athena fake (test-support/warehouse-fakes/athena/): Athena cannot run here. What
 * Athena's EXPLAIN does not cover, so nao's IAM policy must: every query writes its result to
 * the staging dir (s3:PutObject there), and Athena API calls other than queries (CreateDataCatalog,
 * workgroup changes) are not statements at all. Allow only athena:StartQueryExecution,
 * athena:Get*, athena:StopQueryExecution, glue:Get*, s3 reads of the data and writes to the staging dir.
 */
export const athenaEngine: ConformanceEngine<AthenaFixture> = {
  label: 'Athena',
  dialect: 'athena',
  missing: async () => undefined,
  setup,
  sql: {
    values: trinoSqlValues({ real: 'float', timestamp: 'timestamp' }),
    refusals: {
      'data writes': [
        "INSERT INTO items VALUES (99999, 'new', 1)",
        "UPDATE items SET name = 'changed'",
        'DELETE FROM items',
        "MERGE INTO items t USING (SELECT 1 AS id) s ON t.id = s.id WHEN MATCHED THEN UPDATE SET name = 'x'",
      ],
      DDL: [
        'CREATE TABLE intruder (a integer)',
        "CREATE EXTERNAL TABLE intruder (a int) LOCATION 's3://nao-intruder/'",
        'CREATE TABLE intruder AS SELECT * FROM items',
        'DROP TABLE items',
        'ALTER TABLE items ADD COLUMNS (extra int)',
        'CREATE VIEW intruder AS SELECT 1 AS a',
        'DROP VIEW expensive',
        'CREATE DATABASE intruder',
        'MSCK REPAIR TABLE items',
      ],
      'attaching another database': {
        none: 'Athena adds data sources through its API (CreateDataCatalog), not SQL; the IAM policy must not allow it',
      },
      COPY: ["UNLOAD (SELECT * FROM items) TO 's3://nao-intruder/' WITH (format = 'PARQUET')"],
      settings: { none: 'Athena has no session settings: every StartQueryExecution stands alone' },
    },
    moreRefusals: [
      "EXPLAIN ANALYZE INSERT INTO items VALUES (99999, 'new', 1)",
      'OPTIMIZE items REWRITE DATA USING BIN_PACK',
      'VACUUM items',
      'INSERT INTO items SELECT * FROM items;',
    ],
    slow: (marker) => `SELECT count(*) AS ${marker} FROM items a CROSS JOIN items b CROSS JOIN items c`,
    // Athena finishes a query before its result can be read: a million rows it finishes, of
    // which the cap reads the first page only.
    endless: 'SELECT a.id FROM items a CROSS JOIN (SELECT id FROM items LIMIT 200) b',
    memoryHungry: { none: "Athena bounds each query's resources itself (its service quotas)" },
    session: {
      // Nothing carries from one StartQueryExecution to the next, and nothing that would change a
      // session passes Athena's EXPLAIN.
      change: [],
      check: 'SELECT count(*) AS n FROM expensive',
      expected: [[4919]],
      stillRefused: "INSERT INTO items VALUES (99999, 'new', 1)",
    },
    tableTypes: { id: 'integer', name: 'varchar', price: 'decimal(10,2)' },
  },
  brokenTargets: [
    {
      label: 'a closed port',
      config: {
        type: 'athena',
        name: 'broken',
        region_name: 'eu-west-1',
        s3_staging_dir: 's3://nao-results/',
        endpoint: 'http://127.0.0.1:1',
        aws_access_key_id: ACCESS_KEY_ID,
        aws_secret_access_key: 'hunter2-secret',
      },
      target: '127.0.0.1:1 in eu-west-1, work group primary',
      reason: 'ECONNREFUSED',
    },
    {
      label: 'an access key Athena does not know',
      config: {
        type: 'athena',
        name: 'broken',
        region_name: 'eu-west-1',
        s3_staging_dir: 's3://nao-results/',
        endpoint: fake.endpoint,
        aws_access_key_id: 'AKIANAOUNKNOWN00000',
        aws_secret_access_key: 'hunter2-secret',
        aws_session_token: 'hunter2-token',
      },
      target: `${new URL(fake.endpoint).host} in eu-west-1, work group primary`,
      reason: 'The security token included in the request is invalid',
    },
    {
      label: 'a work group that does not exist',
      config: {
        type: 'athena',
        name: 'broken',
        region_name: 'eu-west-1',
        s3_staging_dir: 's3://nao-results/',
        work_group: 'nao_no_such_work_group',
        endpoint: fake.endpoint,
        aws_access_key_id: ACCESS_KEY_ID,
        aws_secret_access_key: 'hunter2-secret',
      },
      target: `${new URL(fake.endpoint).host} in eu-west-1, work group nao_no_such_work_group`,
      reason: 'WorkGroup nao_no_such_work_group is not found',
    },
    {
      label: 'a database (schema) that does not exist',
      config: {
        type: 'athena',
        name: 'broken',
        region_name: 'eu-west-1',
        s3_staging_dir: 's3://nao-results/',
        schema_name: 'nao_no_such_schema',
        endpoint: fake.endpoint,
        ...CREDENTIALS,
      },
      target: `${new URL(fake.endpoint).host} in eu-west-1, work group primary`,
      reason: 'nao_no_such_schema',
    },
  ],
};
