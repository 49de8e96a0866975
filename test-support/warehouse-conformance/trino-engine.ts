import { randomBytes } from 'node:crypto';
import type { Database } from '../../src/warehouse/database.js';
import { openDatabase } from '../../src/warehouse/open-database.js';
import { TrinoFake } from '../warehouse-fakes/trino/server.js';
import type { ConformanceEngine, EngineFixture } from './engine.js';
import { trinoSqlValues } from './trino-sql-values.js';

/** The password the fake coordinator asks of every request; the broken targets try another. */
const PASSWORD = 'nao-fake-password';

// Started at import: the broken targets below need its port when the tests are collected.
const fake = await TrinoFake.start({ password: PASSWORD });

export interface TrinoFixture extends EngineFixture {
  schema: string;
  fake: TrinoFake;
}

/** The fixture in a schema of its own of the fake's `memory` catalog; the fake stops at cleanup(). */
async function setup(): Promise<TrinoFixture> {
  const schema = `nao_wh_${randomBytes(4).toString('hex')}`;
  await fake.executor.admin(`
    CREATE SCHEMA memory.${schema};
    USE memory.${schema};
    CREATE TABLE items (id integer, name varchar, price decimal(10,2));
    INSERT INTO items SELECT i, 'item ' || i, i * 1.25 FROM range(5000) t(i);
    CREATE VIEW expensive AS SELECT id, price FROM items WHERE price > 100;`);
  const open = (name: string): Promise<Database> =>
    openDatabase({
      type: 'trino',
      name,
      host: '127.0.0.1',
      port: fake.port,
      catalog: 'memory',
      user: 'nao_reader',
      password: PASSWORD,
      schema,
    });
  const snapshot = async () => {
    const cursor = await fake.executor.open(
      `SELECT (SELECT md5(string_agg(id || name || price, ',' ORDER BY id)) FROM memory.${schema}.items),
              (SELECT string_agg(schema_name || '.' || table_name, ',' ORDER BY schema_name, table_name)
                 FROM duckdb_tables() WHERE database_name = 'memory'),
              (SELECT string_agg(schema_name, ',' ORDER BY schema_name) FROM duckdb_schemas() WHERE database_name = 'memory'),
              (SELECT string_agg(database_name, ',' ORDER BY database_name) FROM duckdb_databases())`,
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

const SLOW_JOIN = 'FROM items a CROSS JOIN items b CROSS JOIN items c';

/**
 * Against the Trino fake (test-support/warehouse-fakes/trino/): no Trino server runs here. What
 * Trino's plan check does not cover, so nao's user should not be allowed it: table functions that
 * pass SQL through to another database (`system.query` of the JDBC connectors) run as reads.
 */
export const trinoEngine: ConformanceEngine<TrinoFixture> = {
  label: 'Trino',
  dialect: 'trino',
  missing: async () => undefined,
  setup,
  sql: {
    values: trinoSqlValues({ real: 'real', timestamp: 'timestamp(6)' }),
    refusals: {
      'data writes': [
        "INSERT INTO items VALUES (99999, 'new', 1)",
        "UPDATE items SET name = 'changed'",
        'DELETE FROM items',
        'DELETE FROM items WHERE id = 1',
        "MERGE INTO items t USING (SELECT 1 AS id) s ON t.id = s.id WHEN MATCHED THEN UPDATE SET name = 'x'",
      ],
      DDL: [
        'CREATE TABLE intruder (a integer)',
        'CREATE TABLE intruder AS SELECT * FROM items',
        'DROP TABLE items',
        'ALTER TABLE items ADD COLUMN extra integer',
        'TRUNCATE TABLE items',
        'DROP VIEW expensive',
        'CREATE VIEW intruder AS SELECT 1 AS a',
        "COMMENT ON TABLE items IS 'changed'",
        'CREATE SCHEMA intruder',
      ],
      'attaching another database': ['CREATE CATALOG intruder USING memory'],
      COPY: { none: 'Trino has no COPY: files are reached only through catalogs, which CREATE CATALOG adds' },
      settings: [
        "SET SESSION query_max_run_time = '1h'",
        'RESET SESSION query_max_run_time',
        "SET TIME ZONE 'Asia/Tokyo'",
        'USE memory.information_schema',
      ],
    },
    moreRefusals: [
      'EXPLAIN ANALYZE INSERT INTO items VALUES (99999, 1, 1)',
      'GRANT SELECT ON items TO ROLE public',
      "CALL system.runtime.kill_query(query_id => 'x', message => 'y')",
      'START TRANSACTION',
      'PREPARE statement FROM SELECT 1',
      'ALTER TABLE items EXECUTE optimize',
      'INSERT INTO items VALUES (99999, 1, 1);',
    ],
    slow: (marker) => `SELECT count(*) AS ${marker} ${SLOW_JOIN}`,
    endless: `SELECT a.id ${SLOW_JOIN}`,
    memoryHungry: {
      none: "Trino bounds each query's memory itself (query_max_memory), a setting of its administrator",
    },
    session: {
      // Nothing that changes the session passes Trino's plan check (see refusals.settings), and
      // every statement has a client of its own: the session is the configured one each time.
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
        type: 'trino',
        name: 'broken',
        host: '127.0.0.1',
        port: 1,
        catalog: 'memory',
        user: 'nao_reader',
        password: 'hunter2-secret',
      },
      target: '127.0.0.1:1/memory as user nao_reader',
      reason: 'ECONNREFUSED',
    },
    {
      label: 'a wrong password',
      config: {
        type: 'trino',
        name: 'broken',
        host: `http://127.0.0.1:${fake.port}`,
        catalog: 'memory',
        user: 'nao_reader',
        password: 'hunter2-secret',
      },
      target: `127.0.0.1:${fake.port}/memory as user nao_reader`,
      reason: 'status code 401',
    },
    {
      label: 'a catalog that does not exist',
      config: {
        type: 'trino',
        name: 'broken',
        host: '127.0.0.1',
        port: fake.port,
        catalog: 'nao_no_such_catalog',
        user: 'nao_reader',
        password: PASSWORD,
      },
      target: `127.0.0.1:${fake.port}/nao_no_such_catalog as user nao_reader`,
      reason: "Catalog 'nao_no_such_catalog' not found",
    },
    {
      label: 'a schema that does not exist',
      config: {
        type: 'trino',
        name: 'broken',
        host: '127.0.0.1',
        port: fake.port,
        catalog: 'memory',
        user: 'nao_reader',
        password: PASSWORD,
        schema: 'nao_no_such_schema',
      },
      target: `127.0.0.1:${fake.port}/memory.nao_no_such_schema as user nao_reader`,
      reason: 'nao_no_such_schema',
    },
  ],
};
