import { stat } from 'node:fs/promises';
import { NaoError } from '../../errors/index.js';
import { childModule, processPool } from '../../process-pool/index.js';
import type { Database, PlanOutcome, QueryOptions, QueryResult, TableInfo } from '../database.js';
import { NO_LIMITS, type QueryLimits, startQuery, stoppedError, watchQuery } from '../query-control.js';
import {
  connectionFailed,
  databaseClosed,
  messageOf,
  queryFailed,
  readOnlyViolation,
  type WarehouseError,
} from '../warehouse-error.js';

const SQLITE_JOB = childModule(import.meta.url, 'sqlite-job').entry;

type Request = { kind: 'open' } | { kind: 'query'; sql: string; maxRows: number } | { kind: 'tables' };

/** One request of a database, as the pool sends it to sqlite-job.ts; `open` only checks that the file opens. */
export type SqliteJob = Request & { file: string };

/** The codes of the errors sqlite-job.ts raises itself; better-sqlite3's own (SQLITE_…) reach nao as they are. */
export const SQLITE_JOB_CODES = {
  openFailed: 'NAO_SQLITE_OPEN_FAILED',
  refused: 'NAO_SQLITE_REFUSED',
} as const;

/**
 * Opens an SQLite file read-only (`readonly`, `fileMustExist`, plus `PRAGMA query_only`).
 * Each request is a job on the process pool, so that a time limit can really stop it (see
 * sqlite-job.ts); a database's requests may run side by side, as readers of one file.
 */
export async function openSqliteDatabase(options: { name: string; path: string }): Promise<Database> {
  const database = new SqliteDatabase(options.name, options.path);
  // SQLite would only say "unable to open database file"; and this spares a job.
  if (!(await isFile(options.path))) throw database.connectionFailed('no such file');
  await database.request(NO_LIMITS, { kind: 'open' });
  return database;
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

class SqliteDatabase implements Database {
  readonly dialect = 'sqlite' as const;
  private closed = false;
  /** Stops each request waiting or running: close stops them all. */
  private readonly inFlight = new Set<() => void>();

  constructor(
    readonly name: string,
    private readonly file: string,
  ) {}

  private get context() {
    return { database: this.name, dialect: this.dialect };
  }

  async query(sql: string, options?: QueryOptions): Promise<QueryResult> {
    const limits = startQuery({ database: this.name, dialect: this.dialect, sql, query: options });
    return (await this.request(limits, { kind: 'query', sql, maxRows: limits.maxRows })) as QueryResult;
  }

  /** EXPLAIN, on the SQL's first line, so the engine's line numbers are the SQL's own. */
  async plan(sql: string, options?: Pick<QueryOptions, 'timeoutMs' | 'signal'>): Promise<PlanOutcome> {
    await this.query(`EXPLAIN ${sql}`, { ...options, maxRows: 0 });
    return { planned: true };
  }

  async listTables(): Promise<TableInfo[]> {
    return (await this.request(NO_LIMITS, { kind: 'tables' })) as TableInfo[];
  }

  /** Stops what still runs or waits (the running request's worker is killed). */
  async close(): Promise<void> {
    this.closed = true;
    for (const stop of this.inFlight) stop();
  }

  /**
   * Runs one request as a job on the pool. The time limit counts from the call, the wait for
   * a free worker included: a query still waiting when it passes never starts; a running one
   * is killed with its worker.
   */
  async request(limits: QueryLimits, body: Request): Promise<unknown> {
    if (this.closed) throw databaseClosed(this.context);
    const stop = new AbortController();
    const cancel = () => stop.abort();
    const watch = watchQuery({ limits, cancel });
    this.inFlight.add(cancel);
    try {
      const job: SqliteJob = { ...body, file: this.file };
      return await processPool().run({ module: SQLITE_JOB, input: job, signal: stop.signal });
    } catch (error) {
      const halted = stoppedError({ ...this.context, reason: watch.reason, limits, cause: error });
      if (halted !== undefined) throw halted;
      if (this.closed) throw databaseClosed(this.context);
      throw this.failureError(error);
    } finally {
      watch.dispose();
      this.inFlight.delete(cancel);
    }
  }

  connectionFailed(engineMessage: string): WarehouseError {
    return connectionFailed({ ...this.context, target: this.file, engineMessage });
  }

  /** What the job raised, `JobLost` when its worker crashed under the query, or why no worker started. */
  private failureError(error: unknown): WarehouseError {
    const code = error instanceof NaoError ? error.code : '';
    if (code === SQLITE_JOB_CODES.openFailed) return this.connectionFailed(messageOf(error));
    const context = { ...this.context, engineMessage: messageOf(error), cause: error };
    // SQLITE_READONLY and its extended codes (SQLITE_READONLY_DBMOVED…), and what the job
    // refused before running it (VACUUM, ATTACH).
    return code.startsWith('SQLITE_READONLY') || code === SQLITE_JOB_CODES.refused
      ? readOnlyViolation(context)
      : queryFailed(context);
  }
}
