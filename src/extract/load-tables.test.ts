import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CellValue, ColumnInfo } from '../warehouse/index.js';
import { loadedUpFront, loadTables, type SourceTable } from './load-tables.js';
import { LITERAL_MAX_CELLS } from './value-literals.js';

let instance: DuckDBInstance;
let connection: DuckDBConnection;
let dir: string;
let loads = 0;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'nao-load-tables-'));
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

function source(id: string, columns: [string, string][], rows: CellValue[][]): SourceTable {
  return { id, columns: columns.map(([name, type]): ColumnInfo => ({ name, type })), rows };
}

function load(tables: SourceTable[]) {
  const prefix = `load${++loads}`;
  return loadTables({ connection, tables, scratchFile: (name) => path.join(dir, `${prefix}_${name}`) });
}

async function rowsOf(sql: string, on = connection): Promise<unknown[][]> {
  return (await on.runAndReadAll(sql)).getRows();
}

const TABLES_SQL = "SELECT table_name FROM duckdb_tables() WHERE database_name = 'temp' ORDER BY table_name";

describe('loadTables', () => {
  it('loads temporary tables that only its connection sees, gone once it closes', async () => {
    await load([
      source('typed', [['n', 'INTEGER']], [[1], [2]]),
      source('inferred', [['v', '']], [['2024-01-01'], ['x']]),
      source('empty', [], []),
    ]);
    // `empty` has no columns, so no table; no helper table of the inferred load is left either.
    expect((await rowsOf(TABLES_SQL)).flat()).toEqual(['inferred', 'typed']);
    expect(await rowsOf('SELECT sum(n) FROM typed')).toEqual([[3n]]);

    const other = await instance.connect();
    try {
      expect(await rowsOf(TABLES_SQL, other)).toEqual([]);
      await expect(other.run('SELECT * FROM typed')).rejects.toThrow(/does not exist/);
      connection.closeSync();
      connection = await instance.connect();
      expect(await rowsOf(TABLES_SQL)).toEqual([]);
      expect(await rowsOf('SELECT sum(memory_usage_bytes) FROM duckdb_memory()', other)).toEqual([[0n]]);
    } finally {
      other.closeSync();
    }
  });

  it("loads into the connection's database with target 'database', and leaves no temporary table", async () => {
    const file = path.join(dir, 'target-database.duckdb');
    const fileInstance = await DuckDBInstance.create(file);
    try {
      const onFile = await fileInstance.connect();
      const loaded = await loadTables({
        connection: onFile,
        target: 'database',
        tables: [
          source('typed', [['n', 'INTEGER']], [[1], [2]]),
          // Both halves of a mixed load, stitched by POSITIONAL JOIN, helpers dropped after.
          source(
            'mixed',
            [
              ['n', 'INTEGER'],
              ['v', ''],
            ],
            [
              [1, '2024-01-01'],
              [2, '2024-01-02'],
            ],
          ),
        ],
        scratchFile: (name) => path.join(dir, `target_${name}`),
      });
      expect(loaded.map((table) => table.columns)).toEqual([
        [{ name: 'n', type: 'INTEGER' }],
        [
          { name: 'n', type: 'INTEGER' },
          { name: 'v', type: 'DATE' },
        ],
      ]);
      expect((await rowsOf(TABLES_SQL, onFile)).flat()).toEqual([]);
      const stored =
        "SELECT table_name FROM duckdb_tables() WHERE database_name = 'target-database' ORDER BY 1";
      expect((await rowsOf(stored, onFile)).flat()).toEqual(['mixed', 'typed']);
      onFile.closeSync();
    } finally {
      fileInstance.closeSync();
    }
    // The tables are in the file once it is closed.
    const reopened = await DuckDBInstance.create(file, { access_mode: 'READ_ONLY' });
    try {
      const reader = await reopened.connect();
      expect(await rowsOf('SELECT sum(n), max(v)::VARCHAR FROM mixed', reader)).toEqual([[3n, '2024-01-02']]);
      reader.closeSync();
    } finally {
      reopened.closeSync();
    }
  });

  it('describes typed columns exactly as DuckDB does', async () => {
    const columns: [string, string][] = [
      ['b', 'BOOLEAN'],
      ['i', 'INTEGER'],
      ['big', 'BIGINT'],
      ['huge', 'HUGEINT'],
      ['d', 'DOUBLE'],
      ['amount', 'DECIMAL(18,4)'],
      ['day', 'DATE'],
      ['at', 'TIMESTAMP'],
      ['at_tz', 'TIMESTAMPTZ'],
      ['label', 'VARCHAR'],
      // Renamed on load: names are case-insensitive in DuckDB.
      ['LABEL', 'VARCHAR'],
    ];
    const [loaded] = await load([
      source('all_types', columns, [
        [true, 1, 2, 3, 0.5, '1.25', '2024-01-01', '2024-01-01T00:00:00', '2024-01-01T00:00:00Z', 'a', 'b'],
      ]),
    ]);
    const described = await rowsOf('SELECT column_name, column_type FROM (DESCRIBE all_types)');
    expect(loaded!.columns.map((column) => [column.name, column.type])).toEqual(described);
    expect(loaded!.columns.map((column) => column.name).at(-1)).toBe('LABEL_1');
  });

  it('drops and re-plans a table created up front when a value breaks its declared type', async () => {
    // SQLite's dynamic typing: a column declared INTEGER holding text.
    const [loaded] = await load([source('lying', [['n', 'INTEGER']], [[1], ['two'], [3]])]);
    expect(loaded!.columns).toEqual([{ name: 'n', type: 'VARCHAR' }]);
    expect(await rowsOf('SELECT n FROM lying ORDER BY rowid')).toEqual([['1'], ['two'], ['3']]);
  });
});

describe('loadedUpFront', () => {
  it('tells what the load will give, before it, when small typed tables are written out', async () => {
    const tables = [
      source(
        'a',
        [
          ['n', 'INTEGER'],
          ['N', 'BIGINT'],
          ['', 'VARCHAR'],
        ],
        [[1, '9007199254740993', 'x']],
      ),
      source(
        'b',
        [
          ['day', 'DATE'],
          ['at', 'TIMESTAMP WITH TIME ZONE'],
          ['ok', 'BOOLEAN'],
        ],
        [['2024-01-31', '2024-01-31T10:00:00Z', true]],
      ),
      source('c', [['price', 'DECIMAL(10,2)']], []),
      source('d', [], []),
    ];
    const known = loadedUpFront(tables);
    expect(known).not.toBeNull();
    expect(await load(tables)).toEqual(known);
  });

  it('does not guess when the load itself must find out', () => {
    // A declared type that lies, a column left to DuckDB's inference, a table too large to write out.
    expect(loadedUpFront([source('a', [['day', 'DATE']], [['not a date']])])).toBeNull();
    expect(loadedUpFront([source('a', [['v', '']], [['2024-01-01']])])).toBeNull();
    const many = Array.from({ length: 100 }, (_, i): CellValue[] => [i]);
    expect(loadedUpFront([source('a', [['n', 'INTEGER']], many)])).toBeNull();
    // Input the load refuses: it reports that itself.
    expect(
      loadedUpFront([source('a', [['n', 'INTEGER']], [[1]]), source('A', [['n', 'INTEGER']], [[2]])]),
    ).toBeNull();
  });
});

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
async function columnText(table: string, column: string, limit: number): Promise<unknown[][]> {
  return (
    await connection.runAndReadAll(
      `SELECT CAST("${column}" AS VARCHAR), typeof("${column}") FROM ${table} ORDER BY rowid LIMIT ${limit}`,
    )
  ).getRows();
}

describe('small tables written out as literals', () => {
  it('are filled by the statement that creates them, exactly as the appender fills a large one', async () => {
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

    await load(smalls);
    expect(appender).not.toHaveBeenCalled();
    await load([large]);
    expect(appender).toHaveBeenCalledTimes(1);

    const literal = new Map<string, unknown[]>();
    for (const [name, , values] of COLUMNS) {
      const rows = await columnText(`small_${name}`, name, values.length);
      expect(rows, name).toEqual(await columnText('large', name, values.length));
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

  it('are still re-planned when a declared type lies', async () => {
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
});
