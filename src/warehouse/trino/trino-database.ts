import type { Database, QueryOptions, QueryResult, TableInfo } from '../database.js';
import type { DatabaseConfig } from '../database-config.js';
import { loadOptionalDriver } from '../optional-driver.js';
import { ENGINE_LIMIT_GRACE_MS, startQuery, stoppedError, stopRace, watchQuery } from '../query-control.js';
import { ServerConnection, type ServerErrorVerdict } from '../server-connection.js';
import { quoteLiteral } from '../sql-literal.js';
import { type CatalogRow, tablesOfRows } from '../table-list.js';
import { databaseClosed, readOnlyViolation } from '../warehouse-error.js';
import { type TrinoDriver, TrinoStatement, TrinoStatementError } from './trino-statement.js';
import { refusalOfPlan, TRINO_EXPLAIN_PREFIX, trinoStatementText } from './trino-statement-check.js';
import { trinoCellConverter } from './trino-value.js';

export type TrinoDatabaseConfig = Extract<DatabaseConfig, { type: 'trino' }>;

export interface TrinoOpenOptions {
  /** Loads trino-client; injectable so the missing-driver message can be tested. */
  importDriver?: () => Promise<TrinoDriver>;
}

/**
 * Opens a Trino coordinator through trino-client and checks that it answers. Before a
 * statement runs, Trino itself plans it (`EXPLAIN (TYPE LOGICAL, FORMAT JSON)`, see
 * trino-statement-check.ts): only a plan without writer nodes runs, so writes, DDL and
 * session changes are refused before they start. Every statement runs with a fresh client
 * (no session state carries over), `query_max_run_time` as its time limit and UTC as its zone.
 */
export async function openTrinoDatabase(
  config: TrinoDatabaseConfig,
  options: TrinoOpenOptions = {},
): Promise<Database> {
  const target = describeTrinoTarget(config);
  const driver = await loadOptionalDriver({
    database: config.name,
    dialect: 'trino',
    target,
    packageName: 'trino-client',
    importer: options.importDriver ?? (() => import('trino-client') as Promise<TrinoDriver>),
  });
  const database = new TrinoDatabase(config, driver, target);
  await database.check();
  return database;
}

/** The coordinator's url: `host` as given when it is a url, else http (https on port 443). */
export function trinoServerUrl(config: Pick<TrinoDatabaseConfig, 'host' | 'port'>): string {
  if (/^https?:\/\//i.test(config.host)) {
    const url = new URL(config.host);
    if (config.port !== undefined) url.port = String(config.port);
    return url.origin;
  }
  const port = config.port ?? 8080;
  return `${port === 443 ? 'https' : 'http'}://${config.host}:${port}`;
}

function describeTrinoTarget(config: TrinoDatabaseConfig): string {
  const where = trinoServerUrl(config).replace(/^https?:\/\//, '');
  return `${where}/${config.catalog}${config.schema === undefined ? '' : `.${config.schema}`} as user ${config.user}`;
}

class TrinoDatabase implements Database {
  readonly dialect = 'trino' as const;
  readonly name: string;
  private readonly running = new Set<TrinoStatement>();
  private readonly context: { database: string; dialect: 'trino' };
  private readonly server: ServerConnection;

  constructor(
    private readonly config: TrinoDatabaseConfig,
    private readonly driver: TrinoDriver,
    target: string,
  ) {
    this.name = config.name;
    this.context = { database: config.name, dialect: this.dialect };
    this.server = new ServerConnection({
      name: config.name,
      dialect: this.dialect,
      target,
      secrets: config.password
        ? [config.password, Buffer.from(`${config.user}:${config.password}`).toString('base64')]
        : [],
      classify: classifyError,
    });
  }

  check(): Promise<void> {
    const { catalog, schema } = this.config;
    return this.server.open(
      async () => {
        // Reads the catalog, so a catalog that does not exist fails here and not at the first query.
        const found = await this.statement(
          `SELECT schema_name FROM information_schema.schemata WHERE catalog_name = ${quoteLiteral(catalog)}${
            schema === undefined ? '' : ` AND schema_name = ${quoteLiteral(schema)}`
          }`,
          undefined,
        ).run(1);
        if (schema !== undefined && found.rows.length === 0) {
          throw new Error(`schema "${schema}" does not exist in catalog ${catalog}; check \`schema\``);
        }
      },
      async () => {},
    );
  }

  async query(sql: string, options?: QueryOptions): Promise<QueryResult> {
    const limits = startQuery({ database: this.name, dialect: this.dialect, sql, query: options });
    if (this.server.isClosed) throw databaseClosed(this.context);
    const text = trinoStatementText(sql);
    const deadline = limits.timeoutMs === undefined ? undefined : performance.now() + limits.timeoutMs;
    let current: TrinoStatement | undefined;
    const stop = stopRace();
    const watch = watchQuery({
      limits,
      graceMs: ENGINE_LIMIT_GRACE_MS,
      cancel: (reason) => {
        current?.cancel();
        stop.reject(stoppedError({ ...this.context, reason, limits }));
      },
    });
    const run = async (statementSql: string, maxRows: number) => {
      if (this.server.isClosed) throw databaseClosed(this.context);
      current = this.statement(statementSql, deadline);
      this.running.add(current);
      try {
        return await Promise.race([current.run(maxRows), stop.promise]);
      } finally {
        this.running.delete(current);
      }
    };
    try {
      const plan = await run(`${TRINO_EXPLAIN_PREFIX}${text}`, Number.POSITIVE_INFINITY);
      const refusal = refusalOfPlan(String(plan.rows[0]?.[0] ?? ''), 'Trino');
      if (refusal !== undefined) throw readOnlyViolation({ ...this.context, engineMessage: refusal });
      const result = await run(text, limits.maxRows);
      const converters = result.columns.map((column) => trinoCellConverter(column.type));
      return {
        columns: result.columns.map((column) => ({ name: column.name, type: column.type })),
        rows: result.rows.map((row) => row.map((value, index) => converters[index]!(value))),
        truncated: result.truncated,
      };
    } catch (error) {
      // An abort rejects with the signal's own reason, whatever it is.
      if (limits.signal?.aborted && error === limits.signal.reason) throw error;
      throw this.server.queryError(error, limits);
    } finally {
      watch.dispose();
    }
  }

  async listTables(): Promise<TableInfo[]> {
    if (this.server.isClosed) throw databaseClosed(this.context);
    const schemaFilter =
      this.config.schema === undefined
        ? "table_schema NOT IN ('information_schema', 'sys')"
        : `table_schema = ${quoteLiteral(this.config.schema)}`;
    const catalogFilter = `table_catalog = ${quoteLiteral(this.config.catalog)}`;
    const statement = this.statement(
      `SELECT table_schema, table_name, column_name, data_type FROM information_schema.columns
        WHERE ${catalogFilter} AND ${schemaFilter} ORDER BY table_schema, table_name, ordinal_position`,
      undefined,
    );
    this.running.add(statement);
    try {
      const result = await statement.run(Number.POSITIVE_INFINITY);
      return tablesOfRows(result.rows as CatalogRow[]);
    } catch (error) {
      throw this.server.queryError(error, undefined);
    } finally {
      this.running.delete(statement);
    }
  }

  close(): Promise<void> {
    return this.server.close(async () => {
      await Promise.all([...this.running].map((statement) => statement.cancel()));
    });
  }

  private statement(sql: string, deadline: number | undefined): TrinoStatement {
    return new TrinoStatement({
      driver: this.driver,
      server: trinoServerUrl(this.config),
      user: this.config.user,
      password: this.config.password,
      catalog: this.config.catalog,
      schema: this.config.schema,
      sql,
      maxRunMs: deadline === undefined ? undefined : Math.max(1, Math.floor(deadline - performance.now())),
    });
  }
}

/** Trino's errors of a write in a read-only transaction and of nao's `query_max_run_time`. */
function classifyError(error: unknown, message: string): ServerErrorVerdict {
  // No answer of Trino's: the coordinator could not be reached or refused the request (HTTP 401…).
  if (!(error instanceof TrinoStatementError)) return { kind: 'connection', engineMessage: message };
  if (error.errorName === 'READ_ONLY_VIOLATION') return { kind: 'read-only', engineMessage: message };
  if (error.errorName === 'EXCEEDED_TIME_LIMIT') return { kind: 'timeout', engineMessage: message };
  return { kind: 'failed', engineMessage: message };
}
