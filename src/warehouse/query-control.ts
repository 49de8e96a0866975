import type { DatabaseDialect, QueryOptions } from './database.js';
import { queryFailed, queryTimeout, WarehouseError } from './warehouse-error.js';

/** Query options after validation: `maxRows` is Infinity when unlimited. */
export interface QueryLimits {
  maxRows: number;
  timeoutMs: number | undefined;
  signal: AbortSignal | undefined;
}

/** The limits of nao's own requests (checks, listings): every row, no time limit, no signal. */
export const NO_LIMITS: Readonly<QueryLimits> = {
  maxRows: Number.POSITIVE_INFINITY,
  timeoutMs: undefined,
  signal: undefined,
};

/**
 * Checks one query call before any engine work: an already aborted signal rejects with its
 * reason, empty SQL and malformed limits are refused with a message naming the value.
 */
export function startQuery(options: {
  database: string;
  dialect: DatabaseDialect;
  sql: string;
  query: QueryOptions | undefined;
}): QueryLimits {
  const { database, dialect, sql } = options;
  const query = options.query ?? {};
  query.signal?.throwIfAborted();
  const invalid = (message: string) =>
    new WarehouseError({ code: 'INVALID_QUERY_OPTIONS', database, dialect, message });
  if (typeof sql !== 'string' || sql.trim() === '') {
    throw queryFailed({ database, dialect, engineMessage: 'the query is empty' });
  }
  const { maxRows, timeoutMs } = query;
  if (
    maxRows !== undefined &&
    maxRows !== Number.POSITIVE_INFINITY &&
    !(Number.isSafeInteger(maxRows) && maxRows >= 0)
  ) {
    throw invalid(`maxRows must be a non-negative integer, got ${String(maxRows)} (query on "${database}").`);
  }
  if (timeoutMs !== undefined && !(Number.isFinite(timeoutMs) && timeoutMs > 0)) {
    throw invalid(
      `timeoutMs must be a positive number of milliseconds, got ${String(timeoutMs)} (query on "${database}").`,
    );
  }
  return { maxRows: maxRows ?? Number.POSITIVE_INFINITY, timeoutMs, signal: query.signal };
}

export type StopReason = 'timeout' | 'abort';

/** The `graceMs` of engines that enforce nao's time limit themselves: how long nao waits for theirs before cancelling. */
export const ENGINE_LIMIT_GRACE_MS = 2000;

export interface QueryWatch {
  /** Why the query was stopped, once the timer or the signal fired. */
  readonly reason: StopReason | undefined;
  dispose(): void;
}

/**
 * Arms the wall-clock limit and the abort signal of one query; when either fires, `cancel`
 * asks the engine to stop. `graceMs` delays the timer for engines that enforce the limit
 * themselves, so the client only steps in when the server did not.
 */
export function watchQuery(options: {
  limits: QueryLimits;
  cancel: (reason: StopReason) => void;
  graceMs?: number;
}): QueryWatch {
  const { limits, cancel } = options;
  let reason: StopReason | undefined;
  const stop = (why: StopReason) => {
    if (reason !== undefined) return;
    reason = why;
    try {
      cancel(why);
    } catch {
      // Cancelling is best effort: the engine may have finished between the timer and now.
    }
  };
  const timer =
    limits.timeoutMs === undefined
      ? undefined
      : setTimeout(() => stop('timeout'), limits.timeoutMs + (options.graceMs ?? 0));
  const onAbort = () => stop('abort');
  limits.signal?.addEventListener('abort', onAbort, { once: true });
  return {
    get reason() {
      return reason;
    },
    dispose() {
      if (timer !== undefined) clearTimeout(timer);
      limits.signal?.removeEventListener('abort', onAbort);
    },
  };
}

/**
 * The error a stopped query rejects with: the signal's own reason for an abort (as `fetch`
 * does), QUERY_TIMEOUT for the limit. Undefined when the query was not stopped by nao.
 */
export function stoppedError(options: {
  database: string;
  dialect: DatabaseDialect;
  reason: StopReason | undefined;
  limits: QueryLimits;
  cause?: unknown;
}): unknown {
  const { reason, limits } = options;
  if (reason === 'abort') return limits.signal?.reason;
  if (reason === 'timeout') {
    return queryTimeout({
      database: options.database,
      dialect: options.dialect,
      timeoutMs: limits.timeoutMs ?? 0,
      cause: options.cause,
    });
  }
  return undefined;
}

/**
 * A promise that only rejects, with the error given to `reject`: raced against a query's work,
 * it ends the wait as soon as nao stops the query. It never counts as an unhandled rejection.
 */
export function stopRace(): { promise: Promise<never>; reject: (error: unknown) => void } {
  let reject: (error: unknown) => void = () => {};
  const promise = new Promise<never>((_resolve, rejectPromise) => {
    reject = rejectPromise;
  });
  promise.catch(() => {});
  return { promise, reject };
}
