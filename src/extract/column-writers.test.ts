import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CellValue } from '../warehouse/index.js';
import { quoteLiteral } from '../warehouse/index.js';
import { CHUNK_ROWS } from './column-writers.js';
import { loadTables } from './load-tables.js';

let instance: DuckDBInstance;
let connection: DuckDBConnection;
let dir: string;
let tableCount = 0;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'nao-column-writers-'));
  instance = await DuckDBInstance.create(':memory:');
  connection = await instance.connect();
  await connection.run(`SET TimeZone = 'UTC'`);
});

afterAll(async () => {
  connection.closeSync();
  instance.closeSync();
  await rm(dir, { recursive: true, force: true });
});

/** Loads one column declared as `declared` and reads it back as DuckDB's text of each value, in row order. */
async function loadColumn(declared: string, values: readonly CellValue[]) {
  const id = `t${++tableCount}`;
  const [loaded] = await loadTables({
    connection,
    tables: [{ id, columns: [{ name: 'v', type: declared }], rows: values.map((value) => [value]) }],
    scratchFile: (name) => path.join(dir, `${id}_${name}`),
  });
  const reader = await connection.runAndReadAll(`SELECT v::VARCHAR FROM "${id}" ORDER BY rowid`);
  return { type: loaded!.columns[0]!.type, texts: reader.getRows().map((row) => row[0] as string | null) };
}

/** DuckDB's own reading of `value` written as SQL text: what the loaded value must read back as. */
async function duckdbText(value: string | number | boolean, type: string): Promise<string> {
  const reader = await connection.runAndReadAll(
    `SELECT CAST(${quoteLiteral(literal(value))} AS ${type})::VARCHAR`,
  );
  return reader.getRows()[0]![0] as string;
}

function literal(value: string | number | boolean): string {
  if (typeof value !== 'number') return String(value);
  if (Object.is(value, -0)) return '-0.0';
  // Past 2^53 String() rounds (2^63 → '9223372036854776000') or switches to exponents.
  return Number.isInteger(value) && !Number.isSafeInteger(value) ? BigInt(value).toString() : String(value);
}

/**
 * Nulls on the first and last bits of validity words and on both sides of a chunk boundary,
 * in the first chunk and the second.
 */
const NULL_ROWS = new Set([0, 63, 64, 127, CHUNK_ROWS - 1, CHUNK_ROWS, CHUNK_ROWS + 63, CHUNK_ROWS + 64]);
const ROWS = 2 * CHUNK_ROWS + 100;

/** The values repeated over three chunks, with nulls at `NULL_ROWS`. */
function spread(values: readonly CellValue[]): CellValue[] {
  return Array.from({ length: ROWS }, (_, row) => (NULL_ROWS.has(row) ? null : values[row % values.length]!));
}

describe('column writers: load → read back', () => {
  it.each<[string, string, CellValue[], string]>([
    ['BOOLEAN', 'BOOLEAN', [true, false, false, true, true], 'BOOLEAN'],
    ['INTEGER bounds', 'INTEGER', [-2147483648, 2147483647, 0, -1, 1, 123456], 'INTEGER'],
    [
      'BIGINT bounds, 2^53±1 and text',
      'BIGINT',
      [
        '9223372036854775807',
        '-9223372036854775808',
        2 ** 53 - 1,
        -(2 ** 53 - 1),
        2 ** 53,
        '9007199254740993',
        '-9007199254740993',
        -(2 ** 63),
        2 ** 62,
        4294967296,
        4294967295,
        -4294967297,
        -1,
        0,
        -0,
        '+42',
        '-000123',
        '999999999999999',
        '-99999999999999',
        '1000000000000000',
      ],
      'BIGINT',
    ],
    [
      'HUGEINT bounds',
      'BIGINT',
      [
        '170141183460469231731687303715884105727',
        '-170141183460469231731687303715884105728',
        '9223372036854775808',
        '-9223372036854775809',
        '18446744073709551616',
        '-18446744073709551616',
        1e20,
        -1e20,
        2 ** 63,
        -(2 ** 63),
        -1,
        0,
        5,
      ],
      'HUGEINT',
    ],
    [
      'DOUBLE with NaN and infinities',
      'DOUBLE',
      [0.1, -0, 'NaN', 'Infinity', '-Infinity', Number.MAX_VALUE, Number.MIN_VALUE, -1e300, 2 ** 53 + 2, 7],
      'DOUBLE',
    ],
    [
      'DECIMAL stored in int16',
      'DECIMAL(4,2)',
      ['-99.99', '99.99', '0.01', '-0.01', '-0.00', '.5', 7, -7, '00012.3'],
      'DECIMAL(4,2)',
    ],
    [
      'DECIMAL stored in int32',
      'NUMERIC(9,3)',
      ['-999999.999', '999999.999', '0.001', 999999, -999999, '1.5'],
      'DECIMAL(9,3)',
    ],
    [
      'DECIMAL stored in int64',
      'DECIMAL(18,4)',
      [
        '-99999999999999.9999',
        '99999999999999.9999',
        '0.0001',
        12345678901234,
        -99999999999999,
        '90071992547.4099',
      ],
      'DECIMAL(18,4)',
    ],
    [
      'DECIMAL stored in int128 at max precision',
      'DECIMAL(38,10)',
      [
        '9999999999999999999999999999.9999999999',
        '-9999999999999999999999999999.9999999999',
        '0.0000000001',
        '-0.0000000001',
        '922337203685477580.8',
        9007199254740991,
        -9007199254740991,
        0,
      ],
      'DECIMAL(38,10)',
    ],
    [
      'DECIMAL of undeclared precision',
      'numeric',
      ['12345678901234567890.123', '-0.5', 42, '00000000000000000001.5'],
      'DECIMAL(38,3)',
    ],
    [
      'DATE from year 1 to 9999',
      'date',
      ['0001-01-01', '9999-12-31', '1970-01-01', '1969-12-31', '2024-02-29', '1900-03-01', '2000-02-29'],
      'DATE',
    ],
    [
      'TIMESTAMP with micros',
      'timestamp',
      [
        '0001-01-01T00:00:00',
        '9999-12-31T23:59:59.999999',
        '1969-12-31T23:59:59.999999',
        '1970-01-01 00:00:00.000001',
        '2255-06-05T23:47:34.740991',
        '2255-06-05T23:47:34.740992',
        '1684-07-28T00:12:25.259009',
        '2024-02-29 12:34:56.5',
      ],
      'TIMESTAMP',
    ],
    [
      'TIMESTAMPTZ with offsets',
      'timestamptz',
      [
        '2024-01-01T10:00:00.123456+02:00',
        '2024-01-01T10:00:00Z',
        '0001-01-01T00:00:00+01:00',
        '9999-12-31T23:59:59.999999-15:00',
        '1970-01-01T00:00:00-0530',
        '2255-06-05T23:47:34.740991-01',
      ],
      'TIMESTAMP WITH TIME ZONE',
    ],
    [
      'VARCHAR: empty, inline-length boundary, multi-byte, long',
      'VARCHAR',
      [
        '',
        'a',
        'x'.repeat(12),
        'y'.repeat(13),
        'ß'.repeat(6),
        'héllo wörld ✓ 日本語 🎉',
        'z'.repeat(5000),
        'customer_12345',
      ],
      'VARCHAR',
    ],
  ])('%s', async (_label, declared, values, type) => {
    const rows = spread(values);
    const loaded = await loadColumn(declared, rows);
    expect(loaded.type).toBe(type);
    const expected = new Map<CellValue, string>();
    for (const value of values) expected.set(value, await duckdbText(value!, type));
    expect(loaded.texts).toEqual(rows.map((value) => (value === null ? null : expected.get(value)!)));
  });

  it.each<[string, string, CellValue[], string[]]>([
    [
      'BIGINT',
      'BIGINT',
      ['9223372036854775807', '-9223372036854775808', 2 ** 53 + 2],
      ['9223372036854775807', '-9223372036854775808', '9007199254740994'],
    ],
    [
      'HUGEINT',
      'BIGINT',
      [1e20, '-170141183460469231731687303715884105728'],
      ['100000000000000000000', '-170141183460469231731687303715884105728'],
    ],
    ['DECIMAL(18,4)', 'DECIMAL(18,4)', [12345678901234, '-0.0001'], ['12345678901234.0000', '-0.0001']],
    [
      'DECIMAL(38,10)',
      'DECIMAL(38,10)',
      ['-9999999999999999999999999999.9999999999'],
      ['-9999999999999999999999999999.9999999999'],
    ],
    ['DATE', 'DATE', ['0001-01-01', '9999-12-31'], ['0001-01-01', '9999-12-31']],
    [
      'TIMESTAMP',
      'TIMESTAMP',
      ['9999-12-31T23:59:59.999999', '1969-12-31 23:59:59.000001'],
      ['9999-12-31 23:59:59.999999', '1969-12-31 23:59:59.000001'],
    ],
    ['TIMESTAMPTZ', 'TIMESTAMPTZ', ['2024-01-01T10:00:00.5+02:00'], ['2024-01-01 08:00:00.5+00']],
    ['DOUBLE', 'DOUBLE', ['NaN', '-Infinity', -0], ['nan', '-inf', '-0.0']],
  ])('%s reads back as the expected literals', async (_label, declared, values, texts) => {
    expect((await loadColumn(declared, values)).texts).toEqual(texts);
  });

  it('starts every chunk with all rows valid, whatever the previous chunk held', async () => {
    const rows: CellValue[] = Array.from({ length: 3 * CHUNK_ROWS }, (_, row) =>
      row < CHUNK_ROWS ? (row % 2 === 0 ? null : row) : row >= 2 * CHUNK_ROWS ? null : row,
    );
    const { texts } = await loadColumn('INTEGER', rows);
    expect(texts).toEqual(rows.map((value) => (value === null ? null : String(value))));
  });

  it('keeps numbers of a too-wide decimal column as their text', async () => {
    const wide = `${'9'.repeat(30)}.${'1'.repeat(10)}`;
    expect(await loadColumn('numeric', [wide, 5, null, '-0.5'])).toEqual({
      type: 'VARCHAR',
      texts: [wide, '5', null, '-0.5'],
    });
  });

  it('leaves dates DuckDB cannot take typed (BC, year 0) to inference, as text', async () => {
    expect(await loadColumn('date', ['2024-01-01', '-0044-03-15', '0000-01-01', null])).toEqual({
      type: 'VARCHAR',
      texts: ['2024-01-01', '-0044-03-15', '0000-01-01', null],
    });
  });

  it('loads typed and inferred columns side by side across chunks', async () => {
    const id = `t${++tableCount}`;
    const rows: CellValue[][] = Array.from({ length: CHUNK_ROWS + 10 }, (_, row) => [
      row % 7 === 0 ? null : `customer_${row}`,
      row % 3 === 0 ? 'x' : '2024-01-01',
      row % 5 === 0 ? null : row * 0.5,
    ]);
    await loadTables({
      connection,
      tables: [
        {
          id,
          columns: [
            { name: 'name', type: 'VARCHAR' },
            { name: 'mixed', type: '' },
            { name: 'ratio', type: 'DOUBLE' },
          ],
          rows,
        },
      ],
      scratchFile: (name) => path.join(dir, `${id}_${name}`),
    });
    const reader = await connection.runAndReadAll(`SELECT * FROM "${id}"`);
    expect(reader.getRows()).toEqual(rows);
  });
});

describe('declared types that break their promise', () => {
  async function tableNames(): Promise<string[]> {
    const reader = await connection.runAndReadAll(
      'SELECT table_name FROM duckdb_tables() ORDER BY table_name',
    );
    return reader.getRows().map((row) => String(row[0]));
  }

  it.each<[string, string, CellValue, string]>([
    ['a date column with a non-date', 'date', '2024-02-30', 'VARCHAR'],
    ['a float column with a word', 'DOUBLE', 'abc', 'VARCHAR'],
    ['a text column of digits with a number', 'VARCHAR', 12, 'BIGINT'],
    ['a boolean column with a number', 'BOOLEAN', 1, 'VARCHAR'],
    ['a timestamp column with a date', 'timestamp', '2024-01-01', 'VARCHAR'],
  ])(
    '%s in its last chunk is planned from its values and loaded again',
    async (_label, declared, odd, type) => {
      const before = await tableNames();
      const id = `t${++tableCount}`;
      const good: Record<string, CellValue> = {
        date: '2024-01-01',
        DOUBLE: 1.5,
        VARCHAR: '7',
        BOOLEAN: true,
        timestamp: '2024-01-01 10:00:00',
      };
      const rows: CellValue[][] = Array.from({ length: 2 * CHUNK_ROWS + 5 }, (_, row) => [
        row === 2 * CHUNK_ROWS + 3 ? odd : row % 9 === 0 ? null : good[declared]!,
        row,
        row % 4 === 0 ? 'x' : row,
      ]);
      const [loaded] = await loadTables({
        connection,
        tables: [
          {
            id,
            columns: [
              { name: 'odd', type: declared },
              { name: 'n', type: 'INTEGER' },
              { name: 'mixed', type: '' },
            ],
            rows,
          },
        ],
        scratchFile: (name) => path.join(dir, `${id}_${name}`),
      });
      expect(loaded!.columns.map((column) => column.type)).toEqual([type, 'INTEGER', 'VARCHAR']);
      const reader = await connection.runAndReadAll(`SELECT odd::VARCHAR, n, mixed FROM "${id}" ORDER BY n`);
      expect(reader.getRows()).toEqual(
        rows.map(([value, n, mixed]) => [value === null ? null : String(value), n, String(mixed)]),
      );
      // The first attempt's tables are gone.
      expect(await tableNames()).toEqual([...before, id].sort());
    },
  );
});
