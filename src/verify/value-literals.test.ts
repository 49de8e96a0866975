import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CellValue, ColumnInfo } from '../warehouse/index.js';
import { loadTables, type SourceTable } from './load-tables.js';
import { decimalText, LITERAL_MAX_CELLS, LITERAL_MAX_LENGTH, valuesList } from './value-literals.js';

let instance: DuckDBInstance;
let connection: DuckDBConnection;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'nao-value-literals-'));
  instance = await DuckDBInstance.create(':memory:');
});

afterAll(async () => {
  instance.closeSync();
  await rm(dir, { recursive: true, force: true });
});

beforeEach(async () => {
  connection = await instance.connect();
});

afterEach(() => connection.closeSync());

function load(tables: SourceTable[]) {
  return loadTables({ connection, tables, scratchFile: (name) => path.join(dir, name) });
}

/** One value per declared type and row; the columns cover every load type's edge cases. */
const COLUMNS: [string, string, CellValue[]][] = [
  ['flag', 'BOOLEAN', [true, false, null]],
  ['small', 'INTEGER', [0, -1, 2147483647, -2147483648, null]],
  ['big', 'BIGINT', ['9223372036854775807', '-9223372036854775808', 42, null]],
  [
    'huge',
    'HUGEINT',
    ['170141183460469231731687303715884105727', '-170141183460469231731687303715884105728', 1],
  ],
  ['ratio', 'DOUBLE', [0.1, 0.30000000000000004, -0, Number.NaN, Number.POSITIVE_INFINITY, 5e-324, 1e300]],
  ['neg', 'DOUBLE', [Number.NEGATIVE_INFINITY, -1.7976931348623157e308, 'NaN', null]],
  ['price', 'DECIMAL(38,10)', ['1234567890123456789012345678.0123456789', '-0.0000000001', '0', null]],
  ['tiny', 'DECIMAL(38,38)', ['0.00000000000000000000000000000000000005', '-0.5']],
  ['day', 'DATE', ['2024-02-29', '0001-01-01', '9999-12-31', '1969-12-31', null]],
  ['at', 'TIMESTAMP', ['2024-01-01 12:34:56.123456', '1900-01-01T00:00:00', '9999-12-31 23:59:59.999999']],
  [
    'atz',
    'TIMESTAMP WITH TIME ZONE',
    ['2024-01-01T12:00:00Z', '2024-01-01 12:00:00+05:30', '1850-06-01 00:00:00-03'],
  ],
  ['label', 'VARCHAR', ["it's", 'back\\slash', '', 'ünï©ødé 🎉', 'line\nbreak', '--', null]],
];
const ROWS = Math.max(...COLUMNS.map(([, , values]) => values.length));

/** Every column in one table of `rowCount` rows, the values repeated (nulls past a short column). */
function wideTable(id: string, rowCount: number): SourceTable {
  const columns = COLUMNS.map(([name, type]): ColumnInfo => ({ name, type }));
  const rows: CellValue[][] = [];
  for (let r = 0; r < rowCount; r++) rows.push(COLUMNS.map(([, , values]) => values[r % ROWS] ?? null));
  return { id, columns, rows };
}

/** One column's values as text (exact for doubles and timestamps) with their type, in load order. */
async function contents(table: string, column: string, limit: number): Promise<unknown[][]> {
  return (
    await connection.runAndReadAll(
      `SELECT CAST("${column}" AS VARCHAR), typeof("${column}") FROM ${table} ORDER BY rowid LIMIT ${limit}`,
    )
  ).getRows();
}

describe('value literals in the sandbox load', () => {
  it('fill small tables in the statement that creates them, exactly as the appender fills a large one', async () => {
    // A session time zone far from UTC: a TIMESTAMPTZ literal must not depend on it.
    await connection.run("SET TimeZone = 'America/New_York'");
    const appender = vi.spyOn(connection, 'createAppender');
    // One small table per column, loaded together; and all columns in one table too large for literals.
    const smalls = COLUMNS.map(
      ([name, type, values]): SourceTable => ({
        id: `small_${name}`,
        columns: [{ name, type }],
        rows: values.map((value) => [value]),
      }),
    );
    const large = wideTable('large', Math.ceil((LITERAL_MAX_CELLS + 1) / COLUMNS.length) + ROWS);
    expect(valuesList({ columns: [], rows: [] })).toBeNull();

    await load(smalls);
    expect(appender).not.toHaveBeenCalled();
    await load([large]);
    expect(appender).toHaveBeenCalledTimes(1);

    const literal = new Map<string, unknown[]>();
    for (const [name, , values] of COLUMNS) {
      const rows = await contents(`small_${name}`, name, values.length);
      expect(rows, name).toEqual(await contents('large', name, values.length));
      literal.set(
        name,
        rows.map((row) => row[0]),
      );
    }
    // And the values are the ones meant, not merely the same mistake twice.
    expect(literal.get('ratio')).toEqual([
      '0.1',
      '0.30000000000000004',
      '-0.0',
      'nan',
      'inf',
      '5e-324',
      '1e+300',
    ]);
    expect(literal.get('big')?.slice(0, 2)).toEqual(['9223372036854775807', '-9223372036854775808']);
    expect(literal.get('tiny')).toEqual([
      '.00000000000000000000000000000000000005', // DuckDB prints DECIMAL(38,38) without a leading 0
      '-.50000000000000000000000000000000000000',
    ]);
    expect(literal.get('day')?.slice(0, 4)).toEqual(['2024-02-29', '0001-01-01', '9999-12-31', '1969-12-31']);
    expect(literal.get('label')?.slice(0, 6)).toEqual([
      "it's",
      'back\\slash',
      '',
      'ünï©ødé 🎉',
      'line\nbreak',
      '--',
    ]);
    const epochs = await connection.runAndReadAll('SELECT epoch_us(atz) FROM small_atz ORDER BY rowid');
    expect(epochs.getRows().flat()).toEqual([1704110400000000n, 1704090600000000n, -3773768400000000n]);
  });

  it('leave a table the appender must judge to the appender', async () => {
    const text = [{ type: { kind: 'VARCHAR' as const }, promised: true }];
    expect(valuesList({ columns: text, rows: [['a'], [null]] })).toBe("VALUES ('a'), (NULL)");
    // A declared text column holding a number: the declared type lied; the appender re-plans.
    expect(valuesList({ columns: text, rows: [['a'], [3]] })).toBeNull();
    // NUL cannot be written in a SQL string literal.
    expect(valuesList({ columns: text, rows: [['a\0b']] })).toBeNull();
    expect(valuesList({ columns: text, rows: [['x'.repeat(LITERAL_MAX_LENGTH)]] })).toBeNull();
    expect(
      valuesList({ columns: text, rows: Array.from({ length: LITERAL_MAX_CELLS + 1 }, () => ['a']) }),
    ).toBeNull();
    const date = [{ type: { kind: 'DATE' as const }, promised: true }];
    expect(valuesList({ columns: date, rows: [['2024-02-30']] })).toBeNull();
    const integer = [{ type: { kind: 'BIGINT' as const }, promised: false }];
    expect(valuesList({ columns: integer, rows: [['9223372036854775808']] })).toBeNull();
    expect(valuesList({ columns: integer, rows: [[1.5]] })).toBeNull();
  });

  it('still re-plan a small table whose declared type lies', async () => {
    const appender = vi.spyOn(connection, 'createAppender');
    const [loaded] = await load([
      { id: 'mixed', columns: [{ name: 'v', type: 'DATE' }], rows: [['2024-01-01'], ['not a date']] },
    ]);
    expect(appender).toHaveBeenCalled();
    expect(loaded?.columns).toEqual([{ name: 'v', type: 'VARCHAR' }]);
    expect((await connection.runAndReadAll('SELECT v FROM mixed ORDER BY rowid')).getRows()).toEqual([
      ['2024-01-01'],
      ['not a date'],
    ]);
  });

  it('spell a decimal from its unscaled integer', () => {
    expect(decimalText(12345, 2)).toBe('123.45');
    expect(decimalText(-5, 2)).toBe('-0.05');
    expect(decimalText(0, 3)).toBe('0.000');
    expect(decimalText(7, 0)).toBe('7');
    expect(decimalText(-(10n ** 37n), 38)).toBe('-0.10000000000000000000000000000000000000');
  });
});
