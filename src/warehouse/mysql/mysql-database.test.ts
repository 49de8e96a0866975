/** What only the MySQL/MariaDB warehouse does; what every engine does is in conformance/. */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipWhenMissing } from '../../../test-support/local-servers.js';
import { expectFailure } from '../../../test-support/warehouse-conformance/engine.js';
import { type MysqlFixture, mysqlEngine } from '../../../test-support/warehouse-conformance/mysql-engine.js';

const skip = skipWhenMissing({
  tests: 'the MySQL/MariaDB warehouse tests',
  missing: await mysqlEngine.missing(),
});

describe.skipIf(skip)('MySQL/MariaDB warehouse', () => {
  let fixture: MysqlFixture;

  beforeAll(async () => {
    fixture = await mysqlEngine.setup();
    await fixture.admin.query(`
      CREATE TABLE precise (
        stamp TIMESTAMP(6) NULL, flag TINYINT(1), doc JSON, huge BIGINT UNSIGNED, bits BIT(8)
      );
      INSERT INTO precise VALUES ('2024-01-02 01:04:05.123456', true, '{"a": 1}', 18446744073709551615, b'101');`);
  });

  afterAll(async () => {
    await fixture?.db.close();
    await fixture?.cleanup();
  });

  it('reads the types only MySQL has, TIMESTAMP in UTC (a query cannot set another zone)', async () => {
    expect((await expectFailure(fixture.db.query("SET time_zone = '+05:00'"))).code).toBe(
      'READ_ONLY_VIOLATION',
    );
    const result = await fixture.db.query('SELECT * FROM precise');
    expect(result.columns.map((column) => column.type)).toEqual([
      'TIMESTAMP(6)',
      'TINYINT',
      expect.stringMatching(/^(JSON|TEXT)$/),
      'BIGINT UNSIGNED',
      'BIT',
    ]);
    expect(result.rows).toEqual([['2024-01-02T01:04:05.123456', 1, '{"a": 1}', '18446744073709551615', 5]]);
  });

  it.each<[string, unknown]>([
    ["CAST('03:04:05.5' AS TIME(1))", '03:04:05.5'],
    ['CAST(NULL AS DATETIME)', null],
  ])('reads %s as %j', async (expression, expected) => {
    expect((await fixture.db.query(`SELECT ${expression} AS v`)).rows).toEqual([[expected]]);
  });

  it('runs one statement per query, so nothing can be chained after the transaction', async () => {
    const before = await fixture.snapshot();
    const error = await expectFailure(fixture.db.query('SELECT 1; DROP TABLE items'));
    expect(error.code).toBe('QUERY_FAILED');
    expect(await fixture.snapshot()).toEqual(before);
  });

  it('stops the statement on the server once the row cap is passed', async () => {
    const marker = `nao_cap_${randomBytes(4).toString('hex')}`;
    const result = await fixture.db.query(
      `SELECT a.id AS ${marker} FROM items a CROSS JOIN items b CROSS JOIN items c`,
      { maxRows: 3, timeoutMs: 10_000 },
    );
    expect(result).toMatchObject({
      truncated: true,
      rows: [[expect.any(Number)], [expect.any(Number)], [expect.any(Number)]],
    });
    await expect.poll(() => fixture.running!(marker), { timeout: 3000 }).toBe(0);
  });
});
