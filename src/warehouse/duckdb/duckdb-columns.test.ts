import { type DuckDBConnection, DuckDBInstance, DuckDBTypeId } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CellValue } from '../database.js';
import { duckDbColumnReader, readChunkColumns } from './duckdb-columns.js';
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

/** The cells of the old path: node-api's values through `duckDbCellConverter`. */
async function genericCells(sql: string): Promise<CellValue[][]> {
  const reader = await connection.runAndReadAll(sql);
  const converters = reader.columnTypes().map(duckDbCellConverter);
  return reader
    .getRows()
    .map((row) => row.map((value, c) => (value === null ? null : converters[c]!(value))));
}

/**
 * The cells of the column readers. With `fastOnly`, node-api's vectors are out of reach, so a
 * reader that fell back to the generic path fails instead of passing unnoticed.
 */
async function readerCells(sql: string, options: { fastOnly: boolean }): Promise<CellValue[][]> {
  const result = await connection.stream(sql);
  const readers = result.columnTypes().map(duckDbColumnReader);
  const rows: CellValue[][] = [];
  for (;;) {
    const chunk = await result.fetchChunk();
    if (chunk === null || chunk.rowCount === 0) break;
    if (options.fastOnly) {
      chunk.getColumnVector = () => {
        throw new Error('the generic path was taken');
      };
    }
    const offset = rows.length;
    for (let r = 0; r < chunk.rowCount; r++) rows.push(new Array<CellValue>(readers.length));
    readChunkColumns({ chunk, readers, rows, offset, count: chunk.rowCount });
  }
  return rows;
}

const ROWS = 5000;

/**
 * `ROWS` rows cycling through `values` (SQL literals) cast to `type`, NULL wherever the row
 * number is 0 or 63 modulo 64: bits 0 and 63 of every validity word and bit 0 of the next.
 * Chunks hold 2,048 rows, so the column spans three chunks.
 */
function column(type: string, values: readonly string[]): string {
  return `SELECT CASE WHEN r % 64 IN (0, 63) THEN NULL
      ELSE [${values.map((value) => `(${value})::${type}`).join(', ')}][r % ${values.length} + 1] END AS v
    FROM range(${ROWS}) t(r) ORDER BY r`;
}

const TEXT = [
  "''",
  "'a'",
  "'exactly 12 b'",
  "'thirteen byte'",
  "'éééééé'", // 12 bytes
  "'ééééééa'", // 13 bytes
  "'😀😀😀'", // 12 bytes
  "'a😀😀😀'", // 13 bytes
  "'nul ' || chr(0) || ' inside'",
  "repeat('long text ', 50)",
  "'customer_12345'",
];

const CASES: [string, string, string[]][] = [
  ['BOOLEAN', 'BOOLEAN', ['true', 'false']],
  ['TINYINT', 'TINYINT', ['-128', '127', '0', '-1']],
  ['SMALLINT', 'SMALLINT', ['-32768', '32767', '0', '-1']],
  ['INTEGER', 'INTEGER', ['-2147483648', '2147483647', '0', '-1']],
  ['UTINYINT', 'UTINYINT', ['0', '255']],
  ['USMALLINT', 'USMALLINT', ['0', '65535']],
  ['UINTEGER', 'UINTEGER', ['0', '4294967295']],
  [
    'BIGINT',
    'BIGINT',
    [
      '-9223372036854775808',
      '9223372036854775807',
      '9007199254740991',
      '9007199254740992',
      '-9007199254740991',
      '-9007199254740992',
      '4294967296',
      '-4294967296',
      '4294967295',
      '-4294967297',
      '0',
      '-1',
    ],
  ],
  ['UBIGINT', 'UBIGINT', ['0', '18446744073709551615', '9007199254740991', '9007199254740992', '4294967296']],
  [
    'HUGEINT',
    'HUGEINT',
    [
      '-170141183460469231731687303715884105728',
      '170141183460469231731687303715884105727',
      '9007199254740991',
      '9007199254740992',
      '-9007199254740991',
      '-9007199254740992',
      '18446744073709551616',
      '-18446744073709551616',
      '9223372036854775808',
      '-9223372036854775809',
      '18446744073709551615',
      '0',
      '-1',
    ],
  ],
  [
    'FLOAT',
    'FLOAT',
    ["'NaN'", "'infinity'", "'-infinity'", '0.1', '-0.0', '3.4028235e38', '1.4e-45', '-1.5', '16777217'],
  ],
  [
    'DOUBLE',
    'DOUBLE',
    ["'NaN'", "'infinity'", "'-infinity'", '0.1', '-0.0', '1.7976931348623157e308', '5e-324', '-2.5'],
  ],
  [
    'DATE',
    'DATE',
    [
      "'2024-02-29'",
      "'1970-01-01'",
      "'1969-12-31'",
      "'0001-01-01'",
      "'9999-12-31'",
      "'10000-01-01'",
      "'0044-03-15 (BC)'",
      "'infinity'",
      "'-infinity'",
    ],
  ],
  ['VARCHAR', 'VARCHAR', TEXT],
  ['DECIMAL(4,2)', 'DECIMAL(4,2)', ['-99.99', '99.99', '-0.05', '0', '12.5']],
  ['DECIMAL(9,3)', 'DECIMAL(9,3)', ['-999999.999', '999999.999', '-0.001', '0']],
  [
    'DECIMAL(18,4)',
    'DECIMAL(18,4)',
    ['-99999999999999.9999', '99999999999999.9999', '-0.0001', '900719925474.0992', '0'],
  ],
  [
    'DECIMAL(38,10)',
    'DECIMAL(38,10)',
    [
      '-9999999999999999999999999999.9999999999',
      '9999999999999999999999999999.9999999999',
      '-0.0000000001',
      '900719.9254740991',
      '-900719.9254740992',
      '1844674407.3709551616',
      '0',
    ],
  ],
  ['DECIMAL(18,0)', 'DECIMAL(18,0)', ['-42', '0', '999999999999999999']],
  ...(
    [
      ['TIMESTAMP', ['2024-01-02 03:04:05.123456', '1969-12-31 23:59:59.999999', '1970-01-01']],
      ['TIMESTAMP_S', ['2024-01-02 03:04:05', '1969-12-31 23:59:59']],
      ['TIMESTAMP_MS', ['2024-01-02 03:04:05.12', '1969-12-31 23:59:59.999']],
      ['TIMESTAMPTZ', ['2024-01-02 03:04:05.5+02', '1969-12-31 23:59:59.999999+00']],
    ] as const
  ).map(([type, values]): [string, string, string[]] => [
    type,
    type,
    [
      ...values.map((value) => `'${value}'`),
      'make_timestamp(-43, 3, 15, 10, 11, 12.5)',
      "'10000-01-01 00:00:01'",
      "'9999-12-31 23:59:59'",
      "'0001-01-01 00:00:00'",
      "'infinity'",
      "'-infinity'",
    ],
  ]),
  [
    'TIMESTAMP_NS',
    'TIMESTAMP_NS',
    [
      "'2024-01-02 03:04:05.123456789'",
      "'1969-12-31 23:59:59.999999999'",
      "'1970-01-01'",
      "'1970-04-14 00:00:00'",
      "'1677-09-22 00:00:00'",
      "'2262-04-11 00:00:00'",
    ],
  ],
];

describe('duckDbColumnReader', () => {
  it.each(CASES)('reads %s exactly like the converter, on its fast path', async (_label, type, values) => {
    const sql = column(type, values);
    const cells = await readerCells(sql, { fastOnly: true });
    expect(cells).toHaveLength(ROWS);
    expect(cells).toEqual(await genericCells(sql));
    // Every row kind showed up, nulls at the word edges included.
    expect(new Set(cells.map(([cell]) => (typeof cell === 'number' ? `${cell}` : cell))).size).toBe(
      values.length + 1,
    );
    expect([cells[0]![0], cells[63]![0], cells[64]![0], cells[2048]![0]]).toEqual([null, null, null, null]);
  });

  it('keeps the text of dates and timestamps of years outside 1–9999 and of infinity', async () => {
    const cells = await readerCells(
      "SELECT DATE '0044-03-15 (BC)' AS a, DATE '10000-01-01' AS b, 'infinity'::DATE AS c, " +
        "TIMESTAMP '10000-01-01 00:00:01' AS d, make_timestamp(-43, 3, 15, 10, 11, 12.5)::TIMESTAMPTZ AS e, " +
        "'-infinity'::TIMESTAMP AS f, 9007199254740992::BIGINT AS g, -1.5::DECIMAL(38,1) AS h",
      { fastOnly: true },
    );
    expect(cells).toEqual([
      [
        '0044-03-15 (BC)',
        '10000-01-01',
        'infinity',
        '10000-01-01 00:00:01',
        '0044-03-15 (BC) 10:11:12.5+00',
        '-infinity',
        '9007199254740992',
        '-1.5',
      ],
    ]);
  });

  it('reads every value of every DuckDB type like the converter, through the generic path where needed', async () => {
    const sql = 'SELECT * FROM test_all_types()';
    const cells = await readerCells(sql, { fastOnly: false });
    expect(cells).toEqual(await genericCells(sql));
    const types = (await connection.runAndReadAll(`${sql} LIMIT 0`)).columnTypes();
    expect(types.some((type) => type.typeId === DuckDBTypeId.INTERVAL)).toBe(true);
  });

  it('fills the positions it is given, several readers into one set of rows', async () => {
    const result = await connection.stream("SELECT 1 AS a, 'x' AS b UNION ALL SELECT 2, 'y' ORDER BY a");
    const chunk = (await result.fetchChunk())!;
    const rows: CellValue[][] = [
      ['keep', undefined as unknown as CellValue, undefined as unknown as CellValue],
      ['keep', undefined as unknown as CellValue, undefined as unknown as CellValue],
    ];
    readChunkColumns({
      chunk,
      readers: result.columnTypes().map(duckDbColumnReader),
      rows,
      offset: 0,
      count: 2,
      targets: [2, 1],
    });
    expect(rows).toEqual([
      ['keep', 'x', 1],
      ['keep', 'y', 2],
    ]);
  });
});
