import type { DBSQLClient } from '@databricks/sql';
import type { CellValue, ColumnInfo, Database, QueryOptions, QueryResult, TableInfo } from '../database.js';
import type { DatabaseConfig } from '../database-config.js';
import { loadOptionalDriver } from '../optional-driver.js';
import { startQuery, stoppedError, watchQuery } from '../query-control.js';
import { ServerConnection } from '../server-connection.js';
import { tablesOfColumns } from '../table-list.js';
import { databaseClosed, readOnlyViolation } from '../warehouse-error.js';
import { driverMessage, isParseError, rootCause } from './databricks-errors.js';
import { classifyStatement, withoutFinalSemicolons } from './databricks-read-only.js';
import { databricksCellConverter, databricksTypeName } from './databricks-value.js';

export type DatabricksDatabaseConfig = Extract<DatabaseConfig, { type: 'databricks' }>;

type DriverModule = typeof import('@databricks/sql');
type IDBSQLSession = Awaited<ReturnType<DBSQLClient['openSession']>>;
type IOperation = Awaited<ReturnType<IDBSQLSession['executeStatement']>>;

export interface DatabricksOpenOptions {
  /** A CA certificate (PEM) trusted besides the built-in ones; no config key sets it, the tests' fake warehouse needs it. */
  customCaCert?: string;
  /** Loads the driver; replaced in tests to see the message of a missing one. */
  importDriver?: () => Promise<DriverModule>;
}

/** Rows asked of the warehouse per fetch: the row cap is checked between fetches. */
const FETCH_ROWS = 10_000;

/**
 * Opens a Databricks SQL warehouse (or cluster) through its HiveServer2 Thrift endpoint and
 * checks that it answers. Every query runs in a session of its own (catalog, schema, UTC), so
 * nothing a query does to its session outlives it. Databricks has no read-only session: a
 * statement runs only when the warehouse's parser says it is a query, or SHOW/DESCRIBE
 * (databricks-read-only.ts); the token's principal should hold nothing but USE and SELECT
 * grants all the same, since a query can still call functions with effects outside (an HTTP
 * request through a connection, a Python UDF).
 */
export async function openDatabricksDatabase(
  config: DatabricksDatabaseConfig,
  options: DatabricksOpenOptions = {},
): Promise<Database> {
  const { target } = endpointOf(config);
  const context = { database: config.name, dialect: 'databricks' as const };
  const driver = await loadOptionalDriver({
    ...context,
    target,
    packageName: '@databricks/sql',
    importer: options.importDriver ?? (() => import('@databricks/sql')),
  });
  const database = new DatabricksDatabase(config, driver, target, options);
  await database.check();
  return database;
}

class DatabricksDatabase implements Database {
  readonly dialect = 'databricks' as const;
  readonly name: string;
  private readonly client: DBSQLClient;
  private readonly server: ServerConnection;
  private connecting: Promise<unknown> | undefined;
  /** Operations in flight, cancelled by close(). */
  private readonly running = new Set<IOperation>();

  constructor(
    private readonly config: DatabricksDatabaseConfig,
    driver: DriverModule,
    target: string,
    private readonly options: DatabricksOpenOptions,
  ) {
    this.name = config.name;
    this.server = new ServerConnection({
      name: config.name,
      dialect: this.dialect,
      target,
      secrets: [config.access_token, encodeURIComponent(config.access_token)],
      classify: (error, message) => ({
        kind: (error as { errorCode?: unknown }).errorCode === 'TIMEOUT' ? 'timeout' : 'failed',
        engineMessage: message,
      }),
      rootCause,
      describe: driverMessage,
    });
    // The driver's default logger prints to the console and takes over uncaught exceptions.
    this.client = new driver.DBSQLClient({ logger: { log: () => {} } });
  }

  private get context() {
    return { database: this.name, dialect: this.dialect };
  }

  check(): Promise<void> {
    return this.server.open(
      async () => {
        const { host, port, path } = endpointOf(this.config);
        await this.client.connect({
          host,
          ...(port === undefined ? {} : { port }),
          path,
          token: this.config.access_token,
          userAgentEntry: 'nao',
          telemetryEnabled: false,
          preserveBigNumericPrecision: true,
          // A stopped warehouse answers 503 while it starts; a closed port need not take minutes.
          retryMaxAttempts: 3,
          retryDelayMin: 500,
          ...(this.options.customCaCert === undefined ? {} : { customCaCert: this.options.customCaCert }),
        });
        // Native Arrow timestamps reach the rows as JS Dates (milliseconds): text keeps the microseconds.
        this.client.getConfig().useArrowNativeTypes = false;
        const session = await this.openSession();
        await session.close();
      },
      () => this.client.close(),
    );
  }

  async query(sql: string, options?: QueryOptions): Promise<QueryResult> {
    const limits = startQuery({ database: this.name, dialect: this.dialect, sql, query: options });
    if (this.server.isClosed) throw databaseClosed(this.context);
    const statement = withoutFinalSemicolons(sql);
    let current: IOperation | undefined;
    const watch = watchQuery({ limits, cancel: () => void current?.cancel().catch(() => {}) });
    const stopped = (cause?: unknown) =>
      stoppedError({ ...this.context, reason: watch.reason, limits, cause });
    let session: IDBSQLSession | undefined;
    const run = async (text: string, maxRows: number): Promise<IOperation> => {
      const error = stopped();
      if (error !== undefined) throw error;
      const operation = await session!.executeStatement(text, {
        // Whole seconds on the wire; nao's own timer stops the query at the millisecond.
        ...(limits.timeoutMs === undefined
          ? {}
          : { queryTimeout: Math.max(1, Math.ceil(limits.timeoutMs / 1000)) }),
        maxRows,
        useCloudFetch: false,
      });
      current = operation;
      this.running.add(operation);
      if (watch.reason !== undefined) void operation.cancel().catch(() => {});
      return operation;
    };
    const release = async (operation: IOperation) => {
      this.running.delete(operation);
      await operation.close().catch(() => {});
    };
    try {
      session = await this.openSession();
      const verdict = await classifyStatement({
        statement,
        isParseError,
        explain: async (text) => {
          const operation = await run(`EXPLAIN ${text}`, 1);
          try {
            await operation.fetchAll();
          } finally {
            await release(operation);
          }
        },
      });
      if (verdict.kind === 'refused') {
        throw readOnlyViolation({
          ...this.context,
          engineMessage:
            'it is not a query; nao runs only queries (SELECT, VALUES, TABLE, WITH … SELECT), SHOW and DESCRIBE on Databricks',
        });
      }
      const cap = limits.maxRows;
      const operation = await run(statement, Math.min(FETCH_ROWS, cap + 1));
      try {
        return await this.read(operation, cap);
      } finally {
        await release(operation);
      }
    } catch (error) {
      throw stopped(error) ?? this.server.queryError(error, limits);
    } finally {
      watch.dispose();
      await session?.close().catch(() => {});
    }
  }

  /** Fetches up to `cap` + 1 rows, a page at a time, so the cap is known to have cut the result or not. */
  private async read(operation: IOperation, cap: number): Promise<QueryResult> {
    const rows: Record<string, unknown>[] = [];
    while (rows.length <= cap) {
      const page = (await operation.fetchChunk({
        maxRows: Math.min(FETCH_ROWS, cap + 1 - rows.length),
      })) as Record<string, unknown>[];
      rows.push(...page);
      if (page.length === 0 || !(await operation.hasMoreRows())) break;
    }
    const schema = await operation.getSchema();
    const descriptors = [...(schema?.columns ?? [])].sort((a, b) => a.position - b.position);
    const columns: ColumnInfo[] = [];
    const converters: ((value: unknown) => CellValue)[] = [];
    for (const descriptor of descriptors) {
      const entry = descriptor.typeDesc.types[0]?.primitiveEntry;
      const qualifiers = entry?.typeQualifiers?.qualifiers;
      const typeId = entry?.type ?? -1;
      columns.push({
        name: descriptor.columnName,
        type: databricksTypeName(typeId, qualifiers?.precision?.i32Value, qualifiers?.scale?.i32Value),
      });
      converters.push(databricksCellConverter(typeId));
    }
    const truncated = rows.length > cap;
    // The driver gives rows as objects keyed by column name: of two columns with one name, the last wins.
    const values = rows
      .slice(0, cap)
      .map((row) => descriptors.map((descriptor, index) => converters[index]!(row[descriptor.columnName])));
    return { columns, rows: values, truncated };
  }

  /** Tables and views with their columns, from the protocol's own GetColumns (in `schema_name` when set). */
  async listTables(): Promise<TableInfo[]> {
    if (this.server.isClosed) throw databaseClosed(this.context);
    let session: IDBSQLSession | undefined;
    try {
      session = await this.openSession();
      // Without a configured catalog, the session's own: GetColumns without one lists every catalog.
      const catalog =
        this.config.catalog ??
        String(
          Object.values(
            (await this.fetchAll(session.executeStatement('SELECT current_catalog()')))[0] ?? {},
          )[0],
        );
      const rows = await this.fetchAll(
        session.getColumns({
          catalogName: catalog,
          ...(this.config.schema_name ? { schemaName: this.config.schema_name } : {}),
        }),
      );
      return tablesOfColumns(
        rows
          .filter((row) => String(row.TABLE_SCHEM).toLowerCase() !== 'information_schema')
          .map((row) => ({
            schema: String(row.TABLE_SCHEM),
            table: String(row.TABLE_NAME),
            column: { name: String(row.COLUMN_NAME), type: String(row.TYPE_NAME) },
          })),
      );
    } catch (error) {
      throw this.server.queryError(error, undefined);
    } finally {
      await session?.close().catch(() => {});
    }
  }

  /** Every row of an operation of nao's own (a listing), closed afterwards and cancelled by close(). */
  private async fetchAll(starting: Promise<IOperation>): Promise<Record<string, unknown>[]> {
    const operation = await starting;
    this.running.add(operation);
    try {
      return (await operation.fetchAll()) as Record<string, unknown>[];
    } finally {
      this.running.delete(operation);
      await operation.close().catch(() => {});
    }
  }

  close(): Promise<void> {
    return this.server.close(async () => {
      await Promise.all([...this.running].map((operation) => operation.cancel().catch(() => {})));
      await this.connecting?.catch(() => {});
      await this.client.close().catch(() => {});
    });
  }

  private async openSession(): Promise<IDBSQLSession> {
    const opening = this.client.openSession({
      ...(this.config.catalog ? { initialCatalog: this.config.catalog } : {}),
      ...(this.config.schema_name ? { initialSchema: this.config.schema_name } : {}),
      configuration: { TIMEZONE: 'UTC' },
    });
    this.connecting = opening;
    return opening;
  }
}

/**
 * Where nao connects: `server_hostname` split into host and optional `:port` (without the
 * `https://` or final `/` a copied address may carry), `http_path` with its leading `/`, and
 * both together for messages (the token never is part of them).
 */
function endpointOf(config: DatabricksDatabaseConfig): {
  host: string;
  port: number | undefined;
  path: string;
  target: string;
} {
  const bare = config.server_hostname.replace(/^https:\/\//, '').replace(/\/$/, '');
  const path = config.http_path.startsWith('/') ? config.http_path : `/${config.http_path}`;
  const match = /^(.*):(\d+)$/.exec(bare);
  const host = match === null ? bare : match[1]!;
  const port = match === null ? undefined : Number(match[2]);
  return { host, port, path, target: `${bare}${path}` };
}
