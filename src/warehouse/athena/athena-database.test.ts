import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AthenaFake } from '../../../test-support/warehouse-fakes/athena/server.js';
import type { Database } from '../database.js';
import { WarehouseError } from '../warehouse-error.js';
import { type AthenaDatabaseConfig, openAthenaDatabase } from './athena-database.js';

let fake: AthenaFake;
let db: Database;
let config: AthenaDatabaseConfig;

beforeAll(async () => {
  fake = await AthenaFake.start({ accessKeyIds: ['AKIATEST'] });
  await fake.executor.admin(`
    CREATE SCHEMA memory.shop;
    CREATE TABLE memory.shop.items AS SELECT i AS id FROM range(5000) t(i);`);
  config = {
    type: 'athena',
    name: 'lake',
    region_name: 'eu-west-1',
    s3_staging_dir: 's3://results/nao/',
    schema_name: 'shop',
    endpoint: fake.endpoint,
    aws_access_key_id: 'AKIATEST',
    aws_secret_access_key: 'secret-key',
  };
  db = await openAthenaDatabase(config);
});

afterAll(async () => {
  await db?.close();
  await fake?.close();
});

const executions = () => [...fake.executions.values()];

describe('Athena warehouse', () => {
  it('starts only the EXPLAIN of a refused write, never the write', async () => {
    const before = executions().length;
    await expect(db.query('INSERT INTO items VALUES (1)')).rejects.toMatchObject({
      code: 'READ_ONLY_VIOLATION',
    });
    expect(
      executions()
        .slice(before)
        .map((execution) => execution.query),
    ).toEqual(['EXPLAIN (TYPE LOGICAL, FORMAT JSON) INSERT INTO items VALUES (1)']);
  });

  it('runs in the configured database, work group and staging dir', async () => {
    await db.query('SELECT 1 AS one');
    expect(executions().at(-1)).toMatchObject({
      database: 'shop',
      catalog: 'AwsDataCatalog',
      workGroup: 'primary',
      outputLocation: expect.stringMatching(/^s3:\/\/results\/nao\/.+\.csv$/),
    });
  });

  it('stops the query on Athena (StopQueryExecution) when its time limit passes', async () => {
    const error = await db
      .query('SELECT count(*) AS n FROM items a, items b, items c', { timeoutMs: 300 })
      .catch((e) => e);
    expect(error).toMatchObject({ code: 'QUERY_TIMEOUT' });
    await expect.poll(() => executions().at(-1)?.state, { timeout: 2000 }).toBe('CANCELLED');
  });

  it('reads a capped result a page at a time, past the header row', async () => {
    const result = await db.query('SELECT id FROM items ORDER BY id', { maxRows: 1500 });
    expect(result.rows).toHaveLength(1500);
    expect(result.rows[0]).toEqual([0]);
    expect(result.truncated).toBe(true);
    const id = executions().at(-1)!.id;
    // 999 rows under the header, then what is left of the cap and one more.
    expect(
      fake.resultRequests.filter((request) => request.id === id).map((request) => request.maxResults),
    ).toEqual([1000, 502]);
  });

  it('fails to open with CONNECTION_FAILED naming the package when the AWS SDK is not installed', async () => {
    const missing = Object.assign(new Error("Cannot find package '@aws-sdk/client-athena'"), {
      code: 'ERR_MODULE_NOT_FOUND',
    });
    const error = await openAthenaDatabase(config, { importDriver: () => Promise.reject(missing) }).catch(
      (e) => e,
    );
    expect(error).toBeInstanceOf(WarehouseError);
    expect(error).toMatchObject({ code: 'CONNECTION_FAILED' });
    expect((error as Error).message).toContain('@aws-sdk/client-athena is an optional dependency of nao');
    expect((error as Error).message).toContain('run `npm install @aws-sdk/client-athena`');
  });
});
