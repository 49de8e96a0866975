import {
  describeServerTarget,
  redactSecrets,
  type ServerConnectionFields,
  secretsOf,
} from '../connection-target.js';
import type { CellValue, Database, QueryOptions, QueryResult, TableInfo } from '../database.js';
import { loadOptionalDriver } from '../optional-driver.js';
import { startQuery } from '../query-control.js';
import { ServerConnection, type ServerErrorVerdict } from '../server-connection.js';
import { quoteLiteral } from '../sql-literal.js';
import { tablesOfColumns } from '../table-list.js';
import { connectionFailed } from '../warehouse-error.js';
import {
  importTedious,
  type TdsDatabaseConfig,
  type Tedious,
  tdsConnectionConfig,
  UnusableSetting,
} from './mssql-driver.js';
import { TdsRequestFailure, TdsSession } from './mssql-session.js';
import { mssqlCellConverter, mssqlTypeName } from './mssql-value.js';

export interface OpenTdsDatabaseOptions {
  /** How tedious is loaded; tests replace it to see a missing driver. */
  importDriver?: () => Promise<Tedious>;
}

/** Each query runs in a transaction at this level, which is always rolled back. */
type IsolationLevel = 'SNAPSHOT' | 'READ COMMITTED';
const ROLLBACK = 'IF @@TRANCOUNT > 0 ROLLBACK TRANSACTION';

/** SQL Server's refusal of SNAPSHOT in a database without ALLOW_SNAPSHOT_ISOLATION. */
const SNAPSHOT_NOT_ALLOWED = 3952;

/** Sessions kept open between queries. */
const IDLE_SESSIONS = 4;

/** Schemas SQL Server and Fabric make for themselves (the original nao's list). */
const SYSTEM_SCHEMAS = [
  'db_accessadmin',
  'db_backupoperator',
  'db_datareader',
  'db_datawriter',
  'db_ddladmin',
  'db_denydatareader',
  'db_denydatawriter',
  'db_owner',
  'db_securityadmin',
  'guest',
  'INFORMATION_SCHEMA',
  'sys',
];

/**
 * SQL Server's errors for a statement the login may not run: 229/230 (permission denied on an
 * object or column), 262 (CREATE … permission denied), 297/300 (no permission), 1088/3701
 * (cannot alter/drop: "does not exist or you do not have permission"), 3906 (read-only
 * database), 4834 (bulk load), 5011 (ALTER DATABASE), 5812 (RECONFIGURE), 15151/15247.
 */
const PERMISSION_ERRORS = new Set([
  229, 230, 262, 297, 300, 1088, 3701, 3906, 4834, 5011, 5812, 15151, 15247,
]);

/**
 * Opens a SQL Server or Microsoft Fabric warehouse over TDS (tedious) and checks that it answers.
 *
 * Every query runs in its own transaction (`SET TRANSACTION ISOLATION LEVEL SNAPSHOT; BEGIN
 * TRANSACTION`; READ COMMITTED in a database that does not allow snapshot isolation, where
 * SQL Server refuses SNAPSHOT with error 3952), which nao always rolls back, and then the session is reset
 * (sp_reset_connection) so settings a query changed do not reach the next one. The rollback
 * undoes data writes the login was allowed; statements that commit or cannot be undone
 * (a COMMIT in the query, CREATE/ALTER DATABASE, server settings, BACKUP, linked servers) are
 * for the login's permissions to refuse: give nao a login in `db_datareader` only.
 */
export async function openTdsDatabase(
  config: TdsDatabaseConfig,
  options: OpenTdsDatabaseOptions = {},
): Promise<Database> {
  const fields = {
    host: config.host,
    port: config.port,
    database: config.database,
    user: config.user ?? (config.type === 'fabric' ? config.client_id : undefined),
    password:
      config.type === 'fabric' && config.auth_mode === 'azure_service_principal'
        ? config.client_secret
        : config.password,
  };
  const refuse = (engineMessage: string) =>
    connectionFailed({
      database: config.name,
      dialect: config.type,
      target: describeServerTarget(fields, 1433),
      engineMessage: redactSecrets(engineMessage, secretsOf(fields)),
    });
  const tedious = await loadOptionalDriver({
    database: config.name,
    dialect: config.type,
    target: describeServerTarget(fields, 1433),
    packageName: 'tedious',
    importer: options.importDriver ?? importTedious,
  });
  let connectionConfig: ReturnType<typeof tdsConnectionConfig>;
  try {
    connectionConfig = tdsConnectionConfig(config);
  } catch (error) {
    if (error instanceof UnusableSetting) throw refuse(error.message);
    throw error;
  }
  const database = new TdsDatabase({
    config,
    fields,
    open: () => TdsSession.open(tedious, connectionConfig),
  });
  await database.check();
  return database;
}

class TdsDatabase implements Database {
  readonly name: string;
  readonly dialect: 'mssql' | 'fabric';
  private readonly server: ServerConnection;
  private readonly idle: TdsSession[] = [];
  private readonly sessions = new Map<number, TdsSession>();
  private readonly schemaName: string | undefined;
  private readonly open: () => Promise<TdsSession>;
  private ended = false;
  /** SNAPSHOT until the database says it does not allow it (error 3952); READ COMMITTED from then on. */
  private isolation: IsolationLevel = 'SNAPSHOT';

  constructor(options: {
    config: TdsDatabaseConfig;
    fields: ServerConnectionFields;
    open: () => Promise<TdsSession>;
  }) {
    const { config } = options;
    this.name = config.name;
    this.dialect = config.type;
    this.schemaName = config.schema_name;
    this.open = options.open;
    this.server = new ServerConnection({
      name: config.name,
      dialect: this.dialect,
      fields: options.fields,
      defaultPort: 1433,
      cancelSession: async (id) => this.sessions.get(id)?.cancel(),
      classify: classifyError,
    });
  }

  check(): Promise<void> {
    return this.server.open(
      async () => this.release(await this.session(), true),
      async () => this.end(),
    );
  }

  async query(sql: string, options?: QueryOptions): Promise<QueryResult> {
    const isolation = this.isolation;
    try {
      return await this.queryAt({ isolation, sql, options });
    } catch (error) {
      if (isolation !== 'SNAPSHOT' || !snapshotNotAllowed(error)) throw error;
      // A database without ALLOW_SNAPSHOT_ISOLATION: the same query again, as it was rolled back.
      this.isolation = 'READ COMMITTED';
      return this.queryAt({ isolation: this.isolation, sql, options });
    }
  }

  private async queryAt(run: {
    isolation: IsolationLevel;
    sql: string;
    options: QueryOptions | undefined;
  }): Promise<QueryResult> {
    const { isolation, sql, options } = run;
    const limits = startQuery({ database: this.name, dialect: this.dialect, sql, query: options });
    const deadline = limits.timeoutMs === undefined ? undefined : performance.now() + limits.timeoutMs;
    const session = await this.server.acquire(() => this.session());
    const watch = this.server.watch(limits, session.id);
    let started = false;
    try {
      await session.run(`SET TRANSACTION ISOLATION LEVEL ${isolation}; BEGIN TRANSACTION`);
      started = true;
      watch.throwIfStopped();
      const result = await session.stream(sql, {
        maxRows: limits.maxRows,
        timeoutMs: deadline === undefined ? undefined : deadline - performance.now(),
      });
      watch.throwIfStopped();
      const converters = result.columns.map(mssqlCellConverter);
      return {
        columns: result.columns.map((column) => ({ name: column.colName, type: mssqlTypeName(column) })),
        rows: result.rows.map((row) => row.map((value, index): CellValue => converters[index]!(value))),
        truncated: result.truncated,
      };
    } catch (error) {
      throw watch.failure(error);
    } finally {
      await watch.finish();
      this.release(session, started && (await this.rollBack(session)));
    }
  }

  async listTables(): Promise<TableInfo[]> {
    const session = await this.server.acquire(() => this.session());
    let healthy = true;
    try {
      const schemaFilter =
        this.schemaName === undefined ? '' : ` AND c.TABLE_SCHEMA = N${quoteLiteral(this.schemaName)}`;
      const { rows } = await session.stream(
        `SELECT c.TABLE_SCHEMA, c.TABLE_NAME, c.COLUMN_NAME, c.DATA_TYPE, c.CHARACTER_MAXIMUM_LENGTH,
                c.NUMERIC_PRECISION, c.NUMERIC_SCALE, c.DATETIME_PRECISION
           FROM INFORMATION_SCHEMA.COLUMNS c
          WHERE c.TABLE_SCHEMA NOT IN (${SYSTEM_SCHEMAS.map((schema) => `N'${schema}'`).join(', ')})${schemaFilter}
          ORDER BY c.TABLE_SCHEMA, c.TABLE_NAME, c.ORDINAL_POSITION`,
        { maxRows: Number.POSITIVE_INFINITY },
      );
      return tablesOfColumns(
        (rows as [string, string, string, ...unknown[]][]).map(([schema, table, name, ...type]) => ({
          schema,
          table,
          column: { name, type: catalogType(type) },
        })),
      );
    } catch (error) {
      healthy = false;
      throw this.server.queryError(error, undefined);
    } finally {
      this.release(session, healthy);
    }
  }

  close(): Promise<void> {
    return this.server.close(async () => this.end());
  }

  private async session(): Promise<TdsSession> {
    let session = this.idle.pop();
    while (session !== undefined && !session.usable) session = this.idle.pop();
    session ??= await this.open();
    this.sessions.set(session.id, session);
    return session;
  }

  private release(session: TdsSession, healthy: boolean): void {
    this.sessions.delete(session.id);
    if (healthy && session.usable && !this.ended && this.idle.length < IDLE_SESSIONS) this.idle.push(session);
    else session.close();
  }

  /** Rolls back nao's transaction and resets the session; false when the session is not worth keeping. */
  private async rollBack(session: TdsSession): Promise<boolean> {
    if (!session.usable || this.ended) return false;
    try {
      await session.run(ROLLBACK);
      await session.reset();
      return true;
    } catch {
      return false;
    }
  }

  private end(): void {
    this.ended = true;
    for (const session of [...this.idle, ...this.sessions.values()]) session.close();
    this.idle.length = 0;
  }
}

function snapshotNotAllowed(error: unknown): boolean {
  const cause = (error as { cause?: unknown } | null)?.cause;
  return cause instanceof TdsRequestFailure && cause.number === SNAPSHOT_NOT_ALLOWED;
}

/** A column type from INFORMATION_SCHEMA.COLUMNS as SQL Server spells it in DDL. */
function catalogType([dataType, maxLength, precision, scale, datetimePrecision]: unknown[]): string {
  const type = String(dataType);
  if (['decimal', 'numeric'].includes(type)) return `${type}(${precision},${scale})`;
  if (['char', 'varchar', 'nchar', 'nvarchar', 'binary', 'varbinary'].includes(type) && maxLength !== null) {
    return `${type}(${Number(maxLength) === -1 ? 'max' : maxLength})`;
  }
  if (['datetime2', 'datetimeoffset', 'time'].includes(type) && datetimePrecision !== null) {
    return `${type}(${datetimePrecision})`;
  }
  return type;
}

/** SQL Server's permission refusals, and tedious' time limit (answered by the server's ATTENTION acknowledgement). */
function classifyError(error: unknown, message: string): ServerErrorVerdict {
  if (error instanceof TdsRequestFailure) {
    if (error.kind === 'timeout') return { kind: 'timeout', engineMessage: message };
    if (error.number !== undefined && PERMISSION_ERRORS.has(error.number)) {
      return { kind: 'read-only', engineMessage: `${message} (SQL Server error ${error.number})` };
    }
  }
  return { kind: 'failed', engineMessage: message };
}
