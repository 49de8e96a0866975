import { randomBytes } from 'node:crypto';
import type { EventEmitter } from 'node:events';
import mysql from 'mysql2/promise';
import type { DatabaseConfig } from '../config/schema.js';
import { describeServerTarget, redactSecrets, secretsOf } from './connection-target.js';
import type { CellValue, Database, QueryOptions, QueryResult, TableInfo } from './database.js';
import { type MysqlField, mysqlCellConverter, mysqlTypeName } from './mysql-value.js';
import { type QueryLimits, startQuery, stoppedError, watchQuery } from './query-control.js';
import {
  databaseClosed,
  messageOf,
  queryFailed,
  queryTimeout,
  readOnlyViolation,
  serverConnectionFailed,
  type WarehouseError,
} from './warehouse-error.js';

export type MysqlDatabaseConfig = Extract<DatabaseConfig, { type: 'mysql' }>;

/** How long past `timeoutMs` nao waits for the server's own statement limit before killing the query itself. */
const CLIENT_GRACE_MS = 2000;

/** The callback-API connection under a promise one: the only mysql2 API that streams rows as events. */
interface StreamingConnection {
  threadId: number | null;
  query(options: { sql: string; rowsAsArray: boolean }): EventEmitter;
}

/**
 * Opens a pool to a MySQL or MariaDB server and checks that it answers.
 *
 * Why each query runs inside `SET SESSION TRANSACTION READ ONLY` + `XA START … XA END; XA
 * ROLLBACK` and not just `START TRANSACTION READ ONLY`: on MariaDB (tested on 10.11) a
 * read-only transaction refuses INSERT/UPDATE/DELETE, but DDL (DROP, CREATE, TRUNCATE,
 * RENAME, ALTER), account statements and COMMIT implicitly commit it and then succeed. Inside
 * an active XA transaction every statement that would commit implicitly fails with XAER_RMFAIL,
 * and the read-only characteristic still refuses writes to every engine, MyISAM included.
 * `multipleStatements` stays off, so a query is one statement.
 *
 * What the engine does not cover, so nao's user should not hold these privileges: FILE
 * (`SELECT … INTO OUTFILE` writes server files), SUPER/SYSTEM_VARIABLES_ADMIN (`SET GLOBAL`),
 * CONNECTION ADMIN (`KILL` of other sessions).
 */
export async function openMysqlDatabase(config: MysqlDatabaseConfig): Promise<Database> {
  const database = new MysqlDatabase(config);
  await database.check();
  return database;
}

class MysqlDatabase implements Database {
  readonly dialect = 'mysql' as const;
  readonly name: string;
  private readonly pool: mysql.Pool;
  private readonly options: mysql.PoolOptions;
  private readonly target: string;
  private readonly secrets: string[];
  /** MariaDB limits statements with max_statement_time (seconds), MySQL with max_execution_time (ms, SELECT only). */
  private flavor: 'mariadb' | 'mysql' = 'mysql';
  /** Server thread ids of queries in flight, killed by close(). */
  private readonly running = new Set<number>();
  /** KILL QUERY requests still on their way, awaited by close(). */
  private readonly kills = new Set<Promise<void>>();
  private closed = false;

  constructor(config: MysqlDatabaseConfig) {
    this.name = config.name;
    this.target = describeServerTarget(config, 3306);
    this.secrets = secretsOf(config);
    this.options = {
      ...(config.url === undefined ? {} : { uri: config.url }),
      host: config.host,
      port: config.port,
      user: config.user,
      password: config.password,
      database: config.database,
      supportBigNumbers: true,
      bigNumberStrings: true,
      decimalNumbers: false,
      dateStrings: true,
      jsonStrings: true,
      multipleStatements: false,
      charset: 'utf8mb4',
      connectTimeout: 10_000,
    };
    this.pool = mysql.createPool({ ...this.options, connectionLimit: 4, maxIdle: 4, idleTimeout: 30_000 });
  }

  async check(): Promise<void> {
    try {
      const [rows] = await this.pool.query<mysql.RowDataPacket[]>('SELECT VERSION() AS version');
      this.flavor = String(rows[0]?.version ?? '').includes('MariaDB') ? 'mariadb' : 'mysql';
    } catch (error) {
      this.closed = true;
      await this.pool.end().catch(() => {});
      throw this.connectionError(error);
    }
  }

  async query(sql: string, options?: QueryOptions): Promise<QueryResult> {
    const limits = startQuery({ database: this.name, dialect: this.dialect, sql, query: options });
    const connection = await this.connect();
    const streaming = connection.connection as unknown as StreamingConnection;
    const threadId = streaming.threadId;
    if (threadId !== null) this.running.add(threadId);
    let discard = false;
    let killing: Promise<void> | undefined;
    let capped = false;
    const watch = watchQuery({
      limits,
      graceMs: CLIENT_GRACE_MS,
      cancel: () => {
        discard = true;
        if (threadId !== null) killing = this.killQuery(threadId);
      },
    });
    const xid = `'nao-${randomBytes(8).toString('hex')}'`;
    let started = false;
    try {
      await connection.query('SET SESSION TRANSACTION READ ONLY');
      await connection.query(`SET autocommit = 1, time_zone = '+00:00', ${this.timeLimit(limits)}`);
      await connection.query(`XA START ${xid}`);
      started = true;
      const result = await streamRows(streaming, sql, limits.maxRows);
      const stopped = stoppedError({
        database: this.name,
        dialect: this.dialect,
        reason: watch.reason,
        limits,
      });
      // A killed SLEEP() returns 1 instead of failing: once nao stopped a query, its rows mean nothing.
      if (stopped !== undefined) throw stopped;
      // The server is still producing rows past the cap: drop the connection that has the rest
      // of them in flight, then stop the statement (below).
      capped = result.truncated;
      if (capped) discard = true;
      const converters = result.fields.map(mysqlCellConverter);
      return {
        columns: result.fields.map((field) => ({ name: field.name, type: mysqlTypeName(field) })),
        rows: result.rows.map((row) => row.map((value, index): CellValue => converters[index]!(value))),
        truncated: result.truncated,
      };
    } catch (error) {
      throw (
        stoppedError({
          database: this.name,
          dialect: this.dialect,
          reason: watch.reason,
          limits,
          cause: error,
        }) ?? this.queryError(error, limits)
      );
    } finally {
      watch.dispose();
      if (threadId !== null) this.running.delete(threadId);
      await killing;
      // A failure before XA START leaves the session in a state nao did not choose.
      if (!started) discard = true;
      if (started && !discard) discard = !(await endTransaction(connection, xid));
      // A dropped connection takes its XA transaction with it: the server rolls it back.
      if (discard) connection.destroy();
      else connection.release();
      // Thread ids come from an ever-growing counter: a KILL landing after the connection is gone hits nothing.
      if (capped && threadId !== null) void this.killQuery(threadId);
    }
  }

  async listTables(): Promise<TableInfo[]> {
    const connection = await this.connect();
    try {
      const [rows] = await connection.query<mysql.RowDataPacket[]>({
        sql: `SELECT c.TABLE_SCHEMA, c.TABLE_NAME, c.COLUMN_NAME, c.COLUMN_TYPE
                FROM information_schema.COLUMNS c
               WHERE (DATABASE() IS NOT NULL AND c.TABLE_SCHEMA = DATABASE())
                  OR (DATABASE() IS NULL
                      AND c.TABLE_SCHEMA NOT IN ('mysql', 'information_schema', 'performance_schema', 'sys'))
               ORDER BY c.TABLE_SCHEMA, c.TABLE_NAME, c.ORDINAL_POSITION`,
        rowsAsArray: true,
      });
      const tables: TableInfo[] = [];
      for (const [schema, table, column, type] of rows as unknown as string[][]) {
        let last = tables.at(-1);
        if (last === undefined || last.schema !== schema || last.name !== table) {
          last = { schema: schema!, name: table!, columns: [] };
          tables.push(last);
        }
        last.columns.push({ name: column!, type: type! });
      }
      return tables;
    } catch (error) {
      throw this.queryError(error, undefined);
    } finally {
      connection.release();
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const threadId of this.running) void this.killQuery(threadId);
    await Promise.all(this.kills);
    await this.pool.end();
  }

  private timeLimit(limits: QueryLimits): string {
    const ms = limits.timeoutMs === undefined ? 0 : Math.max(1, Math.ceil(limits.timeoutMs));
    return this.flavor === 'mariadb' ? `max_statement_time = ${ms / 1000}` : `max_execution_time = ${ms}`;
  }

  private async connect(): Promise<mysql.PoolConnection> {
    if (this.closed) throw databaseClosed({ database: this.name, dialect: this.dialect });
    try {
      return await this.pool.getConnection();
    } catch (error) {
      throw this.connectionError(error);
    }
  }

  /** Stops the statement of server thread `threadId` from a separate connection (the protocol has no cancel). */
  private killQuery(threadId: number): Promise<void> {
    const kill = (async () => {
      let connection: mysql.Connection | undefined;
      try {
        connection = await mysql.createConnection(this.options);
        await connection.query(`KILL QUERY ${Number(threadId)}`);
      } catch {
        // Best effort: the statement may have ended on its own.
      } finally {
        await connection?.end().catch(() => {});
      }
    })();
    this.kills.add(kill);
    void kill.finally(() => this.kills.delete(kill));
    return kill;
  }

  private connectionError(error: unknown): WarehouseError {
    return serverConnectionFailed({
      database: this.name,
      dialect: this.dialect,
      target: this.target,
      error,
      secrets: this.secrets,
    });
  }

  private queryError(error: unknown, limits: QueryLimits | undefined): WarehouseError {
    // Whatever close() interrupted failed because of the close, not because of its SQL.
    if (this.closed) return databaseClosed({ database: this.name, dialect: this.dialect });
    const { errno, code } = error as { errno?: unknown; code?: unknown };
    const message = redactSecrets(messageOf(error), this.secrets);
    const context = { database: this.name, dialect: this.dialect, engineMessage: message, cause: error };
    switch (errno) {
      case 1792: // ER_CANT_EXECUTE_IN_READ_ONLY_TRANSACTION
      case 1568: // ER_CANT_CHANGE_TX_CHARACTERISTICS: SET TRANSACTION READ WRITE
        return readOnlyViolation(context);
      case 1399: // XAER_RMFAIL: a statement that would commit nao's transaction (DDL, COMMIT, LOCK…)
        return readOnlyViolation({
          ...context,
          engineMessage: `statements that commit (DDL, COMMIT, LOCK TABLES, CALL of such procedures…) are not allowed (${message})`,
        });
      case 1969: // MariaDB ER_STATEMENT_TIMEOUT
      case 3024: // MySQL ER_QUERY_TIMEOUT
        if (limits?.timeoutMs !== undefined) {
          return queryTimeout({
            database: this.name,
            dialect: this.dialect,
            timeoutMs: limits.timeoutMs,
            cause: error,
          });
        }
    }
    if (typeof code === 'string' && /^(E[A-Z]+|PROTOCOL_CONNECTION_LOST)$/.test(code))
      return this.connectionError(error);
    return queryFailed(context);
  }
}

/**
 * Runs one statement and collects the rows of its first result set as they arrive, keeping
 * `maxRows`. Resolves as soon as a row past the cap arrives; the caller then drops the
 * connection, which stops the server.
 */
function streamRows(
  connection: StreamingConnection,
  sql: string,
  maxRows: number,
): Promise<{ fields: MysqlField[]; rows: unknown[][]; truncated: boolean }> {
  return new Promise((resolve, reject) => {
    let fields: MysqlField[] | undefined;
    let resultSets = 0;
    const rows: unknown[][] = [];
    let settled = false;
    const finish = (truncated: boolean) => {
      if (settled) return;
      settled = true;
      resolve({ fields: fields ?? [], rows, truncated });
    };
    const query = connection.query({ sql, rowsAsArray: true });
    query.on('fields', (received: MysqlField[]) => {
      resultSets++;
      fields ??= received;
    });
    query.on('result', (row: unknown) => {
      // OK packets (statements without rows) are not arrays; later result sets of a CALL are ignored.
      if (settled || !Array.isArray(row) || resultSets !== 1) return;
      if (rows.length < maxRows) rows.push(row);
      else finish(true);
    });
    query.on('error', (error: Error) => {
      if (settled) return;
      settled = true;
      reject(error);
    });
    query.on('end', () => finish(false));
  });
}

/** Ends and rolls back nao's XA transaction; false when the connection is in a state not worth keeping. */
async function endTransaction(connection: mysql.PoolConnection, xid: string): Promise<boolean> {
  try {
    await connection.query(`XA END ${xid}`);
  } catch {
    // Already ended (the statement was an `XA END`) or never active: the rollback below decides.
  }
  try {
    await connection.query(`XA ROLLBACK ${xid}`);
    return true;
  } catch {
    return false;
  }
}
