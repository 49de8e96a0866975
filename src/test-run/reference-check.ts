/**
 * Checks a test's reference SQL against its database before any model is called: the engine
 * parses and plans it (EXPLAIN), runs no statement of it, reads no rows, and says what is
 * wrong. `nao test validate` reports the failures; `nao test` makes those tests' runs errors
 * without starting their agent.
 */
import type { DatabaseConfig, NaoConfig } from '../config/index.js';
import { messageOf } from '../errors/index.js';
import { chooseTestDatabase, type TestCase } from '../test-files/index.js';
import { type Database, openDatabase, plannedAhead, WarehouseError } from '../warehouse/index.js';
import { referenceFailure } from './reference-rows.js';

/** A plan takes milliseconds; a check that takes longer says nothing and must not hold up the run. */
export const REFERENCE_CHECK_TIMEOUT_MS = 30_000;

export type ReferenceCheck =
  | { status: 'valid'; database: string }
  /** `error` is what the run's message says: `reference SQL failed: database "…" (…): <engine>`. */
  | { status: 'invalid'; database: string | null; error: string }
  /** Not checked (the engine has no plan-only statement nao uses, the database cannot be opened): the run finds out. */
  | { status: 'unchecked'; reason: string };

/**
 * Statements some engine cannot EXPLAIN though they read data: left to the run. Anything
 * else is planned, a misspelt SELECT included (the engine then reports the syntax error).
 */
const NOT_EXPLAINABLE =
  /^(?:\s|--[^\n]*(?:\n|$)|\/\*[\s\S]*?\*\/)*(?:show|pragma|describe|desc|explain|summarize)\b/i;

const notPlanned = (engine: string) => `nao does not plan ${engine} queries ahead of the run`;

/** Plans one reference SQL on its database; a failing plan is `invalid`, never an exception. */
export async function checkReferenceSql(options: {
  sql: string;
  database: Database;
  timeoutMs?: number;
  signal?: AbortSignal;
}): Promise<ReferenceCheck> {
  const { sql, database } = options;
  if (database.plan === undefined) {
    return { status: 'unchecked', reason: notPlanned(database.dialect) };
  }
  if (NOT_EXPLAINABLE.test(sql)) {
    return { status: 'unchecked', reason: 'only a query (SELECT, WITH, …) is planned ahead of the run' };
  }
  try {
    const outcome = await database.plan(sql, {
      timeoutMs: options.timeoutMs ?? REFERENCE_CHECK_TIMEOUT_MS,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    return outcome.planned
      ? { status: 'valid', database: database.name }
      : { status: 'unchecked', reason: outcome.reason };
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    const rejected =
      error instanceof WarehouseError &&
      (error.code === 'QUERY_FAILED' || error.code === 'READ_ONLY_VIOLATION');
    if (!rejected) return { status: 'unchecked', reason: messageOf(error) };
    return {
      status: 'invalid',
      database: database.name,
      error: `reference SQL failed: ${referenceFailure(database, error)}`,
    };
  }
}

/**
 * Checks the reference SQL of every test that has some, keyed by the test's file (relative to
 * tests/). The database is decided as the test files' validation decides it.
 */
export async function checkReferences(options: {
  tests: readonly Pick<TestCase, 'sql' | 'database' | 'relativePath'>[];
  databases: readonly Database[];
  /** Configured databases that cannot be opened, with why: their tests are not checked. */
  unavailable: readonly { name: string; reason: string }[];
  timeoutMs?: number;
  signal?: AbortSignal;
}): Promise<Map<string, ReferenceCheck>> {
  const checks = new Map<string, ReferenceCheck>();
  const configured = [...options.databases, ...options.unavailable].map((database) => database.name);
  const pending = options.tests.filter((test) => test.sql !== null);
  // A few at a time: each is a round trip to the warehouse, and a suite has hundreds.
  const worker = async () => {
    for (let test = pending.shift(); test !== undefined; test = pending.shift()) {
      checks.set(test.relativePath, await checkTest(test));
    }
  };
  const checkTest = async (test: (typeof pending)[number]): Promise<ReferenceCheck> => {
    const choice = chooseTestDatabase({ database: test.database, hasSql: true, configured });
    if (!choice.success) return { status: 'invalid', database: null, error: `database: ${choice.message}` };
    const database = options.databases.find((candidate) => candidate.name === choice.name);
    if (database === undefined) {
      const reason = options.unavailable.find((candidate) => candidate.name === choice.name)?.reason;
      return { status: 'unchecked', reason: reason ?? `database "${choice.name}" is not open` };
    }
    return checkReferenceSql({
      sql: test.sql!,
      database,
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  return checks;
}

/**
 * Opens the configured databases for `nao test validate`'s check, read-only as the runs do. One
 * that cannot be opened is listed with why; its tests are not checked.
 */
export async function openReferenceDatabases(config: NaoConfig): Promise<{
  databases: Database[];
  unavailable: { name: string; reason: string }[];
  close(): Promise<void>;
}> {
  const unavailable = config.unavailableDatabases.map(({ name, reason }) => ({ name, reason }));
  const opened = await Promise.all(
    config.databases.map(async (database: DatabaseConfig) => {
      // No connection (a login, a warehouse woken up) only to say its SQL is not checked.
      if (!plannedAhead(database.type)) {
        unavailable.push({ name: database.name, reason: notPlanned(database.type) });
        return null;
      }
      try {
        return await openDatabase(database, {
          projectDir: config.projectDir,
          memoryLimit: config.agent.queryMemoryLimit,
        });
      } catch (error) {
        unavailable.push({ name: database.name, reason: messageOf(error) });
        return null;
      }
    }),
  );
  const databases = opened.filter((database) => database !== null);
  return {
    databases,
    unavailable,
    close: async () => {
      await Promise.all(databases.map((database) => database.close()));
    },
  };
}
