/**
 * What an engine entry of the conformance suite (conformance.test.ts) supplies: how to build
 * the fixture data and open nao on it, and the engine's spellings of what every warehouse must
 * do. An engine without a spelling says why (`{ none: reason }`), so a missing scenario is a
 * decision written down, not an oversight.
 *
 * The fixture every engine builds, in a place of its own (a temp folder, a random schema or
 * database), removed by `cleanup()`:
 * - table `items (id, name, price)`: ids 0…4999, name 'item <id>', price id × 1.25 as DECIMAL(10,2)
 *   (NUMERIC on SQLite), in id order;
 * - view `expensive` = `SELECT id, price FROM items WHERE price > 100`.
 * nao's handle on it is named "conformance".
 */
import { expect } from 'vitest';
import type { DatabaseConfig } from '../../src/config/schema.js';
import type { CellValue, Database, DatabaseDialect } from '../../src/warehouse/database.js';
import type { OpenDatabaseOptions } from '../../src/warehouse/open-database.js';
import { WarehouseError } from '../../src/warehouse/warehouse-error.js';

export const FIXTURE_ROWS = 5000;

/** The memory limit the `memoryHungry` query of an engine must run into. */
export const MEMORY_LIMIT = '100MB';

/** Values every engine reads alike (see CellValue), each named by what it checks. */
export const EXPECTED_VALUES = {
  'small integer': 42,
  'integer 2^53+1': '9007199254740993',
  'smallest 64-bit integer': '-9223372036854775808',
  'DECIMAL(38,10)': '1234567890123456789012345678.0123456789',
  'decimal keeping its scale': '12.50',
  'double 0.1': 0.1,
  'single-precision 0.1': 0.1,
  NaN: 'NaN',
  Infinity: 'Infinity',
  '-Infinity': '-Infinity',
  'NULL of a typed column': null,
  'text with accents and emoji': 'héllo 😀',
  true: true,
  false: false,
  date: '2024-01-02',
  'timestamp to the microsecond': '2024-01-02T03:04:05.123456',
  'timestamp on a whole second': '2024-01-02T03:04:05',
  'timestamp on half a second': '2024-01-02T03:04:05.500000',
  'timestamp with time zone (+02) in UTC': '2024-01-02T01:04:05.123456Z',
  'binary 61 62 00 ff': '\\x616200ff',
} as const satisfies Record<string, CellValue>;

export type ValueKind = keyof typeof EXPECTED_VALUES;

/** What a refused statement tries; each must fail with READ_ONLY_VIOLATION and change nothing. */
export type RefusalKind = 'data writes' | 'DDL' | 'attaching another database' | 'COPY' | 'settings';

/** The engine's spelling, or why it has none. */
export type Spelling<T> = T | { none: string };

export interface EngineSql {
  /** Each value of EXPECTED_VALUES as an expression, and the column type the engine names for it. */
  values: Record<ValueKind, Spelling<{ expression: string; type: string }>>;
  /** Statements per kind; `{dir}` stands for the fixture's folder (see EngineFixture.dir). */
  refusals: Record<RefusalKind, Spelling<string[]>>;
  /** More statements this engine refuses, beyond the kinds every engine has. */
  moreRefusals?: string[];
  /** A query that would run for 30 s or more, with `marker` as a column name so a server's process list shows it. */
  slow(marker: string): string;
  /** A query with a practically endless result, which a row cap must stop early. */
  endless: string;
  /**
   * A query that needs gigabytes of memory, which a database opened with a memory limit of
   * `MEMORY_LIMIT` must stop early with QUERY_OUT_OF_MEMORY, writing nothing (no spill files).
   */
  memoryHungry: Spelling<string>;
  /**
   * Session settings a query may change (each statement succeeds) and that the next query must
   * find as nao set them: `check` answers `expected`, and `stillRefused` (a write the loosened
   * settings would let through) is refused.
   */
  session: Spelling<{ change: string[]; check: string; expected: CellValue[][]; stillRefused: string }>;
  /** Column types `listTables` gives for the fixture. */
  tableTypes: { id: string; name: string; price: string };
}

export interface EngineFixture {
  /** nao's handle on the fixture, named "conformance". */
  db: Database;
  /** The schema `listTables` gives the fixture's tables (null for SQLite). */
  schema: string | null;
  /** A folder of the fixture that refused statements must leave as it is, for the `{dir}` of the SQL. */
  dir?: string;
  /** Another handle on the fixture, under `name`, opened with `options` (see OpenDatabaseOptions). */
  open(name: string, options?: Pick<OpenDatabaseOptions, 'memoryLimit'>): Promise<Database>;
  /** Whatever a refused statement could have changed (data, tables, files), to compare before and after. */
  snapshot(): Promise<unknown>;
  /** Statements still running on the server with `marker` in their text; servers only. */
  running?(marker: string): Promise<number>;
  cleanup(): Promise<void>;
}

export interface BrokenTarget {
  label: string;
  config: DatabaseConfig;
  /** How the message names where nao tried to connect. */
  target: string;
  /** Words of the engine's reason the message must carry. */
  reason: string;
}

export interface ConformanceEngine<Fixture extends EngineFixture = EngineFixture> {
  label: string;
  dialect: DatabaseDialect;
  /** Why the engine cannot run here (a server that does not answer); undefined when it can. */
  missing(): Promise<string | undefined>;
  setup(): Promise<Fixture>;
  sql: EngineSql;
  /**
   * Configurations that cannot open, with "hunter2" in any password (it must never be printed);
   * relative paths are resolved in the fixture's `dir`, and `{dir}` in `target` stands for it.
   */
  brokenTargets: BrokenTarget[];
}

export function spelled<T>(spelling: Spelling<T>): spelling is T {
  return !(typeof spelling === 'object' && spelling !== null && 'none' in spelling);
}

/** Awaits a promise that must reject with a WarehouseError. */
export async function expectFailure(promise: Promise<unknown>): Promise<WarehouseError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(WarehouseError);
  return error as WarehouseError;
}
