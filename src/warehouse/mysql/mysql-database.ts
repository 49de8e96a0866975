import { randomBytes } from 'node:crypto';
import type { EventEmitter } from 'node:events';
import mysql from 'mysql2/promise';
import { describeServerTarget, type ServerConnectionFields } from '../connection-target.js';
import type { CellValue, Database, QueryOptions, QueryResult, TableInfo } from '../database.js';
import { type DatabaseConfig, plannedAhead } from '../database-config.js';
import { enforceRolePolicy, type RoleCheckOptions } from '../privileged-role.js';
import { type QueryLimits, startQuery } from '../query-control.js';
import { ServerConnection, type ServerErrorVerdict } from '../server-connection.js';
import { type CatalogRow, tablesOfRows } from '../table-list.js';
import { queryTimeout, readOnlyViolation } from '../warehouse-error.js';
import { mysqlRole } from './mysql-role.js';
import { mysqlStatementRefusal } from './mysql-statement-guard.js';
import { type MysqlField, mysqlCellConverter, mysqlTypeName } from './mysql-value.js';

export type MysqlDatabaseConfig = Extract<DatabaseConfig, { type: 'mysql' }>;

/** A server of the MySQL protocol family: MySQL/MariaDB, or StarRocks (its frontend speaks the protocol). */
export interface MysqlFamilyOptions {
  name: string;
  dialect: 'mysql' | 'starrocks';
  fields: ServerConnectionFields;
  defaultPort: number;
  /**
   * MySQL/MariaDB's guard: the account is checked on connect, and each statement is read and
   * then prepared by the server before it runs (mysql-statement-guard.ts). Absent for
   * StarRocks, whose privileges are its only read-only enforcement.
   */
  guard?: RoleCheckOptions;
}

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
 * What the engine does not cover: FILE (`SELECT … INTO OUTFILE` writes server files,
 * LOAD_FILE reads them), SUPER/SYSTEM_VARIABLES_ADMIN (`SET GLOBAL general_log_file`),
 * CONNECTION ADMIN (`KILL` of other sessions). So nao refuses an account with such global
 * privileges unless `allow_privileged_role` is set, and refuses those statements by name.
 */
export function openMysqlDatabase(
  config: MysqlDatabaseConfig,
  options: { onWarning?: (warning: string) => void } = {},
): Promise<Database> {
  return openMysqlFamilyDatabase({
    name: config.name,
    dialect: 'mysql',
    fields: config,
    defaultPort: 3306,
    guard: { allowPrivilegedRole: config.allow_privileged_role === true, onWarning: options.onWarning },
  });
}

/** Opens a pool to a server of the MySQL family (see MysqlFamilyOptions) and checks that it answers. */
export async function openMysqlFamilyDatabase(options: MysqlFamilyOptions): Promise<Database> {
  const database = new MysqlDatabase(options);
  await database.check();
  return database;
}

class MysqlDatabase implements Database {
  readonly dialect: 'mysql' | 'starrocks';
  readonly name: string;
  /**
   * MySQL and MariaDB prepare every statement before running it, and the guard refuses an
   * EXPLAIN from outside: planned through `planOnly`, where the engine definition says nao plans ahead.
   */
  readonly plan: Database['plan'];
  private readonly pool: mysql.Pool;
  private readonly options: mysql.PoolOptions;
  private readonly server: ServerConnection;
  private readonly guard: RoleCheckOptions | undefined;
  private readonly target: string;
  /**
   * The server behind the protocol: MariaDB limits statements with max_statement_time (seconds),
   * MySQL with max_execution_time (ms, SELECT only), StarRocks with query_timeout (seconds) and
   * has neither read-only transactions nor XA.
   */
  private flavor: 'mariadb' | 'mysql' | 'starrocks' = 'mysql';

  constructor(options: MysqlFamilyOptions) {
    const config = options.fields;
    this.name = options.name;
    this.dialect = options.dialect;
    this.plan = plannedAhead(options.dialect)
      ? async (sql, planOptions) => {
          await this.query(sql, { ...planOptions, planOnly: true, maxRows: 0 });
          return { planned: true };
        }
      : undefined;
    this.guard = options.guard;
    this.target = describeServerTarget(config, options.defaultPort);
    this.server = new ServerConnection({
      name: options.name,
      dialect: this.dialect,
      fields: config,
      defaultPort: options.defaultPort,
      cancelSession: (threadId) => this.killQuery(threadId),
      classify: (error, message) =>
        this.flavor === 'starrocks' ? classifyStarRocksError(error, message) : classifyError(error, message),
    });
    this.options = {
      ...(config.url === undefined ? {} : { uri: config.url }),
      host: config.host,
      port: config.port ?? (config.url === undefined ? options.defaultPort : undefined),
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

  check(): Promise<void> {
    return this.server.open(
      async () => {
        const [rows] = await this.pool.query<mysql.RowDataPacket[]>('SELECT VERSION() AS version');
        this.flavor = String(rows[0]?.version ?? '').includes('MariaDB') ? 'mariadb' : 'mysql';
        // StarRocks reports a MySQL version; only it has current_version().
        if (this.dialect === 'starrocks' && this.flavor === 'mysql') {
          const isStarRocks = await this.pool.query('SELECT current_version()').then(
            () => true,
            () => false,
          );
          if (isStarRocks) this.flavor = 'starrocks';
        }
        if (this.guard !== undefined) {
          const role = await mysqlRole(this.pool, {
            database: this.name,
            dialect: this.dialect,
            target: this.target,
          });
          enforceRolePolicy(role, this.guard);
        }
      },
      () => this.pool.end(),
    );
  }

  async query(sql: string, options?: QueryOptions): Promise<QueryResult> {
    const limits = startQuery({ database: this.name, dialect: this.dialect, sql, query: options });
    const context = { database: this.name, dialect: this.dialect };
    const refusal = this.guard === undefined ? undefined : mysqlStatementRefusal(sql);
    if (refusal !== undefined) throw readOnlyViolation({ ...context, engineMessage: refusal });
    const connection = await this.server.acquire(() => this.pool.getConnection());
    const streaming = connection.connection as unknown as StreamingConnection;
    const threadId = streaming.threadId;
    const watch = this.server.watch(limits, threadId);
    const xid = `'nao-${randomBytes(8).toString('hex')}'`;
    let started = false;
    let capped = false;
    try {
      if (this.flavor === 'starrocks') {
        // No read-only mode to enter: the user's privileges are all that stops a write (see starrocks-database.ts).
        await connection.query(`SET time_zone = '+00:00', ${this.timeLimit(limits)}`);
      } else {
        await connection.query('SET SESSION TRANSACTION READ ONLY');
        await connection.query(`SET autocommit = 1, time_zone = '+00:00', ${this.timeLimit(limits)}`);
        await connection.query(`XA START ${xid}`);
      }
      started = true;
      if (this.guard !== undefined) {
        // The server's own reading: only a statement it prepares as one returning rows is a query.
        const prepared = await connection.prepare(sql);
        // The promise API's typings leave out the statement it wraps, which holds the server's answer.
        const { statement } = prepared as unknown as { statement: { columns: unknown[] } };
        const returnsRows = statement.columns.length > 0;
        await prepared.close();
        if (!returnsRows) {
          throw readOnlyViolation({
            ...context,
            engineMessage: 'the server prepares this statement as one that returns no rows: it is no query',
          });
        }
        if (options?.planOnly === true) return { columns: [], rows: [], truncated: false };
      }
      const sent = performance.now();
      const result = await streamRows(streaming, sql, limits.maxRows);
      // A killed SLEEP() returns 1 instead of failing: once nao stopped a query, its rows mean nothing.
      watch.throwIfStopped();
      // A SLEEP() that the server's own time limit interrupts may also return 1, and without the
      // statement guard a query may lift that limit: rows that took the whole limit are a timeout.
      if (limits.timeoutMs !== undefined && performance.now() - sent >= limits.timeoutMs) {
        throw queryTimeout({ ...context, timeoutMs: limits.timeoutMs });
      }
      capped = result.truncated;
      const converters = result.fields.map(mysqlCellConverter);
      return {
        columns: result.fields.map((field) => ({ name: field.name, type: mysqlTypeName(field) })),
        rows: result.rows.map((row) => row.map((value, index): CellValue => converters[index]!(value))),
        truncated: result.truncated,
      };
    } catch (error) {
      throw watch.failure(error);
    } finally {
      await watch.finish();
      // A failure before XA START leaves the session in a state nao did not choose; past the cap
      // the server is still sending the rest of the rows.
      const keep =
        started &&
        !watch.cancelled &&
        !capped &&
        (this.flavor === 'starrocks' || (await endTransaction(connection, xid)));
      // A dropped connection takes its XA transaction with it: the server rolls it back.
      if (keep) connection.release();
      else connection.destroy();
      // Then the statement is stopped. Thread ids come from an ever-growing counter: a KILL
      // landing after the connection is gone hits nothing.
      if (capped && threadId !== null) void this.server.cancel(threadId);
    }
  }

  async listTables(): Promise<TableInfo[]> {
    const connection = await this.server.acquire(() => this.pool.getConnection());
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
      return tablesOfRows(rows as unknown as CatalogRow[]);
    } catch (error) {
      throw this.server.queryError(error, undefined);
    } finally {
      connection.release();
    }
  }

  close(): Promise<void> {
    return this.server.close(() => this.pool.end());
  }

  private timeLimit(limits: QueryLimits): string {
    const ms = limits.timeoutMs === undefined ? 0 : Math.max(1, Math.ceil(limits.timeoutMs));
    // StarRocks has no "no limit" value: its own default (300 s) applies without one.
    if (this.flavor === 'starrocks') return `query_timeout = ${ms === 0 ? 300 : Math.ceil(ms / 1000)}`;
    return this.flavor === 'mariadb' ? `max_statement_time = ${ms / 1000}` : `max_execution_time = ${ms}`;
  }

  /** Stops the statement of server thread `threadId` from a separate connection (the protocol has no cancel). */
  private async killQuery(threadId: number): Promise<void> {
    let connection: mysql.Connection | undefined;
    try {
      connection = await mysql.createConnection(this.options);
      await connection.query(`KILL QUERY ${Number(threadId)}`);
    } catch {
      // Best effort: the statement may have ended on its own.
    } finally {
      await connection?.end().catch(() => {});
    }
  }
}

/** The server's errors of a read-only transaction, of XA's refusal of implicit commits, and of nao's time limit. */
function classifyError(error: unknown, message: string): ServerErrorVerdict {
  switch ((error as { errno?: unknown }).errno) {
    case 1792: // ER_CANT_EXECUTE_IN_READ_ONLY_TRANSACTION
    case 1568: // ER_CANT_CHANGE_TX_CHARACTERISTICS: SET TRANSACTION READ WRITE
      return { kind: 'read-only', engineMessage: message };
    case 1399: // XAER_RMFAIL: a statement that would commit nao's transaction (DDL, COMMIT, LOCK…)
      return {
        kind: 'read-only',
        engineMessage: `statements that commit (DDL, COMMIT, LOCK TABLES, CALL of such procedures…) are not allowed (${message})`,
      };
    case 1969: // MariaDB ER_STATEMENT_TIMEOUT
    case 3024: // MySQL ER_QUERY_TIMEOUT
      return { kind: 'timeout', engineMessage: message };
  }
  return { kind: 'failed', engineMessage: message };
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

/**
 * StarRocks: a privilege refusal is how its writes are refused (the user holds SELECT only), and
 * its query_timeout fails with its own words.
 */
function classifyStarRocksError(error: unknown, message: string): ServerErrorVerdict {
  const errno = (error as { errno?: unknown }).errno;
  // 1044/1142/1227: access denied to a database, a table, an operation.
  if (errno === 1044 || errno === 1142 || errno === 1227 || /Access denied/i.test(message)) {
    return { kind: 'read-only', engineMessage: message };
  }
  if (/query ?timeout|timeout.*query_timeout/i.test(message))
    return { kind: 'timeout', engineMessage: message };
  return classifyError(error, message);
}
