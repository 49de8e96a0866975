/** What only the ClickHouse warehouse does; what every engine does is in conformance/. */
import { type AddressInfo, createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipWhenMissing } from '../../../test-support/local-servers.js';
import {
  type ClickHouseFixture,
  clickhouseConfig,
  clickhouseEngine,
} from '../../../test-support/warehouse-conformance/clickhouse-engine.js';
import { expectFailure } from '../../../test-support/warehouse-conformance/engine.js';
import { openDatabase } from '../open-database.js';
import { openClickHouseDatabase } from './clickhouse-database.js';

const skip = skipWhenMissing({
  tests: 'the ClickHouse warehouse tests',
  missing: await clickhouseEngine.missing(),
});

describe('ClickHouse warehouse without its driver', () => {
  it('fails to open with CONNECTION_FAILED naming the package to install', async () => {
    const error = await expectFailure(
      openClickHouseDatabase(clickhouseConfig({ name: 'events', database: 'default', password: 'hunter2' }), {
        importDriver: () =>
          Promise.reject(
            Object.assign(new Error("Cannot find package '@clickhouse/client'"), {
              code: 'ERR_MODULE_NOT_FOUND',
            }),
          ),
      }),
    );
    expect(error.code).toBe('CONNECTION_FAILED');
    expect(error.message).toContain('Could not open database "events" (clickhouse at ');
    expect(error.message).toContain('@clickhouse/client is an optional dependency of nao');
    expect(error.message).toContain('run `npm install @clickhouse/client`');
    expect(error.message).not.toContain('hunter2');
  });
});

describe('ClickHouse warehouse behind a port that never answers', () => {
  it('fails to open after connect_timeout, naming the host', async () => {
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    try {
      const error = await expectFailure(
        openDatabase(clickhouseConfig({ name: 'slow', database: 'default', port, connect_timeout: 0.5 })),
      );
      expect(error.code).toBe('CONNECTION_FAILED');
      expect(error.message).toContain(`"slow" (clickhouse at 127.0.0.1:${port}/default as user default)`);
      expect(error.message).toContain('no answer within 0.5 s (connect_timeout)');
    } finally {
      silent.close();
    }
  });
});

describe.skipIf(skip)('ClickHouse warehouse', () => {
  let fixture: ClickHouseFixture;

  beforeAll(async () => {
    fixture = await clickhouseEngine.setup();
  });

  afterAll(async () => {
    await fixture?.db.close();
    await fixture?.cleanup();
  });

  it('reads Nullable columns, arrays and tuples as JSON text, and zoned times in UTC', async () => {
    const result = await fixture.db.query(
      `SELECT toNullable(toUInt64(18446744073709551615)) AS big, [1, 2] AS list, tuple(1, 'x') AS pair,
              toDateTime('2024-01-02 03:04:05', 'Europe/Berlin') AS berlin
         FROM system.one;`,
    );
    expect(result.columns).toEqual([
      { name: 'big', type: 'Nullable(UInt64)' },
      { name: 'list', type: 'Array(UInt8)' },
      { name: 'pair', type: 'Tuple(UInt8, String)' },
      { name: 'berlin', type: "DateTime('Europe/Berlin')" },
    ]);
    expect(result.rows).toEqual([['18446744073709551615', '[1,2]', '[1,"x"]', '2024-01-02T02:04:05Z']]);
  });

  it('reads strings inside arrays with their quotes, tabs and newlines', async () => {
    const result = await fixture.db.query("SELECT ['it\\'s', 'tab\\there', 'two\\nlines', NULL] AS words");
    expect(result.rows).toEqual([[JSON.stringify(["it's", 'tab\there', 'two\nlines', null])]]);
  });

  it('refuses a query that would lift its own limits', async () => {
    const limited = await fixture.open('limited', { memoryLimit: '1GB' });
    try {
      for (const sql of [
        'SELECT 1 SETTINGS max_execution_time = 0',
        'SELECT 1 SETTINGS max_memory_usage = 0',
      ]) {
        const error = await expectFailure(limited.query(sql, { timeoutMs: 5000 }));
        expect(error.code).toBe('READ_ONLY_VIOLATION');
      }
    } finally {
      await limited.close();
    }
  });

  it('says to remove a FORMAT clause: nao reads results in its own', async () => {
    const error = await expectFailure(fixture.db.query('SELECT 1 FORMAT JSON'));
    expect(error.code).toBe('QUERY_FAILED');
    expect(error.engineMessage).toContain('remove the FORMAT clause');
  });

  it('fails a query whose error comes after its first rows were sent', async () => {
    const error = await expectFailure(
      fixture.db.query('SELECT number, throwIf(number = 300000) AS boom FROM system.numbers'),
    );
    expect(error.code).toBe('QUERY_FAILED');
    expect(error.engineMessage).toContain('throwIf');
  });

  it('stops an endless query on the server once the row cap is reached', async () => {
    const marker = `nao_capped_${Date.now()}`;
    const result = await fixture.db.query(`SELECT number AS ${marker} FROM system.numbers`, { maxRows: 3 });
    expect(result).toMatchObject({ rows: [[0], [1], [2]], truncated: true });
    await expect.poll(() => fixture.running!(marker), { timeout: 5000 }).toBe(0);
  });

  it('runs a statement that takes no FORMAT clause, and still refuses one that changes settings', async () => {
    expect(await fixture.db.query('KILL QUERY WHERE 0 ASYNC;')).toEqual({
      columns: [],
      rows: [],
      truncated: false,
    });
    expect((await expectFailure(fixture.db.query('SET max_threads = 1'))).code).toBe('READ_ONLY_VIOLATION');
  });

  it("lists only the configured database's tables", async () => {
    const tables = await fixture.db.listTables();
    expect(new Set(tables.map((table) => table.schema))).toEqual(new Set([fixture.schema]));
  });
});
