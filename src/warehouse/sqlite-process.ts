import { type ChildProcess, fork } from 'node:child_process';
import { childModule, childReady, holdOpen } from './child-module.js';
import type { SqliteFailure, SqliteReply, SqliteRequest } from './sqlite-protocol.js';

const QUERY_PROCESS = childModule(import.meta.url, 'sqlite-query-process');

/** The query process could not open the database file. */
export class SqliteOpenError extends Error {
  constructor(readonly failure: SqliteFailure) {
    super(failure.message);
  }
}

/** The query process ended while a request was in flight (killed for a timeout, or crashed). */
export class SqliteProcessExit extends Error {}

type RequestBody = SqliteRequest extends infer Request
  ? Request extends unknown
    ? Omit<Request, 'id'>
    : never
  : never;

/** The parent's handle on one query process (sqlite-query-process.ts): one request at a time. */
export class SqliteProcess {
  private nextId = 1;
  private pending:
    | { id: number; resolve: (reply: SqliteReply) => void; reject: (error: Error) => void }
    | undefined;
  private exited = false;
  private stderr = '';
  private readonly exit: Promise<void>;

  private constructor(private readonly child: ChildProcess) {
    this.exit = new Promise((resolve) => child.once('exit', () => resolve()));
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (text: string) => {
      // Only the tail matters: it holds the reason of a crash.
      this.stderr = (this.stderr + text).slice(-2000);
    });
    child.on('message', (reply: SqliteReply) => {
      const pending = this.pending;
      if (pending === undefined || !('id' in reply) || reply.id !== pending.id) return;
      this.pending = undefined;
      this.idle();
      pending.resolve(reply);
    });
    child.on('exit', (code, signal) => {
      this.exited = true;
      const pending = this.pending;
      this.pending = undefined;
      const reason = signal === null ? `exit code ${code}` : `signal ${signal}`;
      const detail = this.stderr.trim() === '' ? '' : `: ${this.stderr.trim()}`;
      pending?.reject(new SqliteProcessExit(`the SQLite query process ended (${reason})${detail}`));
    });
  }

  /** Starts a query process on `file`; rejects with SqliteOpenError when SQLite cannot open it. */
  static start(file: string): Promise<SqliteProcess> {
    const child = fork(QUERY_PROCESS.entry, [file], {
      execArgv: QUERY_PROCESS.execArgv,
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'json',
    });
    const handle = new SqliteProcess(child);
    return childReady<SqliteReply>(child, {
      refused: (reply) => (reply.kind === 'open-failed' ? new SqliteOpenError(reply.failure) : undefined),
      ended: () =>
        new SqliteProcessExit(
          `the SQLite query process ended before opening the database: ${handle.stderr.trim()}`,
        ),
    }).then(
      () => {
        handle.idle();
        return handle;
      },
      (error: unknown) => {
        if (error instanceof SqliteOpenError) child.disconnect();
        throw error;
      },
    );
  }

  get alive(): boolean {
    return !this.exited;
  }

  request(body: RequestBody): Promise<SqliteReply> {
    if (this.exited) return Promise.reject(new SqliteProcessExit('the SQLite query process has ended'));
    if (this.pending !== undefined)
      return Promise.reject(new Error('SqliteProcess runs one request at a time'));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending = { id, resolve, reject };
      this.busy();
      this.child.send({ ...body, id } as SqliteRequest, (error) => {
        if (error && this.pending?.id === id) {
          this.pending = undefined;
          reject(error);
        }
      });
    });
  }

  /** Stops the process at once, whatever it is doing; the request in flight rejects with SqliteProcessExit. */
  kill(): void {
    if (!this.exited) this.child.kill('SIGKILL');
  }

  /** Asks the process to exit and waits for it; kills it if it is stuck in a query. */
  async close(): Promise<void> {
    if (this.exited) return;
    if (this.pending !== undefined) this.kill();
    else if (this.child.connected) this.child.disconnect();
    const timer = setTimeout(() => this.kill(), 2000);
    await this.exit;
    clearTimeout(timer);
  }

  // An idle process must not keep nao running; one with a request in flight must.
  private idle(): void {
    holdOpen(this.child, false);
  }

  private busy(): void {
    holdOpen(this.child, true);
  }
}
