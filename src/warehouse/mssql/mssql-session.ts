/**
 * One tedious connection, one request at a time: SQL batches (never sp_executesql, so the text
 * runs as written), the rows of the first result set streamed as they arrive, the time limit
 * and cancels as TDS ATTENTION (the server stops the batch and acknowledges it).
 */
import type { Connection, ConnectionConfiguration, ConnectionOptions, Request } from 'tedious';
import type { Tedious } from './mssql-driver.js';
import { encryptingConnector } from './mssql-encryption-guard.js';
import type { TdsColumn } from './mssql-value.js';

/**
 * A request that failed with the server's error, its time limit, or a cancel. It carries no
 * `code`, so it is never taken for a connection failure (tedious' codes look like Node's).
 */
export class TdsRequestFailure extends Error {
  constructor(
    message: string,
    readonly kind: 'sql' | 'timeout' | 'cancel',
    /** SQL Server's error number, for `sql`. */
    readonly number: number | undefined,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export interface StreamedRows {
  columns: TdsColumn[];
  rows: unknown[][];
  truncated: boolean;
}

let nextSessionId = 1;

const UNENCRYPTED =
  'the server answered that it cannot encrypt the connection while `encrypt` is on, so nao did not log in; ' +
  'set `encrypt: false` only for a server you reach over a network you trust';

export class TdsSession {
  /** nao's id of the session, for the watch of its queries. */
  readonly id = nextSessionId++;
  private ended = false;

  private constructor(
    private readonly tedious: Tedious,
    private readonly connection: Connection,
  ) {
    connection.on('end', () => {
      this.ended = true;
    });
    // Socket errors also fail the request in flight; this only keeps them from being thrown.
    connection.on('error', () => {
      this.ended = true;
    });
  }

  static open(tedious: Tedious, config: ConnectionConfiguration): Promise<TdsSession> {
    return new Promise((resolve, reject) => {
      let unencrypted = false;
      const guarded =
        config.options?.encrypt === true
          ? {
              ...config,
              options: {
                ...config.options,
                connector: encryptingConnector(() => {
                  unencrypted = true;
                }) as ConnectionOptions['connector'],
              },
            }
          : config;
      const connection = new tedious.Connection(guarded);
      const serverErrors: string[] = [];
      connection.on('errorMessage', (token: { message: string }) => serverErrors.push(token.message));
      connection.connect((error) => {
        if (error) {
          connection.close();
          reject(unencrypted ? new Error(UNENCRYPTED) : connectFailure(error, serverErrors));
        } else {
          resolve(new TdsSession(tedious, connection));
        }
      });
    });
  }

  get usable(): boolean {
    return !this.ended;
  }

  /** Runs a batch whose rows do not matter. */
  async run(sql: string): Promise<void> {
    await this.stream(sql, { maxRows: Number.POSITIVE_INFINITY });
  }

  /**
   * Runs `sql` as one batch and keeps up to `maxRows` rows of its first result set; at the
   * row past the cap, the batch is cancelled (ATTENTION) and the result marked truncated.
   */
  stream(sql: string, options: { maxRows: number; timeoutMs?: number | undefined }): Promise<StreamedRows> {
    const { maxRows } = options;
    return new Promise((resolve, reject) => {
      let columns: TdsColumn[] | undefined;
      let resultSets = 0;
      const rows: unknown[][] = [];
      let truncated = false;
      const request: Request = new this.tedious.Request(sql, (error) => {
        const result = { columns: columns ?? [], rows, truncated };
        if (!error || (truncated && (error as { code?: string }).code === 'ECANCEL')) resolve(result);
        else reject(requestFailure(error));
      });
      if (options.timeoutMs !== undefined) request.setTimeout(Math.max(1, Math.ceil(options.timeoutMs)));
      request.on('columnMetadata', (metadata: unknown) => {
        resultSets++;
        columns ??= metadata as TdsColumn[];
      });
      request.on('row', (values: { value: unknown }[]) => {
        if (resultSets !== 1 || truncated) return;
        if (rows.length < maxRows) {
          rows.push(values.map((column) => column.value));
        } else {
          truncated = true;
          this.connection.cancel();
        }
      });
      this.connection.execSqlBatch(request);
    });
  }

  /** Asks the server to stop the batch in flight; nothing when none runs. */
  cancel(): void {
    this.connection.cancel();
  }

  /** sp_reset_connection with tedious' session options: the session as it was when it logged in. */
  reset(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.connection.reset((error) => (error ? reject(requestFailure(error)) : resolve()));
    });
  }

  close(): void {
    this.ended = true;
    this.connection.close();
  }
}

/**
 * tedious' login failure with what it leaves out: every error the server sent (4060 "Cannot open
 * database" comes before 18456 "Login failed", and tedious keeps the last) and the socket's
 * code (ECONNREFUSED…) under its own ESOCKET.
 */
function connectFailure(error: Error, serverErrors: string[]): Error {
  const causes = (error.cause instanceof AggregateError ? error.cause.errors : [error.cause]) as (
    | { code?: unknown }
    | undefined
  )[];
  const socketCode = causes.map((cause) => cause?.code).find((code) => typeof code === 'string');
  const message = serverErrors.length > 1 ? serverErrors.join(' ') : error.message;
  return Object.assign(new Error(message), { code: socketCode ?? (error as { code?: unknown }).code });
}

/** tedious' request error as a TdsRequestFailure; connection errors (ESOCKET, ECLOSE…) stay as they are. */
function requestFailure(error: Error): unknown {
  if (error instanceof AggregateError) {
    // Several errors of one batch: the first one is the cause, the others follow from it.
    const errors = error.errors as { message: string; number?: number }[];
    const message = errors.map((each) => each.message).join(' ');
    return new TdsRequestFailure(message, 'sql', errors[0]?.number, { cause: error });
  }
  const { code, number } = error as { code?: string; number?: number };
  if (code === 'ETIMEOUT')
    return new TdsRequestFailure(error.message, 'timeout', undefined, { cause: error });
  if (code === 'ECANCEL') return new TdsRequestFailure(error.message, 'cancel', undefined, { cause: error });
  if (code === 'EREQUEST') return new TdsRequestFailure(error.message, 'sql', number, { cause: error });
  return error;
}
