import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CellValue, ColumnInfo } from '../warehouse/index.js';
import { loadedUpFront, loadTables, type SourceTable } from './load-tables.js';

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
