import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CellValue } from '../warehouse/index.js';
import { readAnswer } from './read-answer.js';

let instance: DuckDBInstance;
let connection: DuckDBConnection;

beforeAll(async () => {
  instance = await DuckDBInstance.create(':memory:');
  connection = await instance.connect();
  await connection.run(`SET TimeZone = 'UTC'`);
  await connection.run(`CREATE TABLE q AS SELECT range AS n,
    CASE WHEN range % 7 = 0 THEN NULL ELSE 'customer "' || range || '" é\n😀' END AS label,
    (range / 4)::DECIMAL(18,2) AS amount
    FROM range(10000)`);
});

afterAll(() => {
  connection.closeSync();
  instance.closeSync();
});

const read = (sql: string, maxRows = 1_000_000) => readAnswer({ connection, sql, maxRows });

describe('readAnswer', () => {
  it('reads text columns in the answer order across many groups', async () => {
    const answer = await read('SELECT label, n, amount FROM q ORDER BY n DESC');
    expect(answer.truncated).toBe(false);
    expect(answer.columns).toEqual([
      { name: 'label', type: 'VARCHAR' },
      { name: 'n', type: 'BIGINT' },
      { name: 'amount', type: 'DECIMAL(18,2)' },
    ]);
    expect(answer.rows).toHaveLength(10_000);
    expect(answer.rows[0]).toEqual(['customer "9999" é\n😀', 9999, '2499.75']);
    expect(answer.rows[9999]).toEqual([null, 0, '0.00']);
    const expected = (n: number) => (n % 7 === 0 ? null : `customer "${n}" é\n😀`);
    expect(
      answer.rows.every((row, index) => row[0] === expected(9999 - index) && row[1] === 9999 - index),
    ).toBe(true);
  });

  it('keeps duplicate column names as the query spells them', async () => {
    const answer = await read('SELECT label AS x, label AS x, n AS X FROM q WHERE n = 1');
    expect(answer.columns.map((column) => column.name)).toEqual(['x', 'x', 'X']);
    expect(answer.rows).toEqual([['customer "1" é\n😀', 'customer "1" é\n😀', 1]]);
  });

  it('keeps the order of an answer with a column named rowid', async () => {
    const answer = await read('SELECT n AS rowid, label FROM q ORDER BY n DESC LIMIT 3');
    expect(answer.rows).toEqual([
      [9999, 'customer "9999" é\n😀'],
      [9998, 'customer "9998" é\n😀'],
      [9997, 'customer "9997" é\n😀'],
    ]);
  });

  it('keeps the order of an answer with a column named like the internal ones (g, rowid)', async () => {
    const answer = await read('SELECT n % 2 AS g, label FROM q WHERE n < 3000 ORDER BY n DESC');
    expect(answer.rows.slice(0, 2)).toEqual([
      [1, 'customer "2999" é\n😀'],
      [0, 'customer "2998" é\n😀'],
    ]);
    expect(answer.rows.at(-1)).toEqual([0, null]);
  });

  it('keeps the order of a large answer written in parallel', async () => {
    const answer = await read(
      "SELECT 'row ' || (r * 7919 % 400000) AS label, r FROM range(400000) t(r) ORDER BY r * 7919 % 400000 DESC",
    );
    expect(answer.rows).toHaveLength(400_000);
    expect(answer.rows.every((row, index) => row[0] === `row ${399_999 - index}`)).toBe(true);
  });

  it('copes with a trailing comment and semicolon', async () => {
    const answer = await read('SELECT label FROM q WHERE n = 2; -- the answer');
    expect(answer.rows).toEqual([['customer "2" é\n😀']]);
  });

  it('says the answer is too big without reading it', async () => {
    expect(await read('SELECT label FROM q', 9_999)).toMatchObject({ rows: [], truncated: true });
    expect(await read('SELECT n FROM q', 9_999)).toMatchObject({ rows: [], truncated: true });
  });

  it('reads an empty text answer', async () => {
    expect(await read('SELECT label FROM q WHERE false')).toEqual({
      columns: [{ name: 'label', type: 'VARCHAR' }],
      rows: [],
      truncated: false,
    });
  });

  // The warehouse converter's rules, through both ways of reading: with a text column (temp
  // table and JSON groups) and without one (streamed).
  it.each<[string, string, CellValue]>([
    ['BIGINT max', '9223372036854775807::BIGINT', '9223372036854775807'],
    ['BIGINT min', '(-9223372036854775807 - 1)::BIGINT', '-9223372036854775808'],
    ['largest safe integer', '9007199254740991::BIGINT', 9007199254740991],
    [
      'HUGEINT',
      '170141183460469231731687303715884105727::HUGEINT',
      '170141183460469231731687303715884105727',
    ],
    [
      'DECIMAL(38,10)',
      "'1234567890123456789012345678.0123456789'::DECIMAL(38,10)",
      '1234567890123456789012345678.0123456789',
    ],
    ['DECIMAL keeps its scale', "'12.50'::DECIMAL(10,2)", '12.50'],
    ['DATE', "DATE '2024-02-29'", '2024-02-29'],
    ['TIMESTAMP with microseconds', "TIMESTAMP '2024-01-02 03:04:05.123456'", '2024-01-02T03:04:05.123456'],
    [
      'TIMESTAMP with one microsecond',
      "TIMESTAMP '1969-12-31 23:59:59.000001'",
      '1969-12-31T23:59:59.000001',
    ],
    ['TIMESTAMPTZ in UTC', "TIMESTAMPTZ '2024-01-02 03:04:05.5+02:00'", '2024-01-02T01:04:05.500000Z'],
    ['DOUBLE', '0.1::DOUBLE', 0.1],
    ['NaN', "'NaN'::DOUBLE", 'NaN'],
    ['BOOLEAN', 'true', true],
    ['NULL', 'NULL::INTEGER', null],
  ])('reads %s exactly', async (_label, expression, expected) => {
    const streamed = await read(`SELECT ${expression} AS v FROM q WHERE n = 0`);
    const withText = await read(`SELECT ${expression} AS v, label FROM q WHERE n = 1`);
    expect(streamed.rows).toEqual([[expected]]);
    expect(withText.rows).toEqual([[expected, 'customer "1" é\n😀']]);
  });

  it('leaves no table behind', async () => {
    await read('SELECT label FROM q LIMIT 3');
    const tables = await connection.runAndReadAll('SELECT table_name FROM duckdb_tables() ORDER BY 1');
    expect(tables.getRows()).toEqual([['q']]);
  });
});
