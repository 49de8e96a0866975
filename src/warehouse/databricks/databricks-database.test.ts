import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectFailure } from '../../../test-support/warehouse-conformance/engine.js';
import {
  type FakeDatabricks,
  startFakeDatabricks,
} from '../../../test-support/warehouse-fakes/databricks/fake-databricks.js';
import type { Database } from '../database.js';
import { type DatabricksDatabaseConfig, openDatabricksDatabase } from './databricks-database.js';

let warehouse: FakeDatabricks;
let config: DatabricksDatabaseConfig;
let db: Database;
const trust = () => ({ customCaCert: warehouse.certificate });

beforeAll(async () => {
  warehouse = await startFakeDatabricks();
  await warehouse.admin(
    `CREATE SCHEMA shop; CREATE TABLE ${warehouse.catalog}.shop.orders AS SELECT range AS id FROM range(3)`,
  );
  config = {
    type: 'databricks',
    name: 'lake',
    server_hostname: warehouse.hostname,
    http_path: warehouse.httpPath,
    access_token: warehouse.token,
    catalog: warehouse.catalog,
    schema_name: 'shop',
  };
  db = await openDatabricksDatabase(config, trust());
});

afterAll(async () => {
  await db?.close();
  await warehouse?.close();
});

describe('opening a Databricks warehouse', () => {
  it('names the package to install when the driver is missing', async () => {
    const error = await expectFailure(
      openDatabricksDatabase(config, {
        importDriver: () =>
          Promise.reject(
            Object.assign(new Error("Cannot find package '@databricks/sql'"), {
              code: 'ERR_MODULE_NOT_FOUND',
            }),
          ),
      }),
    );
    expect(error.code).toBe('CONNECTION_FAILED');
    expect(error.message).toContain('@databricks/sql is an optional dependency of nao');
    expect(error.message).toContain('run `npm install @databricks/sql`');
    expect(error.message).toContain(`databricks at ${warehouse.hostname}${warehouse.httpPath}`);
  });

  it('fails with CONNECTION_FAILED for a token the workspace refuses, never printing the token', async () => {
    const token = 'dapi-hunter2-wrong-token';
    const error = await expectFailure(openDatabricksDatabase({ ...config, access_token: token }, trust()));
    expect(error.code).toBe('CONNECTION_FAILED');
    expect(error.message).toContain('403');
    expect(JSON.stringify({ ...error, message: error.message })).not.toContain('hunter2');
  });

  it('fails with CONNECTION_FAILED for a schema the catalog does not have, in the warehouse words', async () => {
    const error = await expectFailure(
      openDatabricksDatabase({ ...config, schema_name: 'nao_missing' }, trust()),
    );
    expect(error.code).toBe('CONNECTION_FAILED');
    expect(error.message).toContain('SCHEMA_NOT_FOUND');
  });

  it('refuses a server whose certificate it does not trust', async () => {
    const error = await expectFailure(openDatabricksDatabase(config));
    expect(error.code).toBe('CONNECTION_FAILED');
    expect(error.message).toMatch(/self[- ]signed certificate/);
  });
});

describe('querying a Databricks warehouse', () => {
  it('runs a query with a final semicolon and comment, and leaves no session open', async () => {
    const result = await db.query('SELECT id FROM orders ORDER BY id; -- the orders\n');
    expect(result.rows).toEqual([[0], [1], [2]]);
    expect(warehouse.openSessions()).toBe(0);
  });

  it('runs nothing of a text holding two statements', async () => {
    const error = await expectFailure(db.query('SELECT 1; DROP TABLE orders'));
    expect(error.code).toBe('QUERY_FAILED');
    expect(error.engineMessage).toContain('PARSE_SYNTAX_ERROR');
    expect((await db.query('SELECT count(*) AS n FROM orders')).rows).toEqual([[3]]);
  });

  it('lists the tables of every schema of the session catalog when neither catalog nor schema is configured', async () => {
    const bare = await openDatabricksDatabase(
      { ...config, catalog: undefined, schema_name: undefined },
      trust(),
    );
    try {
      expect(await bare.listTables()).toEqual([
        { schema: 'shop', name: 'orders', columns: [{ name: 'id', type: 'BIGINT' }] },
      ]);
    } finally {
      await bare.close();
    }
  });

  it('reads SHOW and DESCRIBE, which only read the catalog', async () => {
    const result = await db.query('DESCRIBE orders');
    expect(result.rows.map((row) => row[0])).toContain('id');
  });
});
