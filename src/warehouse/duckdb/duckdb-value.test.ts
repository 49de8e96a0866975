import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CellValue } from '../database.js';
import { readDuckDbResult } from './duckdb-result.js';
import { duckDbCellConverter } from './duckdb-value.js';

let instance: DuckDBInstance;
let connection: DuckDBConnection;

beforeAll(async () => {
  instance = await DuckDBInstance.create(':memory:');
  connection = await instance.connect();
  await connection.run("SET TimeZone = 'UTC'");
});

afterAll(() => {
  connection.closeSync();
  instance.closeSync();
});

async function cellOf(expression: string): Promise<{ value: CellValue; type: string }> {
  const result = await readDuckDbResult(await connection.stream(`SELECT ${expression} AS v`));
  return { value: result.rows[0]![0]!, type: result.columns[0]!.type };
}

describe('duckDbCellConverter', () => {
  it.each<[string, CellValue]>([
    ['9223372036854775807::BIGINT', '9223372036854775807'],
    ['(-9223372036854775807 - 1)::BIGINT', '-9223372036854775808'],
    ['9007199254740991::BIGINT', 9007199254740991],
    ['9007199254740992::BIGINT', '9007199254740992'],
    ['-9007199254740991::BIGINT', -9007199254740991],
    ['170141183460469231731687303715884105727::HUGEINT', '170141183460469231731687303715884105727'],
    ['18446744073709551615::UBIGINT', '18446744073709551615'],
    ['42::HUGEINT', 42],
    ["'1234567890123456789012345678.0123456789'::DECIMAL(38,10)", '1234567890123456789012345678.0123456789'],
    ["'-0.50'::DECIMAL(4,2)", '-0.50'],
    ['12.5::DECIMAL(5,2)', '12.50'],
    ['1.5::DOUBLE', 1.5],
    ["'NaN'::DOUBLE", 'NaN'],
    ["'-infinity'::DOUBLE", '-Infinity'],
    ['0.1::FLOAT', 0.1],
    ['3.4028235e38::FLOAT', 3.4028235e38],
    ["'infinity'::FLOAT", 'Infinity'],
    ['true', true],
    ['NULL::INTEGER', null],
    ["'héllo'::VARCHAR", 'héllo'],
    ["DATE '2024-01-02'", '2024-01-02'],
    ["'infinity'::DATE", 'infinity'],
    ["'-infinity'::DATE", '-infinity'],
    ["'0044-03-15 (BC)'::DATE", '0044-03-15 (BC)'],
    ["TIMESTAMP '2024-01-02 03:04:05.123456'", '2024-01-02T03:04:05.123456'],
    ["TIMESTAMP '2024-01-02 03:04:05.5'", '2024-01-02T03:04:05.500000'],
    ["TIMESTAMP '2024-01-02 03:04:05'", '2024-01-02T03:04:05'],
    ["TIMESTAMP '1969-12-31 23:59:59.999999'", '1969-12-31T23:59:59.999999'],
    ["TIMESTAMP '1600-02-29 00:00:00'", '1600-02-29T00:00:00'],
    ["'infinity'::TIMESTAMP", 'infinity'],
    ["'-infinity'::TIMESTAMP", '-infinity'],
    ["TIMESTAMPTZ '2024-01-02 03:04:05.123456+02'", '2024-01-02T01:04:05.123456Z'],
    ["'infinity'::TIMESTAMPTZ", 'infinity'],
    ["TIMESTAMP_S '2024-01-02 03:04:05'", '2024-01-02T03:04:05'],
    ["TIMESTAMP_MS '2024-01-02 03:04:05.12'", '2024-01-02T03:04:05.120'],
    ["TIMESTAMP_NS '2024-01-02 03:04:05.123456789'", '2024-01-02T03:04:05.123456789'],
    ["TIME '03:04:05.5'", '03:04:05.5'],
    ["INTERVAL '3 days'", '3 days'],
    ["'eeccb8c5-9943-b2bb-bb5e-222f4e14b687'::UUID", 'eeccb8c5-9943-b2bb-bb5e-222f4e14b687'],
    ["'ab\\x00\\xFF'::BLOB", '\\x616200ff'],
    ["'10101'::BIT", '10101'],
    ['[1, 2, NULL]', '[1,2,null]'],
    ['[9223372036854775807]::BIGINT[]', '["9223372036854775807"]'],
    ["['NaN'::DOUBLE]", '["NaN"]'],
    ["{'a': 1, 'b': 'x', 'c': [DATE '2024-01-02']}", '{"a":1,"b":"x","c":["2024-01-02"]}'],
    ["MAP {'k1': 1.5::DOUBLE, 'k2': NULL}", '{"k1":1.5,"k2":null}'],
    ["MAP {'k': 1.5}", '{"k":"1.5"}'],
    ["MAP {'__proto__': 1}", '{"__proto__":1}'],
    ["MAP {[1]: 'list key'}", '[{"key":[1],"value":"list key"}]'],
    ['array_value(0.1::FLOAT, 2::FLOAT)', '[0.1,2]'],
    ['union_value(num := 2)::UNION(num INTEGER, str VARCHAR)', 2],
    ['\'{"x": 1}\'::JSON', '{"x": 1}'],
  ])('%s → %j', async (expression, expected) => {
    expect((await cellOf(expression)).value).toEqual(expected);
  });

  it('converts every value of every DuckDB type without throwing, into JSON-safe cells', async () => {
    const reader = await connection.runAndReadAll('SELECT * FROM test_all_types()');
    const types = reader.columnTypes();
    let cells = 0;
    const converters = types.map(duckDbCellConverter);
    for (const row of reader.getRows()) {
      row.forEach((value, index) => {
        const cell = converters[index]!(value);
        expect(['string', 'number', 'boolean'].includes(typeof cell) || cell === null).toBe(true);
        if (typeof cell === 'number') expect(Number.isFinite(cell)).toBe(true);
        cells++;
      });
    }
    expect(cells).toBeGreaterThan(100);
  });

  it('gives the engine type names in column order', async () => {
    const result = await readDuckDbResult(
      await connection.stream(
        "SELECT 1::BIGINT AS a, 1.5::DECIMAL(38,10) AS b, TIMESTAMPTZ '2024-01-01' AS c, [1]::INTEGER[] AS d",
      ),
    );
    expect(result.columns).toEqual([
      { name: 'a', type: 'BIGINT' },
      { name: 'b', type: 'DECIMAL(38,10)' },
      { name: 'c', type: 'TIMESTAMP WITH TIME ZONE' },
      { name: 'd', type: 'INTEGER[]' },
    ]);
  });
});

describe('readDuckDbResult', () => {
  it.each([
    { maxRows: 0, rows: 0, truncated: true },
    { maxRows: 3, rows: 3, truncated: true },
    { maxRows: 2048, rows: 2048, truncated: true },
    { maxRows: 5000, rows: 5000, truncated: false },
    { maxRows: 6000, rows: 5000, truncated: false },
    { maxRows: undefined, rows: 5000, truncated: false },
  ])('caps 5000 rows at maxRows=$maxRows', async ({ maxRows, rows, truncated }) => {
    const result = await readDuckDbResult(await connection.stream('SELECT range AS n FROM range(5000)'), {
      maxRows,
    });
    expect(result.rows.length).toBe(rows);
    expect(result.truncated).toBe(truncated);
    if (rows > 0) expect(result.rows.at(-1)).toEqual([rows - 1]);
  });

  it('stops after stopAfterRows at a chunk boundary when more rows follow, and only then', async () => {
    const sql = 'SELECT range AS n FROM range(5000)';
    const stopped = await readDuckDbResult(await connection.stream(sql), { stopAfterRows: 2000 });
    expect(stopped).toMatchObject({ stopped: true, truncated: false });
    expect(stopped.rows).toHaveLength(2048);
    const whole = await readDuckDbResult(await connection.stream(sql), { stopAfterRows: 5000 });
    expect(whole).toMatchObject({ stopped: false, truncated: false });
    expect(whole.rows).toHaveLength(5000);
  });

  it('says nothing was cut when an empty result meets a zero cap', async () => {
    const result = await readDuckDbResult(await connection.stream('SELECT 1 AS n WHERE false'), {
      maxRows: 0,
    });
    expect(result).toEqual({
      columns: [{ name: 'n', type: 'INTEGER' }],
      rows: [],
      truncated: false,
      stopped: false,
    });
  });
});
