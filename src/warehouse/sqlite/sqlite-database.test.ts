/** What only the SQLite warehouse does; what every engine does is in conformance/. */
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

  it('kills the query process when a limit passes; a query queued behind it times out without running', async () => {
    const slow = expectFailure(fixture.db.query(ENDLESS_COUNT, { timeoutMs: 600 }));
    // The limit counts from the call: this one never gets the process before its 200 ms pass.
    const queued = expectFailure(fixture.db.query('SELECT 1', { timeoutMs: 200 }));
    expect((await queued).code).toBe('QUERY_TIMEOUT');
    expect((await slow).code).toBe('QUERY_TIMEOUT');
    // A new process took the killed one's place.
    expect((await fixture.db.query('SELECT 42 AS answer')).rows).toEqual([[42]]);
  });

  it('runs one statement per query', async () => {
    const error = await expectFailure(fixture.db.query('SELECT 1; SELECT 2'));
    expect(error.code).toBe('QUERY_FAILED');
    expect(error.engineMessage).toMatch(/more than one statement/);
  });
});
