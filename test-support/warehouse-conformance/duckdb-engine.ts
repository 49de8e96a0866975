import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { openDatabase } from '../../src/warehouse/open-database.js';
import type { ConformanceEngine, EngineFixture } from './engine.js';

export interface DuckDbFixture extends EngineFixture {
  dir: string;
  /** The DuckDB file nao opened. */
  file: string;
}

/** The fixture's file in a temp folder, written by DuckDB itself and then opened by nao. */
async function setup(extraSql = ''): Promise<DuckDbFixture> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'nao-duckdb-'));
  const file = path.join(dir, 'warehouse.duckdb');
  const writer = await DuckDBInstance.create(file);
  const connection = await writer.connect();
  await connection.run(`
    CREATE TABLE items (id INTEGER, name VARCHAR, price DECIMAL(10,2));
    INSERT INTO items SELECT range, 'item ' || range, range * 1.25 FROM range(5000);
    CREATE VIEW expensive AS SELECT id, price FROM items WHERE price > 100;
    ${extraSql}`);
  connection.closeSync();
  writer.closeSync();
  // Something that is not a database, for the connection failures.
  await writeFile(path.join(dir, 'junk.duckdb'), 'not a database at all'.repeat(500));
  const open: DuckDbFixture['open'] = (name, options) =>
    openDatabase({ type: 'duckdb', name, path: 'warehouse.duckdb' }, { ...options, projectDir: dir });
  return {
    db: await open('conformance'),
    schema: 'main',
    dir,
    file,
    open,
    snapshot: () => folderSnapshot(dir),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}

/**
 * Every file and folder under `dir`, files with a hash of their content: a write anywhere in the
 * folder shows, an empty file or folder created by a refused statement too.
 */
export async function folderSnapshot(dir: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const entry of await readdir(dir, { recursive: true })) {
    const full = path.join(dir, entry);
    if ((await stat(full)).isDirectory()) {
      files[entry] = 'folder';
      continue;
    }
    files[entry] = createHash('sha256')
      .update(await readFile(full))
      .digest('hex');
  }
  return files;
}

export const duckdbEngine: ConformanceEngine<DuckDbFixture> & {
  setup(extraSql?: string): Promise<DuckDbFixture>;
} = {
  label: 'DuckDB',
  dialect: 'duckdb',
  missing: async () => undefined,
  setup,
  sql: {
    values: {
      'small integer': { expression: '42', type: 'INTEGER' },
      'integer 2^53+1': { expression: '9007199254740993', type: 'BIGINT' },
      'smallest 64-bit integer': { expression: '(-9223372036854775807 - 1)::BIGINT', type: 'BIGINT' },
      'DECIMAL(38,10)': {
        expression: "'1234567890123456789012345678.0123456789'::DECIMAL(38,10)",
        type: 'DECIMAL(38,10)',
      },
      'decimal keeping its scale': { expression: '12.50::DECIMAL(5,2)', type: 'DECIMAL(5,2)' },
      'double 0.1': { expression: '0.1::DOUBLE', type: 'DOUBLE' },
      'single-precision 0.1': { expression: '0.1::FLOAT', type: 'FLOAT' },
      NaN: { expression: "'NaN'::DOUBLE", type: 'DOUBLE' },
      Infinity: { expression: "'Infinity'::DOUBLE", type: 'DOUBLE' },
      '-Infinity': { expression: "'-Infinity'::DOUBLE", type: 'DOUBLE' },
      'NULL of a typed column': { expression: 'NULL::INTEGER', type: 'INTEGER' },
      'text with accents and emoji': { expression: "'héllo 😀'", type: 'VARCHAR' },
      true: { expression: 'true', type: 'BOOLEAN' },
      false: { expression: 'false', type: 'BOOLEAN' },
      date: { expression: "DATE '2024-01-02'", type: 'DATE' },
      'timestamp to the microsecond': {
        expression: "TIMESTAMP '2024-01-02 03:04:05.123456'",
        type: 'TIMESTAMP',
      },
      'timestamp on a whole second': { expression: "TIMESTAMP '2024-01-02 03:04:05'", type: 'TIMESTAMP' },
      'timestamp on half a second': { expression: "TIMESTAMP '2024-01-02 03:04:05.5'", type: 'TIMESTAMP' },
      'timestamp with time zone (+02) in UTC': {
        expression: "TIMESTAMPTZ '2024-01-02 03:04:05.123456+02'",
        type: 'TIMESTAMP WITH TIME ZONE',
      },
      'binary 61 62 00 ff': { expression: "from_hex('616200ff')", type: 'BLOB' },
    },
    refusals: {
      'data writes': [
        "INSERT INTO items VALUES (99999, 'new', 1)",
        "UPDATE items SET name = 'changed'",
        'DELETE FROM items',
      ],
      DDL: [
        'CREATE TABLE intruder (a INTEGER)',
        'DROP TABLE items',
        'ALTER TABLE items ADD COLUMN extra INTEGER',
        'TRUNCATE items',
        'CREATE SCHEMA intruders',
        'DROP VIEW expensive',
      ],
      'attaching another database': ["ATTACH '{dir}/other.duckdb' AS other", "ATTACH ':memory:' AS scratch"],
      COPY: [
        "COPY items TO '{dir}/copy.csv'",
        "COPY (SELECT 1) TO '{dir}/copy.parquet' (FORMAT parquet)",
        "EXPORT DATABASE '{dir}/export'",
      ],
      settings: [
        'SET enable_external_access = true',
        "SET GLOBAL access_mode = 'READ_WRITE'",
        'SET threads = 1',
        "PRAGMA enable_profiling = 'json'",
      ],
    },
    moreRefusals: ["SELECT * FROM read_csv('/etc/hostname')", 'INSTALL httpfs', 'LOAD httpfs'],
    slow: (marker) => `SELECT sum(a.range * b.range) AS ${marker} FROM range(1000000) a, range(1000000) b`,
    endless: 'SELECT range AS n FROM range(1000000000000)',
    memoryHungry: 'SELECT count(DISTINCT i) AS n FROM range(3000000000) t(i)',
    session: {
      change: ['CREATE TEMP TABLE left_behind AS SELECT 42 AS n', 'SET VARIABLE left_behind = 42'],
      check:
        "SELECT getvariable('left_behind') AS v, (SELECT count(*) FROM duckdb_tables() WHERE table_name = 'left_behind') AS t",
      expected: [[null, 0]],
      stillRefused: 'CREATE TABLE main.intruder (a INTEGER)',
    },
    tableTypes: { id: 'INTEGER', name: 'VARCHAR', price: 'DECIMAL(10,2)' },
  },
  brokenTargets: [
    {
      label: 'a missing file',
      config: { type: 'duckdb', name: 'broken', path: 'missing.duckdb' },
      target: '{dir}/missing.duckdb',
      reason: 'does not exist',
    },
    {
      label: 'a file that is not DuckDB',
      config: { type: 'duckdb', name: 'broken', path: 'junk.duckdb' },
      target: '{dir}/junk.duckdb',
      reason: 'not a valid DuckDB database',
    },
  ],
};
