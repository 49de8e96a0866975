import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import type { Database } from '../../src/warehouse/database.js';
import { openDatabase } from '../../src/warehouse/open-database.js';
import { folderSnapshot } from './duckdb-engine.js';
import type { ConformanceEngine, EngineFixture } from './engine.js';

export interface SqliteFixture extends EngineFixture {
  dir: string;
}

const NO_DECIMALS = 'SQLite has no decimal type: NUMERIC values are stored as integers or doubles';
const NO_DATES = 'SQLite has no date or time type: such values are the text or numbers stored';

async function setup(): Promise<SqliteFixture> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'nao-sqlite-'));
  const writer = new BetterSqlite3(path.join(dir, 'warehouse.sqlite'));
  writer.exec(`
    CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL, price NUMERIC);
    WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 4999)
    INSERT INTO items SELECT i, 'item ' || i, i * 1.25 FROM n;
    CREATE VIEW expensive AS SELECT id, price FROM items WHERE price > 100;
    PRAGMA user_version = 7;`);
  writer.close();
  await writeFile(path.join(dir, 'junk.sqlite'), 'not a database at all'.repeat(500));
  // Another database beside it, which an ATTACH could read (or a write through it change).
  const other = new BetterSqlite3(path.join(dir, 'other.sqlite'));
  other.exec("CREATE TABLE secrets (s TEXT); INSERT INTO secrets VALUES ('hidden')");
  other.close();
  const open = (name: string): Promise<Database> =>
    openDatabase({ type: 'sqlite', name, path: 'warehouse.sqlite' }, { projectDir: dir });
  return {
    db: await open('conformance'),
    schema: null,
    dir,
    open,
    snapshot: () => folderSnapshot(dir),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}

export const sqliteEngine: ConformanceEngine<SqliteFixture> = {
  label: 'SQLite',
  dialect: 'sqlite',
  missing: async () => undefined,
  setup,
  sql: {
    values: {
      'small integer': { expression: '42', type: 'INTEGER' },
      'integer 2^53+1': { expression: '9007199254740993', type: 'INTEGER' },
      // -9223372036854775808 itself is read as a REAL before the minus applies.
      'smallest 64-bit integer': { expression: '(-9223372036854775807 - 1)', type: 'INTEGER' },
      'DECIMAL(38,10)': { none: NO_DECIMALS },
      'decimal keeping its scale': { none: NO_DECIMALS },
      'double 0.1': { expression: '0.1', type: 'REAL' },
      'single-precision 0.1': { none: 'SQLite has only double-precision REAL' },
      NaN: { none: 'SQLite stores NaN as NULL' },
      Infinity: { expression: '1e999', type: 'REAL' },
      '-Infinity': { expression: '-1e999', type: 'REAL' },
      // An expression has no declared type, and a NULL no storage class.
      'NULL of a typed column': { expression: 'CAST(NULL AS INTEGER)', type: 'NULL' },
      'text with accents and emoji': { expression: "'héllo 😀'", type: 'TEXT' },
      true: { none: 'SQLite has no boolean type: TRUE is the integer 1' },
      false: { none: 'SQLite has no boolean type: FALSE is the integer 0' },
      date: { none: NO_DATES },
      'timestamp to the microsecond': { none: NO_DATES },
      'timestamp on a whole second': { none: NO_DATES },
      'timestamp on half a second': { none: NO_DATES },
      'timestamp with time zone (+02) in UTC': { none: NO_DATES },
      'binary 61 62 00 ff': { expression: "x'616200ff'", type: 'BLOB' },
    },
    refusals: {
      'data writes': [
        "INSERT INTO items VALUES (99999, 'new', 1)",
        "UPDATE items SET name = 'changed'",
        'DELETE FROM items',
        "INSERT INTO items VALUES (99998, 'x', 1) RETURNING id",
      ],
      DDL: [
        'CREATE TABLE intruder (a INTEGER)',
        'CREATE TEMP TABLE intruder (a INTEGER)',
        'DROP TABLE items',
        'ALTER TABLE items ADD COLUMN extra INTEGER',
        'DROP VIEW expensive',
      ],
      'attaching another database': [
        "ATTACH '{dir}/other.sqlite' AS other",
        "ATTACH '{dir}/new.sqlite' AS other",
        "ATTACH ':memory:' AS scratch",
      ],
      COPY: ["VACUUM INTO '{dir}/copy.sqlite'"],
      settings: ['PRAGMA user_version = 8', 'PRAGMA journal_mode = WAL'],
    },
    moreRefusals: ['VACUUM', "VACUUM main INTO '{dir}/copy.sqlite'"],
    slow: (marker) =>
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT count(*) AS ${marker} FROM n`,
    memoryHungry: {
      none: "SQLite's memory is bounded by its page cache: a large DISTINCT or sort spills to temporary files",
    },
    endless: 'WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT i FROM n',
    session: {
      change: ['PRAGMA query_only = OFF'],
      check: 'SELECT query_only FROM pragma_query_only',
      expected: [[1]],
      // Only query_only refuses this: the temp schema is not the read-only file.
      stillRefused: 'CREATE TEMP TABLE intruder (a INTEGER)',
    },
    tableTypes: { id: 'INTEGER', name: 'TEXT', price: 'NUMERIC' },
  },
  brokenTargets: [
    {
      label: 'a missing file',
      config: { type: 'sqlite', name: 'broken', path: 'missing.sqlite' },
      target: '{dir}/missing.sqlite',
      reason: 'no such file',
    },
    {
      label: 'a file that is not SQLite',
      config: { type: 'sqlite', name: 'broken', path: 'junk.sqlite' },
      target: '{dir}/junk.sqlite',
      reason: 'file is not a database',
    },
  ],
};
