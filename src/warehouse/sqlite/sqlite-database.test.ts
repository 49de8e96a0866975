/** What only the SQLite warehouse does; what every engine does is in conformance/. */
import { availableParallelism } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectFailure } from '../../../test-support/warehouse-conformance/engine.js';
import {
  type SqliteFixture,
  sqliteEngine,
} from '../../../test-support/warehouse-conformance/sqlite-engine.js';

let fixture: SqliteFixture;

beforeAll(async () => {
  fixture = await sqliteEngine.setup();
});

afterAll(async () => {
  await fixture?.db.close();
  await fixture?.cleanup();
});

const ENDLESS_COUNT =
  'WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT count(*) FROM n';

describe('SQLite warehouse', () => {
  it('names the declared type of a column, else the storage class of its first value', async () => {
    const result = await fixture.db.query(
      'SELECT price, id * 2 AS doubled, price / 2.0 AS half FROM items LIMIT 1',
    );
    expect(result.columns).toEqual([
      { name: 'price', type: 'NUMERIC' },
      { name: 'doubled', type: 'INTEGER' },
      { name: 'half', type: 'REAL' },
    ]);
  });

  it("kills a query's worker when its limit passes; a query beside it runs, and so does the next", async () => {
    // Two workers started, with the SQLite job loaded: a worker starting under load would race the limit.
    await Promise.all([fixture.db.query('SELECT 1'), fixture.db.query('SELECT 1')]);
    const slow = expectFailure(fixture.db.query(ENDLESS_COUNT, { timeoutMs: 5_000 }));
    const beside = fixture.db.query('SELECT 1 AS beside');
    // Beside it, not after it: done while the endless one still runs.
    expect(await Promise.race([beside, slow.then(() => 'after')])).toMatchObject({ rows: [[1]] });
    expect((await slow).code).toBe('QUERY_TIMEOUT');
    expect((await fixture.db.query('SELECT 42 AS answer')).rows).toEqual([[42]]);
  });

  it('never starts a query whose time limit passes while it waits for a worker', async () => {
    // One endless query per worker of the pool (one per core, at least two).
    const workers = Math.max(2, availableParallelism());
    const busy = Array.from({ length: workers }, () =>
      expectFailure(fixture.db.query(ENDLESS_COUNT, { timeoutMs: 1_500 })),
    );
    const started = performance.now();
    expect((await expectFailure(fixture.db.query('SELECT 1', { timeoutMs: 200 }))).code).toBe(
      'QUERY_TIMEOUT',
    );
    expect(performance.now() - started).toBeLessThan(700);
    for (const each of await Promise.all(busy)) expect(each.code).toBe('QUERY_TIMEOUT');
  });

  it('runs one statement per query', async () => {
    const error = await expectFailure(fixture.db.query('SELECT 1; SELECT 2'));
    expect(error.code).toBe('QUERY_FAILED');
    expect(error.engineMessage).toMatch(/more than one statement/);
  });
});
