/**
 * One statement through trino-client: it follows the `nextUri` pages, keeps at most `maxRows`
 * rows (one more tells that the result was cut, and the rest is cancelled on the coordinator),
 * and cancels on request. Each statement has a client of its own, so what a statement sets in
 * the session (X-Trino-Set-Session, Set-Catalog…) never reaches the next one.
 */
import type { QueryError, QueryResult, Trino } from 'trino-client';
import { parseTrinoJson } from './trino-json.js';

export type TrinoDriver = Pick<typeof import('trino-client'), 'Trino' | 'BasicAuth'>;

/** A failure Trino reported for the statement (the `error` of its last page). */
export class TrinoStatementError extends Error {
  readonly errorName: string;
  readonly errorType: string;
  readonly errorCode: number;

  constructor(error: QueryError) {
    super(error.message);
    this.name = 'TrinoStatementError';
    this.errorName = error.errorName;
    this.errorType = error.errorType;
    this.errorCode = error.errorCode;
  }
}

export interface TrinoStatementOptions {
  driver: TrinoDriver;
  server: string;
  user: string;
  password: string | undefined;
  catalog: string;
  schema: string | undefined;
  sql: string;
  /** Trino's `query_max_run_time` for the statement, in milliseconds. */
  maxRunMs: number | undefined;
}

export interface TrinoStatementResult {
  columns: { name: string; type: string }[];
  rows: unknown[][];
  truncated: boolean;
}

/**
 * What trino-client keeps to itself and nao needs: the axios config of its requests (whose
 * JSON.parse would round BIGINTs beyond 2^53, see trino-json.ts) and the latest answer of an
 * iterator (its iterator yields nothing until data arrives, but a cancel needs the query id at once).
 */
interface ClientInternals {
  client?: { clientConfig?: { transformResponse?: unknown } };
}
interface IteratorInternals {
  iter?: { queryResult?: QueryResult };
}

function losslessJson(data: unknown): unknown {
  if (typeof data !== 'string' || data === '') return data;
  try {
    return parseTrinoJson(data);
  } catch {
    return data;
  }
}

export class TrinoStatement {
  private readonly trino: Trino;
  private iterator: IteratorInternals | undefined;
  private queryId: string | undefined;
  private cancelled = false;
  private cancelling: Promise<void> | undefined;

  constructor(private readonly options: TrinoStatementOptions) {
    const { driver } = options;
    this.trino = driver.Trino.create({
      server: options.server,
      source: 'nao',
      catalog: options.catalog,
      ...(options.schema === undefined ? {} : { schema: options.schema }),
      ...(options.password ? { auth: new driver.BasicAuth(options.user, options.password) } : {}),
      session: options.maxRunMs === undefined ? {} : { query_max_run_time: `${options.maxRunMs}ms` },
      extraHeaders: { 'X-Trino-User': options.user, 'X-Trino-Time-Zone': 'UTC' },
    });
    const config = (this.trino as unknown as ClientInternals).client?.clientConfig;
    if (config !== undefined) config.transformResponse = [losslessJson];
  }

  async run(maxRows: number): Promise<TrinoStatementResult> {
    const iterator = await this.trino.query(this.options.sql);
    this.iterator = iterator as unknown as IteratorInternals;
    if (this.cancelled) {
      await this.cancel();
      throw new Error('the statement was cancelled');
    }
    let columns: { name: string; type: string }[] = [];
    const rows: unknown[][] = [];
    let truncated = false;
    for (;;) {
      const { value, done } = await iterator.next();
      if (value?.id !== undefined) this.queryId = value.id;
      if (this.cancelled) throw new Error('the statement was cancelled');
      if (value?.error) throw new TrinoStatementError(value.error);
      if (value?.columns) columns = value.columns;
      // The last page comes twice: as a page, then again with `done`.
      if (done) break;
      for (const row of value.data ?? []) {
        if (rows.length < maxRows) {
          rows.push(row);
        } else {
          truncated = true;
          break;
        }
      }
      if (truncated) {
        await this.cancel();
        break;
      }
    }
    return { columns, rows, truncated };
  }

  /** Asks the coordinator to cancel the statement (DELETE /v1/query/{id}); never rejects. */
  cancel(): Promise<void> {
    this.cancelled = true;
    const id = this.queryId ?? this.iterator?.iter?.queryResult?.id;
    if (id === undefined) return Promise.resolve();
    this.cancelling ??= this.trino.cancel(id).then(
      () => {},
      () => {},
    );
    return this.cancelling;
  }
}
