import { stat } from 'node:fs/promises';
import { childModule, JobLost, processPool } from '../../process-pool/index.js';
import type { Database, QueryOptions, QueryResult, TableInfo } from '../database.js';
import {
  NO_LIMITS,
  type QueryLimits,
  startQuery,
  stoppedError,
  stopRace,
  watchQuery,
} from '../query-control.js';
import {
  connectionFailed,
  databaseClosed,
  messageOf,
  queryFailed,
  readOnlyViolation,
  type WarehouseError,
} from '../warehouse-error.js';
import { REFUSED_CODE, type SqliteFailure, type SqliteJob, type SqliteReply } from './sqlite-protocol.js';

const SQLITE_JOB = childModule(import.meta.url, 'sqlite-job').entry;

type Request = SqliteJob extends infer Job ? (Job extends unknown ? Omit<Job, 'file'> : never) : never;

/**
 * Opens an SQLite file read-only (`readonly`, `fileMustExist`, plus `PRAGMA query_only`).
 * Each request is a job on the process pool, so that a time limit can really stop it (see
 * sqlite-job.ts); a database's requests run one at a time, in call order.
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
  /** Settles when every request issued so far has finished. */
  private tail: Promise<void> = Promise.resolve();
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
    const reply = await this.request(limits, { kind: 'query', sql, maxRows: limits.maxRows });
    if (reply.kind === 'result') return reply.result;
    throw this.unexpected(reply);
  }

  async listTables(): Promise<TableInfo[]> {
    const reply = await this.request(NO_LIMITS, { kind: 'tables' });
    if (reply.kind === 'tables') return reply.tables;
    throw this.unexpected(reply);
  }

  /** Stops what still runs or waits (the running request's worker is killed). */
  async close(): Promise<void> {
    this.closed = true;
    for (const stop of this.inFlight) stop();
  }

  /**
   * Runs one request once the previous ones have finished. The time limit counts from the
   * call, queue included: a query still waiting when it passes never starts; a running one is
   * killed with its worker.
   */
  async request(limits: QueryLimits, body: Request): Promise<SqliteReply> {
    const previous = this.tail;
    let finished!: () => void;
    const ours = new Promise<void>((resolve) => {
      finished = resolve;
    });
    this.tail = previous.then(() => ours);
    const stop = new AbortController();
    const stopped = stopRace();
    const cancel = () => {
      stopped.reject(new Error('stopped'));
      stop.abort();
    };
    const watch = watchQuery({ limits, cancel });
    this.inFlight.add(cancel);
    try {
      await Promise.race([previous, stopped.promise]);
      if (this.closed) throw databaseClosed(this.context);
      const job: SqliteJob = { ...body, file: this.file };
      const reply = await processPool().run<SqliteReply>({
        module: SQLITE_JOB,
        input: job,
        graceMs: 0,
        signal: stop.signal,
      });
      if (reply.kind === 'open-failed') throw this.connectionFailed(reply.failure.message);
      if (reply.kind === 'failed') throw this.failureError(reply.failure);
      return reply;
    } catch (error) {
      const halted = stoppedError({ ...this.context, reason: watch.reason, limits, cause: error });
      if (halted !== undefined) throw halted;
      if (this.closed) throw databaseClosed(this.context);
      // The worker crashed under the query.
      if (error instanceof JobLost) {
        throw queryFailed({ ...this.context, engineMessage: messageOf(error), cause: error });
      }
      throw error;
    } finally {
      watch.dispose();
      this.inFlight.delete(cancel);
      finished();
    }
  }

  connectionFailed(engineMessage: string): WarehouseError {
    return connectionFailed({ ...this.context, target: this.file, engineMessage });
  }

  private failureError(failure: SqliteFailure): WarehouseError {
    const context = { ...this.context, engineMessage: failure.message };
    // SQLITE_READONLY and its extended codes (SQLITE_READONLY_DBMOVED…), and what the worker
    // refused before running it (VACUUM, ATTACH).
    const code = failure.code ?? '';
    return code.startsWith('SQLITE_READONLY') || code === REFUSED_CODE
      ? readOnlyViolation(context)
      : queryFailed(context);
  }

  private unexpected(reply: SqliteReply): WarehouseError {
    return queryFailed({
      ...this.context,
      engineMessage: `unexpected reply from the SQLite job: ${reply.kind}`,
    });
  }
}
