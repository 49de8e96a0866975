import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type FakeSnowflake,
  startFakeSnowflake,
} from '../../../test-support/warehouse-fakes/snowflake/fake-snowflake.js';
import type { Database } from '../database.js';
import { WarehouseError } from '../warehouse-error.js';
import { openSnowflakeDatabase, type SnowflakeDatabaseConfig } from './snowflake-database.js';

let fake: FakeSnowflake;
let db: Database;
let config: SnowflakeDatabaseConfig;

beforeAll(async () => {
  fake = await startFakeSnowflake({
    user: 'NAO_READER',
    password: 'fake-password',
    database: 'SALES',
    schema: 'PUBLIC',
  });
  await fake.admin.run('CREATE TABLE "PUBLIC".items AS SELECT range AS id FROM range(5000)');
  config = {
    type: 'snowflake',
    name: 'sales',
    account_id: 'xy12345',
    username: 'NAO_READER',
    password: 'fake-password',
    database: 'SALES',
    schema: 'PUBLIC',
    host: '127.0.0.1',
    port: fake.port,
    protocol: 'http',
  };
  db = await openSnowflakeDatabase(config);
});

afterAll(async () => {
  await db?.close();
  await fake?.close();
});

describe('Snowflake warehouse', () => {
  it('fetches only the result chunks the row cap needs', async () => {
    // 5000 rows: the first 1000 come with the answer, the rest in chunks of 4000.
    const before = fake.chunkRequests();
    const capped = await db.query('SELECT id FROM items ORDER BY id', { maxRows: 10 });
    expect(capped).toMatchObject({ truncated: true });
    expect(capped.rows).toHaveLength(10);
    expect(fake.chunkRequests()).toBe(before);
    const whole = await db.query('SELECT id FROM items ORDER BY id');
    expect(whole.rows.at(-1)).toEqual([4999]);
    expect(fake.chunkRequests()).toBe(before + 1);
  });

  it('sends the time limit as STATEMENT_TIMEOUT_IN_SECONDS, so the account itself stops the query', async () => {
    const started = performance.now();
    const error = await db
      .query(
        'SELECT COUNT(*) AS n FROM TABLE(GENERATOR(ROWCOUNT => 1000000)) a CROSS JOIN TABLE(GENERATOR(ROWCOUNT => 1000000)) b WHERE RANDOM() < 0',
        { timeoutMs: 800 },
      )
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(WarehouseError);
    expect((error as WarehouseError).code).toBe('QUERY_TIMEOUT');
    expect(fake.statementParameters().at(-1)).toMatchObject({
      STATEMENT_TIMEOUT_IN_SECONDS: 1,
      MULTI_STATEMENT_COUNT: 1,
    });
    // The account answers at its 1 s limit, before nao's own cancel 2 s after the limit.
    expect(performance.now() - started).toBeLessThan(2500);
  });

  it('names the package to install when snowflake-sdk is missing', async () => {
    const missing = Object.assign(new Error("Cannot find package 'snowflake-sdk'"), {
      code: 'ERR_MODULE_NOT_FOUND',
    });
    const error = await openSnowflakeDatabase(config, { importDriver: () => Promise.reject(missing) }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(WarehouseError);
    expect(error).toMatchObject({ code: 'CONNECTION_FAILED', database: 'sales' });
    expect((error as WarehouseError).message).toContain('snowflake-sdk is an optional dependency of nao');
    expect((error as WarehouseError).message).toContain('run `npm install snowflake-sdk`');
    expect((error as WarehouseError).message).toContain(`127.0.0.1:${fake.port}/SALES`);
  });

  it('fails to open with a key file that does not exist as CONNECTION_FAILED naming the file', async () => {
    const { password: _password, ...withoutPassword } = config;
    const error = await openSnowflakeDatabase({
      ...withoutPassword,
      private_key_path: '/nonexistent/rsa_key.p8',
      passphrase: 'hunter2-secret',
    }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'CONNECTION_FAILED', database: 'sales' });
    expect((error as WarehouseError).message).toContain('/nonexistent/rsa_key.p8');
    expect((error as WarehouseError).message).not.toContain('hunter2');
  });

  it('lists the tables of its schema', async () => {
    expect(await db.listTables()).toEqual([
      { schema: 'PUBLIC', name: 'items', columns: [{ name: 'id', type: 'BIGINT' }] },
    ]);
  });
});
