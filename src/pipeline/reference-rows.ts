/**
 * Runs a test's reference SQL on the database the test names, through the same read-only
 * warehouse path the agent used, to get the expected rows.
 */
import { messageOf, NaoError } from '../errors/index.js';
import type { CellValue, Database } from '../warehouse/index.js';
import { type DataSnapshots, unchangedSince } from './data-snapshot.js';

export interface RunReferenceQueryOptions {
  sql: string;
  /** The test's `database`; `null` when it names none. */
  databaseName: string | null;
  databases: readonly Database[];
  /** Configured databases nao cannot open (a type it cannot query, unset values): named, never run. */
  unavailable?: readonly { name: string; reason: string }[];
  /** The agent's result row limit: the reference is never cut shorter than the agent's data. */
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
  | 'QUERY_FAILED';

export type ReferenceRowsResult =
  | {
      success: true;
      databaseName: string;
      /** Column names in the reference's order. */
      columns: string[];
      /** The engine's type of each column, parallel to `columns`. */
      columnTypes: string[];
      rows: CellValue[][];
      /** The reference had more than `maxRows` rows. */
      truncated: boolean;
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
    return {
      success: false,
      code: 'QUERY_FAILED',
      error: `The reference SQL failed on database "${database.name}" (${database.dialect}): ${messageOf(error)}`,
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
    truncated: result.truncated,
    snapshotConsistent,
  };
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
  const wanted = name?.trim() ?? '';
  const configured = databases.length + unavailable.length;
  const blocked = unavailableReferenceDatabase({ databaseName: name, databases, unavailable });
  if (blocked !== undefined) {
    return {
      success: false,
      code: 'UNAVAILABLE_DATABASE',
      error: `The reference SQL cannot run: ${blocked.reason}`,
    };
  }
  const list = [...databases, ...unavailable].map((database) => `"${database.name}"`).join(', ');
  if (configured === 0) {
    return {
      success: false,
      code: 'NO_DATABASE',
      error: 'No database is configured; add one under `databases` in nao_config.yaml.',
    };
  }
  if (wanted === '') {
    if (configured === 1) return { success: true, database: databases[0]! };
    return {
      success: false,
      code: 'AMBIGUOUS_DATABASE',
      error: `Several databases are configured (${list}); set \`database\` in the test to the one its SQL runs on.`,
    };
  }
  const found = databases.find((database) => database.name === wanted);
  if (found === undefined) {
    return {
      success: false,
      code: 'UNKNOWN_DATABASE',
      error: `The test's database "${wanted}" is not configured; use one of ${list}.`,
    };
  }
  return { success: true, database: found };
}
