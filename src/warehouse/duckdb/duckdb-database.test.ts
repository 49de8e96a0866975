/** What only the DuckDB warehouse does; what every engine does is in conformance/. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type DuckDbFixture,
  duckdbEngine,
  folderSnapshot,
} from '../../../test-support/warehouse-conformance/duckdb-engine.js';
import { expectFailure } from '../../../test-support/warehouse-conformance/engine.js';

let fixture: DuckDbFixture;

beforeAll(async () => {
  fixture = await duckdbEngine.setup(
    'CREATE SCHEMA analytics; CREATE VIEW analytics.cheap AS SELECT id FROM main.items WHERE price < 2;',
  );
});

afterAll(async () => {
  await fixture?.db.close();
  await fixture?.cleanup();
});

describe('DuckDB warehouse', () => {
  it('works in UTC whatever the machine time zone', async () => {
    const result = await fixture.db.query(
      "SELECT current_setting('TimeZone') AS zone, TIMESTAMPTZ '2024-06-01 00:30:00+02'::DATE AS day",
    );
    expect(result.rows).toEqual([['UTC', '2024-05-31']]);
  });

  it('reads text results through a temp table without touching the folder, in the query order', async () => {
    const before = await folderSnapshot(fixture.dir);
    // More than one row group (122,880 rows), cut by the row cap, in descending order.
    const result = await fixture.db.query(
      "SELECT r AS id, 'name ' || r AS name, r % 3 = 0 AS flag FROM range(300000) t(r) ORDER BY r DESC",
      { maxRows: 200_000 },
    );
    expect(result.truncated).toBe(true);
    expect(result.rows).toHaveLength(200_000);
    expect(result.rows[0]).toEqual([299_999, 'name 299999', false]);
    expect(
      result.rows.every((row, index) => row[0] === 299_999 - index && row[1] === `name ${299_999 - index}`),
    ).toBe(true);
    expect(await folderSnapshot(fixture.dir)).toEqual(before);
  });

  it('keeps the column names of a text result as the query spells them', async () => {
    const result = await fixture.db.query(
      'SELECT a.id, b.id, a.name, a.id + 1 AS rowid FROM items a JOIN items b ON a.id = b.id ORDER BY a.id LIMIT 2',
    );
    expect(result.columns.map((column) => column.name)).toEqual(['id', 'id', 'name', 'rowid']);
    expect(result.rows).toEqual([
      [0, 0, 'item 0', 1],
      [1, 1, 'item 1', 2],
    ]);
  });

  it.each([
    ['PRAGMA', "PRAGMA table_info('items')", ['cid', 'name', 'type', 'notnull', 'dflt_value', 'pk'], 3],
    ['SHOW', 'SHOW TABLES', ['name'], 2],
    ['DESCRIBE', 'DESCRIBE items', ['column_name', 'column_type', 'null', 'key', 'default', 'extra'], 3],
    ['EXPLAIN', 'EXPLAIN SELECT name FROM items', ['explain_key', 'explain_value'], 1],
    ['several statements', 'SELECT 1 AS one; SELECT name FROM items WHERE id = 7', ['name'], 1],
  ])('answers %s', async (_label, sql, columns, rows) => {
    const result = await fixture.db.query(sql);
    expect(result.columns.map((column) => column.name)).toEqual(columns);
    expect(result.rows).toHaveLength(rows);
    expect(result.truncated).toBe(false);
  });

  it('reports a query failing after its first rows as QUERY_FAILED', async () => {
    const error = await expectFailure(
      fixture.db.query(
        "SELECT CASE WHEN id = 4000 THEN error('bad row 4000') ELSE name END AS name FROM items",
      ),
    );
    expect(error.code).toBe('QUERY_FAILED');
    expect(error.engineMessage).toContain('bad row 4000');
  });

  it('stops a query whose limit passes before its statement starts to run, every time', async () => {
    // DuckDB clears an interrupt as a statement begins; one sent during connect or prepare
    // would be lost and the cross join would run on.
    for (let attempt = 0; attempt < 20; attempt++) {
      const error = await expectFailure(
        fixture.db.query('SELECT sum(a.range * b.range) FROM range(1000000) a, range(1000000) b', {
          timeoutMs: 1,
        }),
      );
      expect(error.code).toBe('QUERY_TIMEOUT');
    }
  }, 20_000);

  it('lists the tables and views of every user schema', async () => {
    const tables = await fixture.db.listTables();
    expect(tables.map((table) => `${table.schema}.${table.name}`)).toEqual([
      'analytics.cheap',
      'main.expensive',
      'main.items',
    ]);
  });
});
