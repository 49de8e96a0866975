/**
 * What the warehouses behind a network driver (pg, mysql2, trino-client…) share: messages that name the
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
  WarehouseError,
  withErrorCode,
} from './warehouse-error.js';

/** What an engine's error code says about a failed query (its message already without secrets). */
export interface ServerErrorVerdict {
  /** `connection`: the request never reached the engine, or it refused the request itself. */
  kind: 'read-only' | 'timeout' | 'failed' | 'connection';
  /** The words handed on; the driver's message unless the engine explains it better. */
  engineMessage: string;
}

export type ServerConnectionOptions = {
  name: string;
  dialect: DatabaseDialect;
  /**
   * Stops whatever server session `sessionId` runs, from a separate connection; never rejects.
   * Absent for engines whose queries cancel their own requests (not through `watch`).
   */
  cancelSession?: (sessionId: number) => Promise<void>;
  classify: (error: unknown, message: string) => ServerErrorVerdict;
  /** The error whose words and code tell what failed, when the driver wraps it; the error itself by default. */
  rootCause?: (error: unknown) => unknown;
  /** The words of an error (of its root cause); `messageOf` by default. */
  describe?: (error: unknown) => string;
} & (
  | { fields: ServerConnectionFields; defaultPort: number }
  /** An engine without server fields: how messages name it (free of secrets), and what to redact. */
  | { target: string; secrets: string[] }
);

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
    this.target =
      'target' in options ? options.target : describeServerTarget(options.fields, options.defaultPort);
    this.secrets = 'target' in options ? options.secrets : secretsOf(options.fields);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /**
   * Runs the first check of a new pool; when it fails, the pool is ended and the failure is
   * CONNECTION_FAILED, or the check's own WarehouseError (a refused role says what to do itself).
   */
  async open(check: () => Promise<void>, end: () => Promise<void>): Promise<void> {
    try {
      await check();
    } catch (error) {
      this.closed = true;
      await end().catch(() => {});
      if (error instanceof WarehouseError) throw error;
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
    const cancel = this.options.cancelSession?.(sessionId) ?? Promise.resolve();
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
    const { cause, message } = this.read(error);
    return connectionFailed({
      ...this.context,
      target: this.target,
      engineMessage: withErrorCode(message, cause),
    });
  }

  /** The root cause of a failure, and its words without secrets. */
  private read(error: unknown): { cause: unknown; message: string } {
    const cause = this.options.rootCause?.(error) ?? error;
    return { cause, message: redactSecrets((this.options.describe ?? messageOf)(cause), this.secrets) };
  }

  /**
   * The error of a failed request; `limits` only for a query (a listing has no time limit).
   * nao's own verdicts (a refusal, QUERY_TIMEOUT, DATABASE_CLOSED) stand.
   */
  queryError(error: unknown, limits: QueryLimits | undefined): WarehouseError {
    if (error instanceof WarehouseError) return error;
    // Whatever close() interrupted failed because of the close, not because of its SQL.
    if (this.closed) return databaseClosed(this.context);
    const { cause, message } = this.read(error);
    // A Node error code instead of the engine's: the connection itself failed (server gone, network).
    const code = (cause as { code?: unknown } | null)?.code;
    if (typeof code === 'string' && /^(E[A-Z]+|PROTOCOL_CONNECTION_LOST)$/.test(code)) {
      return this.connectionError(error);
    }
    const verdict = this.options.classify(error, message);
    if (verdict.kind === 'connection') return this.connectionError(error);
    const context = { ...this.context, engineMessage: verdict.engineMessage, cause: error };
    if (verdict.kind === 'read-only') return readOnlyViolation(context);
    // The server's own limit counts only when it is nao's; one set on the server is an engine failure.
    if (verdict.kind === 'timeout' && limits?.timeoutMs !== undefined) {
      return queryTimeout({ ...context, timeoutMs: limits.timeoutMs });
    }
    return queryFailed(context);
  }
}
