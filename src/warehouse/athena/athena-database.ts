import type { AthenaClient, GetQueryResultsCommandOutput } from '@aws-sdk/client-athena';
import { quietAwsSdkNodeNotice } from '../aws-sdk-notice.js';
import { redactSecrets } from '../connection-target.js';
import type { Database, QueryOptions, QueryResult, TableInfo } from '../database.js';
import type { DatabaseConfig } from '../database-config.js';
import { loadOptionalDriver } from '../optional-driver.js';
import { startQuery, stoppedError, stopRace, watchQuery } from '../query-control.js';
import { ServerConnection } from '../server-connection.js';
import { quoteLiteral } from '../sql-literal.js';
import { tablesOfColumns } from '../table-list.js';
import { refusalOfPlan, TRINO_EXPLAIN_PREFIX, trinoStatementText } from '../trino/trino-statement-check.js';
import { databaseClosed, readOnlyViolation } from '../warehouse-error.js';
import { type AthenaColumnInfo, athenaCellConverter, athenaTypeName } from './athena-value.js';

export type AthenaDatabaseConfig = Extract<DatabaseConfig, { type: 'athena' }>;

export type AthenaDriver = Pick<
  typeof import('@aws-sdk/client-athena'),
  | 'AthenaClient'
  | 'StartQueryExecutionCommand'
  | 'GetQueryExecutionCommand'
  | 'GetQueryResultsCommand'
  | 'StopQueryExecutionCommand'
>;

export interface AthenaOpenOptions {
  /** Loads @aws-sdk/client-athena; injectable so the missing-driver message can be tested. */
  importDriver?: () => Promise<AthenaDriver>;
}

/** How often nao asks whether a query finished: soon at first, then every second. */
const FIRST_POLL_MS = 50;
const MAX_POLL_MS = 1000;
/** Rows per GetQueryResults page, Athena's maximum. */
const PAGE_ROWS = 1000;

/** A query that ended FAILED (or CANCELLED by someone else), with Athena's StateChangeReason. */
class AthenaQueryFailed extends Error {
  override name = 'AthenaQueryFailed';
}

/** Statements Athena's EXPLAIN refuses although they only read; their failed EXPLAIN is an error of the query. */
const QUERY_LEAD = /^\s*(?:(?:--[^\n]*\n|\/\*[\s\S]*?\*\/)\s*)*\(*\s*(SELECT|WITH|VALUES|TABLE)\b/i;

/**
 * Opens Athena through @aws-sdk/client-athena and runs a first query, so a wrong region, work
 * group, staging dir or credential fails here. Before a statement runs, Athena plans it
 * (`EXPLAIN (TYPE LOGICAL, FORMAT JSON)`, which Athena takes for SELECT, INSERT, CTAS and
 * UNLOAD only): a statement runs only when its plan writes nothing (trino-statement-check.ts),
 * so INSERT, CTAS, UNLOAD, DDL, MSCK, DELETE… are refused before they start. A time limit or an
 * abort stops the query on Athena (StopQueryExecution). Athena computes a whole result before
 * it can be read; the row cap stops the reading (GetQueryResults pages) at `maxRows + 1`.
 */
export async function openAthenaDatabase(
  config: AthenaDatabaseConfig,
  options: AthenaOpenOptions = {},
): Promise<Database> {
  const target = describeAthenaTarget(config);
  const driver = await loadOptionalDriver({
    database: config.name,
    dialect: 'athena',
    target,
    packageName: '@aws-sdk/client-athena',
    importer:
      options.importDriver ??
      (() => {
        quietAwsSdkNodeNotice();
        return import('@aws-sdk/client-athena') as Promise<AthenaDriver>;
      }),
  });
  const database = new AthenaDatabase(config, driver, target);
  await database.check();
  return database;
}

function describeAthenaTarget(config: AthenaDatabaseConfig): string {
  const host =
    config.endpoint === undefined
      ? `athena.${config.region_name}.amazonaws.com`
      : new URL(config.endpoint).host;
  return `${host} in ${config.region_name}, work group ${config.work_group ?? 'primary'}`;
}

interface RunResult {
  columns: AthenaColumnInfo[];
  rows: (string | undefined)[][];
  truncated: boolean;
}

class AthenaDatabase implements Database {
  readonly dialect = 'athena' as const;
  readonly name: string;
  private readonly client: AthenaClient;
  private readonly context: { database: string; dialect: 'athena' };
  private readonly secrets: string[];
  private readonly server: ServerConnection;
  /** Query executions in flight, stopped by close(). */
  private readonly running = new Set<string>();
  private readonly stops = new Set<Promise<void>>();
  /** StartQueryExecution requests on their way, whose queries close() must stop too. */
  private readonly starts = new Set<Promise<unknown>>();

  constructor(
    private readonly config: AthenaDatabaseConfig,
    private readonly driver: AthenaDriver,
    target: string,
  ) {
    this.name = config.name;
    this.context = { database: config.name, dialect: this.dialect };
    this.secrets = [config.aws_secret_access_key, config.aws_session_token].filter(
      (secret): secret is string => typeof secret === 'string' && secret !== '',
    );
    this.server = new ServerConnection({
      name: config.name,
      dialect: this.dialect,
      target,
      secrets: this.secrets,
      // A refused request (credentials, work group) or a network failure: Athena could not take the query.
      classify: (error, message) => ({
        kind: error instanceof AthenaQueryFailed ? 'failed' : 'connection',
        engineMessage: message,
      }),
    });
    const keys =
      config.aws_access_key_id && config.aws_secret_access_key
        ? {
            credentials: {
              accessKeyId: config.aws_access_key_id,
              secretAccessKey: config.aws_secret_access_key,
              ...(config.aws_session_token ? { sessionToken: config.aws_session_token } : {}),
            },
          }
        : config.profile_name
          ? { profile: config.profile_name }
          : {};
    this.client = new driver.AthenaClient({
      region: config.region_name,
      ...(config.endpoint === undefined ? {} : { endpoint: config.endpoint }),
      ...keys,
      maxAttempts: 2,
    });
  }

  check(): Promise<void> {
    const schema = this.config.schema_name;
    return this.server.open(
      async () => {
        const found = await this.run(
          schema == null
            ? 'SELECT 1'
            : `SELECT schema_name FROM information_schema.schemata WHERE schema_name = ${quoteLiteral(schema)}`,
          { maxRows: 1, isStopped: () => undefined },
        );
        if (schema != null && found.rows.length === 0) {
          throw new Error(
            `database "${schema}" does not exist in catalog ${this.catalog}; check \`schema_name\``,
          );
        }
      },
      async () => this.client.destroy(),
    );
  }

  async query(sql: string, options?: QueryOptions): Promise<QueryResult> {
    const limits = startQuery({ database: this.name, dialect: this.dialect, sql, query: options });
    if (this.server.isClosed) throw databaseClosed(this.context);
    const text = trinoStatementText(sql);
    let stopError: unknown;
    const stop = stopRace();
    // Athena has no per-query limit a client can set: nao stops the query itself when the time is up.
    const watch = watchQuery({
      limits,
      cancel: (reason) => {
        stopError = stoppedError({ ...this.context, reason, limits });
        if (current !== undefined) this.stopExecution(current);
        stop.reject(stopError);
      },
    });
    const isStopped = () => stopError;
    let current: string | undefined;
    const onStart = (id: string) => {
      current = id;
      if (stopError !== undefined) this.stopExecution(id);
    };
    try {
      let plan: RunResult;
      try {
        plan = await Promise.race([
          this.run(`${TRINO_EXPLAIN_PREFIX}${text}`, { maxRows: 1, isStopped, onStart }),
          stop.promise,
        ]);
      } catch (error) {
        if (error instanceof AthenaQueryFailed && !QUERY_LEAD.test(text)) {
          throw readOnlyViolation({
            ...this.context,
            engineMessage: `Athena's EXPLAIN plans queries only, and not this statement (${redactSecrets(error.message, this.secrets)})`,
          });
        }
        throw error;
      }
      const refusal = refusalOfPlan(plan.rows[0]?.[0] ?? '', 'Athena');
      if (refusal !== undefined) throw readOnlyViolation({ ...this.context, engineMessage: refusal });
      const result = await Promise.race([
        this.run(text, { maxRows: limits.maxRows, isStopped, onStart }),
        stop.promise,
      ]);
      const converters = result.columns.map(athenaCellConverter);
      return {
        columns: result.columns.map((column) => ({ name: column.Name ?? '', type: athenaTypeName(column) })),
        rows: result.rows.map((row) => row.map((text, index) => converters[index]!(text))),
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
    const schema = this.config.schema_name;
    const filter =
      schema == null ? "table_schema <> 'information_schema'" : `table_schema = ${quoteLiteral(schema)}`;
    try {
      const result = await this.run(
        `SELECT table_schema, table_name, column_name, data_type FROM information_schema.columns
          WHERE ${filter} ORDER BY table_schema, table_name, ordinal_position`,
        { maxRows: Number.POSITIVE_INFINITY, isStopped: () => undefined },
      );
      return tablesOfColumns(
        result.rows.map(([tableSchema = '', table = '', name = '', type = '']) => ({
          schema: tableSchema,
          table,
          column: { name, type },
        })),
      );
    } catch (error) {
      throw this.server.queryError(error, undefined);
    }
  }

  close(): Promise<void> {
    return this.server.close(async () => {
      // A query whose start is on its way gets its id first (the starter's continuation runs before this one).
      await Promise.allSettled([...this.starts]);
      for (const id of this.running) this.stopExecution(id);
      await Promise.all(this.stops);
      this.client.destroy();
    });
  }

  private get catalog(): string {
    return this.config.catalog ?? 'AwsDataCatalog';
  }

  /** Starts `sql`, waits for its end, and reads at most `maxRows` rows (one more tells that there were more). */
  private async run(
    sql: string,
    options: { maxRows: number; isStopped: () => unknown; onStart?: (id: string) => void },
  ): Promise<RunResult> {
    const { driver, client } = this;
    const start = client.send(
      new driver.StartQueryExecutionCommand({
        QueryString: sql,
        QueryExecutionContext: { Catalog: this.catalog, Database: this.config.schema_name ?? 'default' },
        ResultConfiguration: { OutputLocation: this.config.s3_staging_dir },
        WorkGroup: this.config.work_group ?? 'primary',
      }),
    );
    this.starts.add(start);
    let started: Awaited<typeof start>;
    try {
      started = await start;
    } finally {
      this.starts.delete(start);
    }
    const id = started.QueryExecutionId;
    if (id === undefined) throw new Error('Athena started the query without an id');
    this.running.add(id);
    options.onStart?.(id);
    try {
      const statementType = await this.waitFor(id, options.isStopped);
      const rows: (string | undefined)[][] = [];
      let columns: AthenaColumnInfo[] = [];
      let token: string | undefined;
      let first = true;
      for (;;) {
        // The first page of a DML result starts with the header row.
        const header = first && statementType === 'DML' ? 1 : 0;
        const wanted = Math.min(PAGE_ROWS, options.maxRows - rows.length + 1 + header);
        const page: GetQueryResultsCommandOutput = await client.send(
          new driver.GetQueryResultsCommand({ QueryExecutionId: id, MaxResults: wanted, NextToken: token }),
        );
        if (first) columns = page.ResultSet?.ResultSetMetadata?.ColumnInfo ?? [];
        for (const row of (page.ResultSet?.Rows ?? []).slice(header)) {
          if (rows.length >= options.maxRows) return { columns, rows, truncated: true };
          rows.push((row.Data ?? []).map((datum) => datum.VarCharValue));
        }
        first = false;
        token = page.NextToken;
        if (token === undefined) return { columns, rows, truncated: false };
        if (options.isStopped() !== undefined || this.server.isClosed)
          throw options.isStopped() ?? databaseClosed(this.context);
      }
    } finally {
      this.running.delete(id);
    }
  }

  /** Polls until the execution ends; stops it on Athena as soon as nao stopped the query. Answers its StatementType. */
  private async waitFor(id: string, isStopped: () => unknown): Promise<string | undefined> {
    let delay = FIRST_POLL_MS;
    for (;;) {
      if (isStopped() !== undefined || this.server.isClosed) {
        this.stopExecution(id);
        throw isStopped() ?? databaseClosed(this.context);
      }
      const { QueryExecution: execution } = await this.client.send(
        new this.driver.GetQueryExecutionCommand({ QueryExecutionId: id }),
      );
      const status = execution?.Status;
      const state = status?.State;
      if (state === 'SUCCEEDED') return execution?.StatementType;
      if (state === 'FAILED' || state === 'CANCELLED') {
        throw new AthenaQueryFailed(
          status?.StateChangeReason ?? status?.AthenaError?.ErrorMessage ?? `the query ended ${state}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(MAX_POLL_MS, delay * 2);
    }
  }

  private stopExecution(id: string): void {
    const stop = this.client.send(new this.driver.StopQueryExecutionCommand({ QueryExecutionId: id })).then(
      () => {},
      () => {},
    );
    this.stops.add(stop);
    void stop.finally(() => this.stops.delete(stop));
  }
}
