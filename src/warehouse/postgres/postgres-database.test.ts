/** What only the PostgreSQL warehouse does; what every engine does is in conformance/. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POSTGRES_SERVER, skipWhenMissing } from '../../../test-support/local-servers.js';
import { expectFailure } from '../../../test-support/warehouse-conformance/engine.js';
import {
  type PostgresFixture,
  postgresEngine,
} from '../../../test-support/warehouse-conformance/postgres-engine.js';
import { openDatabase } from '../open-database.js';

const skip = skipWhenMissing({
  tests: 'the PostgreSQL warehouse tests',
  missing: await postgresEngine.missing(),
});

describe.skipIf(skip)('PostgreSQL warehouse', () => {
  let fixture: PostgresFixture;

  beforeAll(async () => {
    fixture = await postgresEngine.setup();
  });

  afterAll(async () => {
    await fixture?.db.close();
    await fixture?.cleanup();
  });

  it.each<[string, unknown]>([
    ['32767::int2', 32767],
    ["'infinity'::timestamp", 'infinity'],
    ["'03:04:05.5'::time", '03:04:05.5'],
    ["interval '1 day 2 hours'", '1 day 02:00:00'],
    ["'eeccb8c5-9943-b2bb-bb5e-222f4e14b687'::uuid", 'eeccb8c5-9943-b2bb-bb5e-222f4e14b687'],
    ["'{1,2}'::integer[]", '{1,2}'],
    ['\'{"a": 1}\'::jsonb', '{"a": 1}'],
  ])('reads %s as %j', async (expression, expected) => {
    expect((await fixture.db.query(`SELECT ${expression} AS v`)).rows).toEqual([[expected]]);
  });

  it('resolves unqualified names in the configured schema', async () => {
    expect((await fixture.db.query('SELECT current_schema() AS s, count(*) AS n FROM items')).rows).toEqual([
      [fixture.schema, 5000],
    ]);
  });

  it.each([
    'SELECT 1; COMMIT; DELETE FROM items',
    'SELECT 1; SET TRANSACTION READ WRITE; DELETE FROM items',
    'SELECT 1; ROLLBACK; SET default_transaction_read_only = off; DROP TABLE items',
  ])('runs one statement per query, so nothing is chained out of the transaction: %s', async (sql) => {
    const before = await fixture.snapshot();
    const error = await expectFailure(fixture.db.query(sql));
    expect(error.code).toBe('QUERY_FAILED');
    expect(error.engineMessage).toContain('cannot insert multiple commands');
    expect(await fixture.snapshot()).toEqual(before);
  });

  it.each(['COMMIT', 'ROLLBACK', 'END', 'BEGIN', 'SAVEPOINT s'])(
    "refuses %s, which would end or nest nao's transaction, and the next query is read-only",
    async (sql) => {
      expect((await expectFailure(fixture.db.query(sql))).code).toBe('READ_ONLY_VIOLATION');
      expect((await expectFailure(fixture.db.query('DELETE FROM items'))).code).toBe('READ_ONLY_VIOLATION');
      expect((await fixture.db.query('SELECT count(*) AS n FROM items')).rows).toEqual([[5000]]);
    },
  );

  it('hands on the hint of the server with its message', async () => {
    const error = await expectFailure(fixture.db.query('SELECT nao_no_such_function(1)'));
    expect(error.code).toBe('QUERY_FAILED');
    expect(error.engineMessage).toMatch(/\(hint: .+\)$/);
  });

  it('lists every user schema when none is configured, never the system ones', async () => {
    const all = await openDatabase({
      type: 'postgres',
      name: 'pg-all',
      ...POSTGRES_SERVER,
      allow_privileged_role: true,
    });
    try {
      const tables = await all.listTables();
      expect(tables.filter((table) => table.schema === fixture.schema).map((table) => table.name)).toEqual([
        'expensive',
        'items',
      ]);
      expect(tables.some((table) => ['pg_catalog', 'information_schema'].includes(table.schema ?? ''))).toBe(
        false,
      );
    } finally {
      await all.close();
    }
  });
});
