import { stat } from 'node:fs/promises';
import type { Database, QueryOptions, QueryResult, TableInfo } from './database.js';
import { NO_LIMITS, type QueryLimits, startQuery, stoppedError, watchQuery } from './query-control.js';
import { SqliteOpenError, SqliteProcess, SqliteProcessExit } from './sqlite-process.js';
import { REFUSED_CODE, type SqliteFailure, type SqliteReply } from './sqlite-protocol.js';
import {
  connectionFailed,
  databaseClosed,
  messageOf,
  queryFailed,
  readOnlyViolation,
  type WarehouseError,
} from './warehouse-error.js';

/**
 * Opens an SQLite file read-only (`readonly`, `fileMustExist`, plus `PRAGMA query_only`).
 * Queries run in a child process so a time limit can really stop them (see
 * sqlite-query-process.ts); they run one at a time, in call order.
 */
export async function openSqliteDatabase(options: { name: string; path: string }): Promise<Database> {
  const process = await startProcess(options.name, options.path);
  return new SqliteDatabase(options.name, options.path, process);
}

async function startProcess(name: string, file: string): Promise<SqliteProcess> {
  // SQLite would only say "unable to open database file"; and this spares starting a process.
  if (!(await isFile(file))) {
    throw connectionFailed({
      database: name,
      dialect: 'sqlite',
      target: file,
      engineMessage: 'no such file',
    });
  }
  try {
    return await SqliteProcess.start(file);
  } catch (error) {
    const failure = error instanceof SqliteOpenError ? error.failure : undefined;
    const engineMessage = failure?.message ?? messageOf(error);
    throw connectionFailed({ database: name, dialect: 'sqlite', target: file, engineMessage });
  }
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
  /** Settles when every request issued so far has finished: the queue of the single process. */
  private tail: Promise<void> = Promise.resolve();

  constructor(
    readonly name: string,
    private readonly file: string,
    private process: SqliteProcess | undefined,
  ) {}

  private get context() {
    return { database: this.name, dialect: this.dialect };
  }

  async query(sql: string, options?: QueryOptions): Promise<QueryResult> {
    const limits = startQuery({ database: this.name, dialect: this.dialect, sql, query: options });
    const maxRows = limits.maxRows === Number.POSITIVE_INFINITY ? null : limits.maxRows;
    const reply = await this.exclusive(limits, { kind: 'query', sql, maxRows });
    if (reply.kind === 'result') return reply.result;
    throw this.unexpected(reply);
  }

  async listTables(): Promise<TableInfo[]> {
    const reply = await this.exclusive(NO_LIMITS, { kind: 'tables' });
    if (reply.kind === 'tables') return reply.tables;
    throw this.unexpected(reply);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const process = this.process;
    this.process = undefined;
    await process?.close();
  }

  /**
   * Runs one request when the process is free. The time limit counts from the call, queue
   * included: a query still waiting when it passes never starts; a running one is killed.
   */
  private async exclusive(
    limits: QueryLimits,
    body: { kind: 'query'; sql: string; maxRows: number | null } | { kind: 'tables' },
  ): Promise<SqliteReply> {
    const previous = this.tail;
    let finished!: () => void;
    const ours = new Promise<void>((resolve) => {
      finished = resolve;
    });
    this.tail = previous.then(() => ours);

    let running: SqliteProcess | undefined;
    let stopWaiting: ((error: Error) => void) | undefined;
    const watch = watchQuery({
      limits,
      cancel: () => {
        if (running !== undefined) running.kill();
        else stopWaiting?.(new Error('stopped while queued'));
      },
    });
    try {
      await new Promise<void>((resolve, reject) => {
        stopWaiting = reject;
        void previous.then(resolve);
      });
      stopWaiting = undefined;
      if (watch.reason !== undefined) throw new Error('stopped before it started');
      running = await this.ensureProcess();
      if (watch.reason !== undefined) throw new Error('stopped before it started');
      const reply = await running.request(body);
      if (reply.kind === 'failed') throw this.failureError(reply.failure);
      return reply;
    } catch (error) {
      const stopped = stoppedError({ ...this.context, reason: watch.reason, limits, cause: error });
      if (stopped !== undefined) throw stopped;
      if (this.closed) throw databaseClosed(this.context);
      if (error instanceof SqliteProcessExit) {
        throw queryFailed({ ...this.context, engineMessage: error.message, cause: error });
      }
      throw error;
    } finally {
      watch.dispose();
      finished();
    }
  }

  /** The running process, or a new one when the last was killed for a time limit. */
  private async ensureProcess(): Promise<SqliteProcess> {
    if (this.closed) throw databaseClosed(this.context);
    if (this.process?.alive) return this.process;
    const process = await startProcess(this.name, this.file);
    if (this.closed) {
      await process.close();
      throw databaseClosed(this.context);
    }
    this.process = process;
    return process;
  }

  private failureError(failure: SqliteFailure): WarehouseError {
    const context = { ...this.context, engineMessage: failure.message };
    // SQLITE_READONLY and its extended codes (SQLITE_READONLY_DBMOVED…), and what the query
    // process refused before running it (VACUUM, ATTACH).
    const code = failure.code ?? '';
    return code.startsWith('SQLITE_READONLY') || code === REFUSED_CODE
      ? readOnlyViolation(context)
      : queryFailed(context);
  }

  private unexpected(reply: SqliteReply): WarehouseError {
    return queryFailed({
      ...this.context,
      engineMessage: `unexpected reply from the SQLite query process: ${reply.kind}`,
    });
  }
}
