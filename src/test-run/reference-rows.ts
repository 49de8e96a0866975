/**
 * Runs a test's reference SQL on the database the test names, through the same read-only
 * warehouse path the agent used, to get the expected rows.
 */
import { messageOf, NaoError } from '../errors/index.js';
import { chooseTestDatabase } from '../test-files/index.js';
import { type CellValue, type Database, WarehouseError } from '../warehouse/index.js';
import { type DataSnapshots, unchangedSince } from './data-snapshot.js';

export interface RunReferenceQueryOptions {
  sql: string;
  /** The test's `database`; `null` when it names none. */
  databaseName: string | null;
  databases: readonly Database[];
  /** Configured databases nao cannot open (a type it cannot query, unset values): named, never run. */
  unavailable?: readonly { name: string; reason: string }[];
  /** The agent's result row limit: a reference with more rows cannot be compared (`TOO_MANY_ROWS`). */
  maxRows: number;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** From `captureDataSnapshots`, taken before the agent's first query. */
  snapshots?: DataSnapshots;
}

export type ReferenceErrorCode =
  | 'NO_SQL'
  | 'NO_DATABASE'
  | 'AMBIGUOUS_DATABASE'
  | 'UNKNOWN_DATABASE'
  | 'UNAVAILABLE_DATABASE'
  | 'QUERY_FAILED'
  | 'TOO_MANY_ROWS';

export type ReferenceRowsResult =
  | {
      success: true;
      databaseName: string;
      /** Column names in the reference's order. */
      columns: string[];
      /** The engine's type of each column, parallel to `columns`. */
      columnTypes: string[];
      rows: CellValue[][];
      /**
       * True only when the reference provably read the same data as the agent: a file database
       * unchanged from before the agent's first query until after this query (see data-snapshot.ts).
       */
      snapshotConsistent: boolean;
    }
  | { success: false; code: ReferenceErrorCode; error: string };

/** Picks the test's database and runs the reference SQL; a failing query is data, an abort throws. */
export async function runReferenceQuery(options: RunReferenceQueryOptions): Promise<ReferenceRowsResult> {
  const { sql, databases, maxRows } = options;
  if (!Number.isInteger(maxRows) || maxRows < 1) {
    throw new NaoError({
      code: 'REFERENCE_BAD_MAX_ROWS',
      message: `runReferenceQuery needs maxRows >= 1 (the agent's result limit); got ${maxRows}.`,
    });
  }
  if (sql.trim() === '')
    return { success: false, code: 'NO_SQL', error: 'The test has no reference SQL (`sql`).' };

  const picked = pickDatabase(databases, options.unavailable ?? [], options.databaseName);
  if (!picked.success) return picked;
  const { database } = picked;

  let result: Awaited<ReturnType<Database['query']>>;
  try {
    result = await database.query(sql, {
      maxRows,
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    return { success: false, code: 'QUERY_FAILED', error: referenceFailure(database, error) };
  }

  if (result.truncated) {
    // The agent's results are cut at the same limit, so no answer could hold all of the rows,
    // and comparing the first ones would pass an answer that stops there.
    return {
      success: false,
      code: 'TOO_MANY_ROWS',
      error: onDatabase(
        database,
        `it returns more than ${maxRows} rows, the agent.max_result_rows limit at which the agent's ` +
          'query results are cut, so no answer can be compared whole. Raise agent.max_result_rows in ' +
          'nao_config.yaml, or have the test ask for fewer rows.',
      ),
    };
  }
  const snapshot = options.snapshots?.get(database.name);
  const snapshotConsistent =
    snapshot !== undefined && (database.dialect === 'duckdb' || database.dialect === 'sqlite')
      ? unchangedSince(snapshot)
      : false;
  return {
    success: true,
    databaseName: database.name,
    columns: result.columns.map((column) => column.name),
    columnTypes: result.columns.map((column) => column.type),
    rows: result.rows,
    snapshotConsistent,
  };
}

/**
 * Why a reference query failed, with the engine's own words once: the judge says "reference
 * SQL failed: " before it, and a WarehouseError's message already carries a prefix of its own.
 */
export function referenceFailure(database: Pick<Database, 'name' | 'dialect'>, error: unknown): string {
  const engine = error instanceof WarehouseError ? (error.engineMessage ?? error.message) : messageOf(error);
  return onDatabase(database, engine);
}

/** What went wrong with the reference, after the database it ran on. */
function onDatabase(database: Pick<Database, 'name' | 'dialect'>, problem: string): string {
  return `database "${database.name}" (${database.dialect}): ${problem}`;
}

/**
 * The unavailable database a test's reference would run on, if it is one: such a run fails
 * before the agent spends anything.
 */
export function unavailableReferenceDatabase(options: {
  databaseName: string | null;
  databases: readonly Database[];
  unavailable: readonly { name: string; reason: string }[];
}): { name: string; reason: string } | undefined {
  const wanted = options.databaseName?.trim() ?? '';
  if (wanted !== '') return options.unavailable.find((database) => database.name === wanted);
  return options.databases.length === 0 && options.unavailable.length === 1
    ? options.unavailable[0]
    : undefined;
}

function pickDatabase(
  databases: readonly Database[],
  unavailable: readonly { name: string; reason: string }[],
  name: string | null,
): { success: true; database: Database } | { success: false; code: ReferenceErrorCode; error: string } {
  const blocked = unavailableReferenceDatabase({ databaseName: name, databases, unavailable });
  if (blocked !== undefined) {
    return { success: false, code: 'UNAVAILABLE_DATABASE', error: blocked.reason };
  }
  // The same decision as the test files' validation, so a run never meets a case it let through.
  const choice = chooseTestDatabase({
    database: name,
    hasSql: true,
    configured: [...databases, ...unavailable].map((database) => database.name),
  });
  if (!choice.success) return { success: false, code: choice.code, error: choice.message };
  return { success: true, database: databases.find((database) => database.name === choice.name)! };
}
