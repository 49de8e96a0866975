import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TrinoFake } from '../../../test-support/warehouse-fakes/trino/server.js';
import type { Database } from '../database.js';
import { WarehouseError } from '../warehouse-error.js';
import { openTrinoDatabase, type TrinoDatabaseConfig, trinoServerUrl } from './trino-database.js';

let fake: TrinoFake;
let db: Database;
let config: TrinoDatabaseConfig;

beforeAll(async () => {
  fake = await TrinoFake.start();
  await fake.executor.admin(`
    CREATE SCHEMA memory.shop;
    CREATE TABLE memory.shop.items AS SELECT i AS id FROM range(5000) t(i);`);
  config = {
    type: 'trino',
    name: 'lake',
    host: '127.0.0.1',
    port: fake.port,
    catalog: 'memory',
    user: 'nao',
    schema: 'shop',
  };
  db = await openTrinoDatabase(config);
});

afterAll(async () => {
  await db?.close();
  await fake?.close();
});

describe('Trino warehouse', () => {
  it('asks Trino for the plan first and never sends a refused write itself', async () => {
    const before = fake.received.length;
    await expect(db.query('INSERT INTO items VALUES (1)')).rejects.toMatchObject({
      code: 'READ_ONLY_VIOLATION',
    });
    expect(fake.received.slice(before)).toEqual([
      'EXPLAIN (TYPE LOGICAL, FORMAT JSON) INSERT INTO items VALUES (1)',
    ]);
  });

  it('stops reading at the cap and cancels the rest of the result on the coordinator', async () => {
    const result = await db.query('SELECT a.id FROM items a CROSS JOIN items b', { maxRows: 10 });
    expect(result).toMatchObject({ truncated: true });
    expect(result.rows).toHaveLength(10);
    const last = [...fake.queries.values()].at(-1)!;
    expect(last.sql).toBe('SELECT a.id FROM items a CROSS JOIN items b');
    expect(last.error?.errorName).toBe('USER_CANCELED');
  });

  it("ends a slow query with Trino's own time limit (query_max_run_time), before nao's grace", async () => {
    const started = performance.now();
    const error = await db
      .query('SELECT count(*) FROM items a, items b, items c', { timeoutMs: 300 })
      .catch((e) => e);
    expect(error).toMatchObject({ code: 'QUERY_TIMEOUT' });
    expect((error as WarehouseError).cause).toMatchObject({ errorName: 'EXCEEDED_TIME_LIMIT' });
    expect(performance.now() - started).toBeLessThan(1500);
  });

  it('runs a statement ending in semicolons, which Trino itself would refuse', async () => {
    expect((await db.query('SELECT 7 AS n;; ')).rows).toEqual([[7]]);
  });

  it('fails to open with CONNECTION_FAILED naming the package when trino-client is not installed', async () => {
    const missing = Object.assign(new Error("Cannot find package 'trino-client'"), {
      code: 'ERR_MODULE_NOT_FOUND',
    });
    const error = await openTrinoDatabase(config, { importDriver: () => Promise.reject(missing) }).catch(
      (e) => e,
    );
    expect(error).toBeInstanceOf(WarehouseError);
    expect(error).toMatchObject({ code: 'CONNECTION_FAILED' });
    expect((error as Error).message).toContain('trino-client is an optional dependency of nao');
    expect((error as Error).message).toContain('run `npm install trino-client`');
    expect((error as Error).message).toContain(
      `"lake" (trino at 127.0.0.1:${fake.port}/memory.shop as user nao)`,
    );
  });
});

describe('trinoServerUrl', () => {
  it.each([
    [{ host: 'trino.local', port: undefined }, 'http://trino.local:8080'],
    [{ host: 'trino.local', port: 443 }, 'https://trino.local:443'],
    [{ host: 'https://trino.example.com', port: undefined }, 'https://trino.example.com'],
    [{ host: 'https://trino.example.com', port: 8443 }, 'https://trino.example.com:8443'],
  ])('%j → %s', (fields, expected) => {
    expect(trinoServerUrl(fields)).toBe(expected);
  });
});
