/**
 * What the warehouses behind a network driver (pg, mysql2) share: messages that name the
 * server but never its password, driver errors as `WarehouseError`s, the server sessions with
 * a query in flight (a time limit, an abort or close() stops them from a separate connection,
 * since neither protocol can cancel on the connection that is busy), and a close that runs once.
 */
import {
  describeServerTarget,
  redactSecrets,
  type ServerConnectionFields,
  secretsOf,
} from './connection-target.js';
import type { DatabaseDialect } from './database.js';
import { ENGINE_LIMIT_GRACE_MS, type QueryLimits, stoppedError, watchQuery } from './query-control.js';
import {
  connectionFailed,
  databaseClosed,
  messageOf,
  queryFailed,
  queryTimeout,
  readOnlyViolation,
  type WarehouseError,
  withErrorCode,
} from './warehouse-error.js';

/** What an engine's error code says about a failed query (its message already without secrets). */
export interface ServerErrorVerdict {
  kind: 'read-only' | 'timeout' | 'failed';
  /** The words handed on; the driver's message unless the engine explains it better. */
  engineMessage: string;
}

export interface ServerConnectionOptions {
  name: string;
  dialect: DatabaseDialect;
  fields: ServerConnectionFields;
  defaultPort: number;
  /** Stops whatever server session `sessionId` runs, from a separate connection; never rejects. */
  cancelSession: (sessionId: number) => Promise<void>;
  classify: (error: unknown, message: string) => ServerErrorVerdict;
}

/** One query's watch: see `ServerConnection.watch`. */
export interface ServerQueryWatch {
  /** True once nao cancelled the query: its session may still be receiving the cancel and must not be reused. */
  readonly cancelled: boolean;
  /** The error of a query nao stopped (the signal's reason, QUERY_TIMEOUT); undefined otherwise. */
  stopped(cause?: unknown): unknown;
  /** Throws `stopped()` once nao stopped the query: what the engine answered after that means nothing. */
  throwIfStopped(): void;
  /** The error a failed query rejects with. */
  failure(error: unknown): unknown;
  /** Disarms the watch and waits for a cancel already sent: the session must outlive the cancel aimed at it. */
  finish(): Promise<void>;
}

export class ServerConnection {
  private readonly context: { database: string; dialect: DatabaseDialect };
  private readonly target: string;
  private readonly secrets: string[];
  private closed = false;
  /** Sessions with a query in flight, stopped by close(). */
  private readonly running = new Set<number>();
  /** Cancels on their way, awaited by close(). */
  private readonly cancels = new Set<Promise<void>>();

  constructor(private readonly options: ServerConnectionOptions) {
    this.context = { database: options.name, dialect: options.dialect };
    this.target = describeServerTarget(options.fields, options.defaultPort);
    this.secrets = secretsOf(options.fields);
  }

  /** Runs the first check of a new pool; when it fails, the pool is ended and the failure is CONNECTION_FAILED. */
  async open(check: () => Promise<void>, end: () => Promise<void>): Promise<void> {
    try {
      await check();
    } catch (error) {
      this.closed = true;
      await end().catch(() => {});
      throw this.connectionError(error);
    }
  }

  /** A connection from the pool: DATABASE_CLOSED once closed, CONNECTION_FAILED when the server cannot be reached. */
  async acquire<Connection>(connect: () => Promise<Connection>): Promise<Connection> {
    if (this.closed) throw databaseClosed(this.context);
    try {
      return await connect();
    } catch (error) {
      throw this.connectionError(error);
    }
  }

  /**
   * Arms the time limit and the abort signal of one query on server session `sessionId`. The
   * server enforces the limit itself; nao cancels only `ENGINE_LIMIT_GRACE_MS` later, or at once on abort.
   */
  watch(limits: QueryLimits, sessionId: number | null): ServerQueryWatch {
    if (sessionId !== null) this.running.add(sessionId);
    let cancelling: Promise<void> | undefined;
    const watch = watchQuery({
      limits,
      graceMs: ENGINE_LIMIT_GRACE_MS,
      cancel: () => {
        if (sessionId !== null) cancelling = this.cancel(sessionId);
      },
    });
    const stopped = (cause?: unknown) =>
      stoppedError({ ...this.context, reason: watch.reason, limits, cause });
    return {
      get cancelled() {
        return watch.reason !== undefined;
      },
      stopped,
      throwIfStopped: () => {
        const error = stopped();
        if (error !== undefined) throw error;
      },
      failure: (error) => stopped(error) ?? this.queryError(error, limits),
      finish: async () => {
        watch.dispose();
        if (sessionId !== null) this.running.delete(sessionId);
        await cancelling;
      },
    };
  }

  /** Stops what server session `sessionId` runs; close() waits for it. */
  cancel(sessionId: number): Promise<void> {
    const cancel = this.options.cancelSession(sessionId);
    this.cancels.add(cancel);
    void cancel.finally(() => this.cancels.delete(cancel));
    return cancel;
  }

  /** Stops the queries in flight, waits for the cancels, then ends the pool; calling it again does nothing. */
  async close(end: () => Promise<void>): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const sessionId of this.running) void this.cancel(sessionId);
    await Promise.all(this.cancels);
    await end();
  }

  /** CONNECTION_FAILED naming the server, with the driver's code (ECONNREFUSED…) when its message lacks it. */
  private connectionError(error: unknown): WarehouseError {
    const engineMessage = withErrorCode(redactSecrets(messageOf(error), this.secrets), error);
    return connectionFailed({ ...this.context, target: this.target, engineMessage });
  }

  /** The error of a failed request; `limits` only for a query (a listing has no time limit). */
  queryError(error: unknown, limits: QueryLimits | undefined): WarehouseError {
    // Whatever close() interrupted failed because of the close, not because of its SQL.
    if (this.closed) return databaseClosed(this.context);
    // A Node error code instead of the engine's: the connection itself failed (server gone, network).
    const code = (error as { code?: unknown } | null)?.code;
    if (typeof code === 'string' && /^(E[A-Z]+|PROTOCOL_CONNECTION_LOST)$/.test(code)) {
      return this.connectionError(error);
    }
    const verdict = this.options.classify(error, redactSecrets(messageOf(error), this.secrets));
    const context = { ...this.context, engineMessage: verdict.engineMessage, cause: error };
    if (verdict.kind === 'read-only') return readOnlyViolation(context);
    // The server's own limit counts only when it is nao's; one set on the server is an engine failure.
    if (verdict.kind === 'timeout' && limits?.timeoutMs !== undefined) {
      return queryTimeout({ ...context, timeoutMs: limits.timeoutMs });
    }
    return queryFailed(context);
  }
}
