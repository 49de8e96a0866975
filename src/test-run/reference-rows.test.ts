import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseConfig } from '../config/schema.js';
import { type Database, openDatabase, type QueryOptions } from '../warehouse/index.js';
import { captureDataSnapshots } from './data-snapshot.js';
import { runReferenceQuery } from './reference-rows.js';

const opened: Database[] = [];

afterEach(async () => {
  for (const database of opened.splice(0)) await database.close();
});

/** The real read-only warehouse engine for `file`, under `name`, recording the options it gets. */
async function duckdbFile(name: string, file: string): Promise<Database & { calls: QueryOptions[] }> {
  const database = await openDatabase({ type: 'duckdb', name, path: file });
  opened.push(database);
  const calls: QueryOptions[] = [];
  return {
    name: database.name,
    dialect: database.dialect,
    calls,
    query(sql, options) {
      calls.push(options ?? {});
      return database.query(sql, options);
    },
    listTables: () => database.listTables(),
    close: () => database.close(),
  };
}

let dir: string;
let warehouseFile: string;
let financeFile: string;
let warehouseConfig: DatabaseConfig;

async function write(sql: string, file = warehouseFile): Promise<void> {
  const instance = await DuckDBInstance.create(file);
  const connection = await instance.connect();
  await connection.run(sql);
  connection.closeSync();
  instance.closeSync();
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'nao-reference-'));
  warehouseFile = path.join(dir, 'warehouse.duckdb');
  warehouseConfig = { type: 'duckdb', name: 'warehouse', path: warehouseFile };
  await write(`CREATE TABLE orders AS SELECT range AS id, 'r' || (range % 3) AS region, (range * 1.25)::DECIMAL(18,2) AS amount
    FROM range(100); CHECKPOINT`);
  financeFile = path.join(dir, 'finance.duckdb');
  await write('CREATE TABLE budgets AS SELECT 1 AS id', financeFile);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('runReferenceQuery', () => {
  it('runs on the only database and keeps the reference column order', async () => {
    const warehouse = await duckdbFile('warehouse', warehouseFile);
    const result = await runReferenceQuery({
      sql: 'SELECT sum(amount) AS total, region FROM orders GROUP BY region ORDER BY region',
      databaseName: null,
      databases: [warehouse],
      maxRows: 1000,
    });
    expect(result).toEqual({
      success: true,
      databaseName: 'warehouse',
      columns: ['total', 'region'],
      columnTypes: ['DECIMAL(38,2)', 'VARCHAR'],
      rows: [
        ['2103.75', 'r0'],
        ['2021.25', 'r1'],
        ['2062.50', 'r2'],
      ],
      snapshotConsistent: false,
    });
  });

  it('passes the row limit, timeout and signal to the database; more rows than the limit cannot be compared', async () => {
    const warehouse = await duckdbFile('warehouse', warehouseFile);
    const signal = new AbortController().signal;
    const result = await runReferenceQuery({
      sql: 'SELECT id FROM orders',
      databaseName: 'warehouse',
      databases: [warehouse],
      maxRows: 10,
      timeoutMs: 5000,
      signal,
    });
    expect(warehouse.calls).toEqual([{ maxRows: 10, timeoutMs: 5000, signal }]);
    expect(result).toEqual({
      success: false,
      code: 'TOO_MANY_ROWS',
      error:
        'database "warehouse" (duckdb): it returns more than 10 rows, the agent.max_result_rows limit at which ' +
        "the agent's query results are cut, so no answer can be compared whole. Raise agent.max_result_rows " +
        'in nao_config.yaml, or have the test ask for fewer rows.',
    });
    // Exactly at the limit, the reference is whole.
    const atLimit = await runReferenceQuery({
      sql: 'SELECT id FROM orders ORDER BY id LIMIT 10',
      databaseName: 'warehouse',
      databases: [warehouse],
      maxRows: 10,
    });
    expect(atLimit).toMatchObject({ success: true });
    if (atLimit.success) expect(atLimit.rows).toHaveLength(10);
  });

  it.each([
    [
      'several databases and none named',
      null,
      ['warehouse', 'finance'],
      'AMBIGUOUS_DATABASE',
      'several databases are configured (warehouse, finance); name the one the reference SQL runs on',
    ],
    [
      'an unknown name',
      'sales',
      ['warehouse', 'finance'],
      'UNKNOWN_DATABASE',
      'unknown database "sales" (configured: warehouse, finance)',
    ],
    ['no database at all', null, [], 'NO_DATABASE', 'no database is configured in nao_config.yaml'],
  ] as const)('refuses %s with the configured names', async (_label, databaseName, names, code, error) => {
    const result = await runReferenceQuery({
      sql: 'SELECT 1',
      databaseName,
      databases: await Promise.all(names.map((name) => duckdbFile(name, warehouseFile))),
      maxRows: 10,
    });
    expect(result).toEqual({ success: false, code, error: expect.stringContaining(error) });
  });

  it('picks the named database among several', async () => {
    const result = await runReferenceQuery({
      sql: 'SELECT count(*) AS n FROM orders',
      databaseName: 'warehouse',
      databases: [await duckdbFile('finance', financeFile), await duckdbFile('warehouse', warehouseFile)],
      maxRows: 10,
    });
    expect(result).toMatchObject({ success: true, databaseName: 'warehouse', rows: [[100]] });
  });

  it("returns the database's message once when the reference SQL fails", async () => {
    const result = await runReferenceQuery({
      sql: 'SELECT nope FROM orders',
      databaseName: null,
      databases: [await duckdbFile('warehouse', warehouseFile)],
      maxRows: 10,
    });
    expect(result).toMatchObject({
      success: false,
      code: 'QUERY_FAILED',
      error: expect.stringMatching(/^database "warehouse" \(duckdb\): Binder Error: .*nope/s),
    });
    // The warehouse's own prefix is not repeated: the judge adds "reference SQL failed: " once.
    if (!result.success) expect(result.error).not.toMatch(/failed on database/);
  });

  it('refuses an empty reference SQL', async () => {
    const result = await runReferenceQuery({ sql: '  ', databaseName: null, databases: [], maxRows: 10 });
    expect(result).toMatchObject({ success: false, code: 'NO_SQL' });
  });

  it('rejects with the abort reason instead of reporting a failed query', async () => {
    const controller = new AbortController();
    controller.abort(new Error('run cancelled'));
    await expect(
      runReferenceQuery({
        sql: 'SELECT 1',
        databaseName: null,
        databases: [await duckdbFile('warehouse', warehouseFile)],
        maxRows: 10,
        signal: controller.signal,
      }),
    ).rejects.toThrow('run cancelled');
  });

  it('says the reference is snapshot-consistent only when the file did not change since the snapshot', async () => {
    const base = { sql: 'SELECT count(*) AS n FROM orders', databaseName: null, maxRows: 10 };

    const unchanged = captureDataSnapshots([warehouseConfig]);
    const first = await duckdbFile('warehouse', warehouseFile);
    expect(await runReferenceQuery({ ...base, databases: [first], snapshots: unchanged })).toMatchObject({
      rows: [[100]],
      snapshotConsistent: true,
    });
    await first.close();

    // Written after the snapshot (before the agent's first query), read by the reference.
    const before = captureDataSnapshots([warehouseConfig]);
    await write("INSERT INTO orders VALUES (100, 'r1', 1.00); CHECKPOINT");
    const second = await duckdbFile('warehouse', warehouseFile);
    expect(await runReferenceQuery({ ...base, databases: [second], snapshots: before })).toMatchObject({
      rows: [[101]],
      snapshotConsistent: false,
    });
    await second.close();
    await write('DELETE FROM orders WHERE id = 100; CHECKPOINT');
  });

  it('never calls a server database snapshot-consistent', async () => {
    const server: Database = { ...(await duckdbFile('warehouse', warehouseFile)), dialect: 'postgres' };
    const snapshots = captureDataSnapshots([warehouseConfig]);
    const result = await runReferenceQuery({
      sql: 'SELECT 1 AS one',
      databaseName: null,
      databases: [server],
      maxRows: 10,
      snapshots,
    });
    expect(result).toMatchObject({ success: true, snapshotConsistent: false });
  });

  it('refuses a row limit below one', async () => {
    await expect(
      runReferenceQuery({ sql: 'SELECT 1', databaseName: null, databases: [], maxRows: 0 }),
    ).rejects.toMatchObject({ code: 'REFERENCE_BAD_MAX_ROWS' });
  });
});
