/** The fake answers tedious as SQL Server would: transactions, errors by number, ATTENTION. */
import { Connection, Request } from 'tedious';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeTdsServer, startFakeTdsServer } from './server.js';

let fake: FakeTdsServer;
let connection: Connection;

function batch(
  sql: string,
  timeoutMs?: number,
): Promise<{ rows: unknown[][]; error?: { code?: string; number?: number } }> {
  return new Promise((resolve) => {
    const rows: unknown[][] = [];
    const request = new Request(sql, (error) =>
      resolve({ rows, ...(error ? { error: error as { code?: string; number?: number } } : {}) }),
    );
    if (timeoutMs !== undefined) request.setTimeout(timeoutMs);
    request.on('row', (columns: { value: unknown }[]) => rows.push(columns.map((column) => column.value)));
    connection.execSqlBatch(request);
  });
}

beforeAll(async () => {
  fake = await startFakeTdsServer({ database: 'shop', logins: { owner: { password: 'pw', role: 'owner' } } });
  await fake.admin.run('CREATE TABLE t (a INTEGER); INSERT INTO t VALUES (1)');
  connection = new Connection({
    server: '127.0.0.1',
    authentication: { type: 'default', options: { userName: 'owner', password: 'pw' } },
    options: { port: fake.port, database: 'shop', encrypt: false },
  });
  await new Promise<void>((resolve, reject) => {
    connection.connect((error) => (error ? reject(error) : resolve()));
  });
});

afterAll(async () => {
  connection?.close();
  await fake?.close();
});

describe('fake TDS server', () => {
  it('undoes what ran between BEGIN TRANSACTION and ROLLBACK, and keeps what was committed', async () => {
    expect((await batch('BEGIN TRANSACTION; INSERT INTO t VALUES (2); SELECT count(*) FROM t')).rows).toEqual(
      [['2']],
    );
    await batch('ROLLBACK TRANSACTION');
    expect((await batch('SELECT count(*) FROM t')).rows).toEqual([['1']]);
    await batch('BEGIN TRAN; INSERT INTO t VALUES (3); COMMIT');
    expect((await batch('SELECT count(*) FROM t')).rows).toEqual([['2']]);
  });

  it.each([
    ['COMMIT', 3902],
    ['ROLLBACK', 3903],
    ['SELECT nope FROM t', 207],
    ['SELECT * FROM nowhere', 208],
  ])('reports %s with error %i', async (sql, number) => {
    expect((await batch(sql)).error).toMatchObject({ code: 'EREQUEST', number });
  });

  it('stops a batch on ATTENTION and acknowledges it; the session answers afterwards', async () => {
    const started = performance.now();
    expect((await batch("WAITFOR DELAY '00:00:30'", 100)).error).toMatchObject({ code: 'ETIMEOUT' });
    expect(performance.now() - started).toBeLessThan(5000);
    expect(fake.running('WAITFOR')).toBe(0);
    expect((await batch('SELECT 7')).rows).toEqual([[7]]);
  });
});
