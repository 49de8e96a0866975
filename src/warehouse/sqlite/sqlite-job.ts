/**
 * One SQLite request of a `SqliteDatabase`, run as a job in a pool worker (process-pool/).
 * better-sqlite3 runs a statement synchronously in native code and exposes neither
 * sqlite3_interrupt nor a progress handler, so nothing in the same process can stop a runaway
 * query (Worker.terminate() waits for the native call to return — a recursive CTE never
 * does). A worker can be killed: the pool does when the time limit passes.
 */
import Database from 'better-sqlite3';
import { messageOf, NaoError } from '../../errors/index.js';
import type { ColumnInfo, QueryResult, TableInfo } from '../database.js';
import { SQLITE_JOB_CODES, type SqliteJob } from './sqlite-database.js';
import { sqliteStorageClass, sqliteValueToCell } from './sqlite-value.js';

function openReadOnly(file: string): Database.Database {
  try {
    const db = new Database(file, { readonly: true, fileMustExist: true });
    db.defaultSafeIntegers(true);
    // Reads the header, so a file that is not an SQLite database fails now rather than at the first query.
    db.pragma('schema_version');
    return db;
  } catch (error) {
    throw new NaoError({ code: SQLITE_JOB_CODES.openFailed, message: messageOf(error) });
  }
}

/**
 * Refuses, before they run, the statements whose harm a read-only connection only notices once
 * running: `VACUUM INTO 'file'` creates its (empty) target before the copy is refused, and
 * `ATTACH 'file'` opens any SQLite file the process can read. better-sqlite3 exposes no
 * authorizer (sqlite3_set_authorizer) and no sqlite3_limit(SQLITE_LIMIT_ATTACHED), so the
 * check asks SQLite itself, about the statement it compiled:
 * - `statement.readonly` is sqlite3_stmt_readonly: false for VACUUM and anything that writes;
 * - ATTACH and DETACH count as read-only there (they change the connection, not a file), but
 *   their compiled program (EXPLAIN) calls SQLite's internal sqlite_attach / sqlite_detach,
 *   which no SQL can call by name. Only statements that return no rows can be one of them.
 */
function refusal(db: Database.Database, sql: string, statement: Database.Statement): string | undefined {
  if (!statement.readonly) {
    return 'the statement would write (VACUUM, VACUUM INTO, INSERT, CREATE, a PRAGMA that sets a value…)';
  }
  if (statement.reader) return undefined;
  const program = db.prepare(`EXPLAIN ${sql}`).all() as { opcode: string; p4: unknown }[];
  const attaches = program.some(
    (op) => op.opcode === 'Function' && /^sqlite_(attach|detach)\(/.test(String(op.p4)),
  );
  return attaches
    ? 'ATTACH and DETACH are not allowed: nao reads only the configured database file'
    : undefined;
}

function runQuery(db: Database.Database, sql: string, maxRows: number | null): QueryResult {
  // The connection is opened read-only; query_only also refuses what a read-only connection
  // lets through (writes to an ATTACHed ':memory:' or the temp schema).
  // Set before every query, since a query may have been `PRAGMA query_only = OFF`.
  db.pragma('query_only = ON');
  const statement = db.prepare(sql);
  const refused = refusal(db, sql, statement);
  if (refused !== undefined) throw new NaoError({ code: SQLITE_JOB_CODES.refused, message: refused });
  if (!statement.reader) {
    statement.run();
    return { columns: [], rows: [], truncated: false };
  }
  statement.raw(true);
  const declared = statement.columns();
  const seen: (string | undefined)[] = declared.map(() => undefined);
  const limit = maxRows ?? Number.POSITIVE_INFINITY;
  const rows: QueryResult['rows'] = [];
  let truncated = false;
  for (const row of statement.iterate() as Iterable<unknown[]>) {
    if (rows.length >= limit) {
      truncated = true;
      break;
    }
    rows.push(
      row.map((value, index) => {
        if (seen[index] === undefined) seen[index] = sqliteStorageClass(value);
        return sqliteValueToCell(value);
      }),
    );
  }
  const columns: ColumnInfo[] = declared.map((column, index) => ({
    name: column.name,
    // Expressions have no declared type; the storage class of their first value is the best answer.
    type: column.type ?? seen[index] ?? 'NULL',
  }));
  return { columns, rows, truncated };
}

function listTables(db: Database.Database): TableInfo[] {
  const names = db
    .prepare(
      "SELECT name FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name",
    )
    .pluck()
    .all() as string[];
  const columnsOf = db.prepare('SELECT name, type FROM pragma_table_info(?) ORDER BY cid');
  return names.map((name) => {
    let columns: ColumnInfo[] = [];
    try {
      columns = (columnsOf.all(name) as { name: string; type: string }[]).map((column) => ({
        name: column.name,
        type: column.type,
      }));
    } catch {
      // A view over a table that no longer exists cannot be described; list it without columns.
    }
    return { schema: null, name, columns };
  });
}

/** Opens the file read-only for this one request: the file may have changed since the last. */
export async function runJob(input: unknown): Promise<QueryResult | TableInfo[] | null> {
  const job = input as SqliteJob;
  const db = openReadOnly(job.file);
  // An error's code (better-sqlite3's SQLITE_READONLY…) crosses the pool with it.
  try {
    if (job.kind === 'open') return null;
    return job.kind === 'tables' ? listTables(db) : runQuery(db, job.sql, job.maxRows);
  } finally {
    db.close();
  }
}
