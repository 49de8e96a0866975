import type { BigQuery, Job, Query } from '@google-cloud/bigquery';
import { redactSecrets } from '../connection-target.js';
import type { CellValue, Database, QueryOptions, QueryResult, TableInfo } from '../database.js';
import { loadOptionalDriver } from '../optional-driver.js';
import {
  ENGINE_LIMIT_GRACE_MS,
  type QueryLimits,
  startQuery,
  stoppedError,
  stopRace,
  watchQuery,
} from '../query-control.js';
import { type CatalogColumn, tablesOfColumns } from '../table-list.js';
import {
  databaseClosed,
  messageOf,
  queryFailed,
  queryTimeout,
  readOnlyViolation,
  WarehouseError,
  withErrorCode,
} from '../warehouse-error.js';
import {
  type BigQueryDatabaseConfig,
  type BigQueryDriver,
  bigQueryClientOptions,
  bigQueryConnectionFailed,
  describeBigQueryTarget,
} from './bigquery-client.js';
import { type BigQueryCell, type BigQueryField, bigQueryCell, bigQueryTypeName } from './bigquery-value.js';

/** Rows asked for per results page; BigQuery caps a page at 10 MB whatever this says. */
const PAGE_ROWS = 10_000;
const GIB = 1024 ** 3;

export interface OpenBigQueryOptions {
  /** Folder that a relative `credentials_path` is resolved against (default: the working directory). */
  projectDir?: string;
  /** Loads the driver; tests replace it to see the message of a missing package. */
  importDriver?: () => Promise<BigQueryDriver>;
}

/**
 * Opens a BigQuery client for one configured project and checks that it answers (the
 * dataset exists, or the project's datasets can be listed).
 *
 * Read-only as far as BigQuery can tell nao: every statement is first dry-run, and anything
 * whose `statementType` is not SELECT (DML, DDL, scripts, EXPORT DATA…) is refused without
 * running. Every job bills at most `maximum_bytes_billed`. BigQuery has no read-only session
 * to enforce this on the server: give nao a role that can only read (BigQuery Data Viewer and
 * Job User) all the same.
 */
export async function openBigQueryDatabase(
  config: BigQueryDatabaseConfig,
  options: OpenBigQueryOptions = {},
): Promise<Database> {
  const driver = await loadOptionalDriver({
    database: config.name,
    dialect: 'bigquery',
    target: describeBigQueryTarget(config),
    packageName: '@google-cloud/bigquery',
    importer: options.importDriver ?? (() => import('@google-cloud/bigquery')),
  });
  const client = new driver.BigQuery(await bigQueryClientOptions({ config, projectDir: options.projectDir }));
  const database = new BigQueryDatabase(config, client);
  await database.check();
  return database;
}

/** A query in flight: close() stops it. */
interface RunningQuery {
  stop(error: unknown): void;
}

class BigQueryDatabase implements Database {
  readonly dialect = 'bigquery' as const;
  readonly name: string;
  private closed = false;
  private readonly running = new Set<RunningQuery>();
  /** Job cancels on their way, awaited by close(). */
  private readonly cancels = new Set<Promise<void>>();
  private readonly secrets: string[];

  constructor(
    private readonly config: BigQueryDatabaseConfig,
    private readonly client: BigQuery,
  ) {
    this.name = config.name;
    this.secrets = Object.values(config.credentials_json ?? {}).filter(
      (value): value is string => typeof value === 'string' && value.length >= 16,
    );
  }

  private get context() {
    return { database: this.name, dialect: this.dialect };
  }

  async check(): Promise<void> {
    try {
      if (this.config.dataset_id !== undefined) await this.client.dataset(this.config.dataset_id).get();
      else await this.client.getDatasets({ maxResults: 1, autoPaginate: false });
    } catch (error) {
      this.closed = true;
      throw bigQueryConnectionFailed({ config: this.config, engineMessage: this.engineMessage(error) });
    }
  }

  async query(sql: string, options?: QueryOptions): Promise<QueryResult> {
    const limits = startQuery({ ...this.context, sql, query: options });
    if (this.closed) throw databaseClosed(this.context);
    const started = performance.now();
    let job: Job | undefined;
    let final: { error: unknown } | undefined;
    const stop = stopRace();
    const running: RunningQuery = {
      stop: (error) => {
        if (final !== undefined) return;
        final = { error };
        stop.reject(error);
        if (job !== undefined) this.cancel(job);
      },
    };
    const watch = watchQuery({
      limits,
      graceMs: ENGINE_LIMIT_GRACE_MS,
      cancel: (reason) => running.stop(stoppedError({ ...this.context, reason, limits })),
    });
    this.running.add(running);
    try {
      const work = this.run({
        sql,
        limits,
        started,
        stopped: () => final !== undefined,
        onJob: (created) => {
          job = created;
          // Stopped while the job was being created: it must not run on unwatched.
          if (final !== undefined) this.cancel(created);
        },
      });
      return await Promise.race([work, stop.promise]);
    } catch (error) {
      if (final !== undefined) throw final.error;
      throw this.queryError(error, limits);
    } finally {
      watch.dispose();
      this.running.delete(running);
    }
  }

  async listTables(): Promise<TableInfo[]> {
    if (this.closed) throw databaseClosed(this.context);
    try {
      const datasets =
        this.config.dataset_id === undefined
          ? (await this.client.getDatasets())[0].map((dataset) => dataset.id ?? '').filter((id) => id !== '')
          : [this.config.dataset_id];
      const columns: CatalogColumn[] = [];
      for (const dataset of datasets.sort()) {
        const [job] = await this.client.createQueryJob({
          query:
            'SELECT table_name, column_name, data_type FROM ' +
            `${quoteIdentifier(this.config.project_id)}.${quoteIdentifier(dataset)}.INFORMATION_SCHEMA.COLUMNS ` +
            'ORDER BY table_name, ordinal_position',
          maximumBytesBilled: String(this.config.maximum_bytes_billed),
        });
        const { rows } = await this.readResults(job, Number.POSITIVE_INFINITY);
        for (const [table, name, type] of rows as string[][]) {
          columns.push({ schema: dataset, table: table!, column: { name: name!, type: type! } });
        }
      }
      return tablesOfColumns(columns);
    } catch (error) {
      throw this.queryError(error, undefined);
    }
  }

  /** Stops the queries in flight (their jobs are cancelled) and waits for the cancels; calling it again does nothing. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const running of this.running) running.stop(databaseClosed(this.context));
    await Promise.all(this.cancels);
  }

  /** Dry run, the SELECT check, then the job and its first `maxRows` + 1 rows. */
  private async run(options: {
    sql: string;
    limits: QueryLimits;
    started: number;
    /** True once the query was stopped: no job may start after that. */
    stopped: () => boolean;
    onJob: (job: Job) => void;
  }): Promise<QueryResult> {
    const { sql, limits } = options;
    const settings = this.jobSettings();
    const [dryRun] = await this.client.createQueryJob({ ...settings, query: sql, dryRun: true });
    const statistics = dryRun.metadata?.statistics?.query ?? {};
    const statementType: string = statistics.statementType ?? 'unknown';
    if (statementType !== 'SELECT') {
      throw readOnlyViolation({
        ...this.context,
        engineMessage: `BigQuery's dry run gives its statement type as ${statementType}, and nao runs only SELECT statements`,
      });
    }
    this.checkQuerySize(Number(statistics.totalBytesProcessed ?? 0));
    const query: Query = { ...settings, query: sql, jobPrefix: 'nao_' };
    if (limits.timeoutMs !== undefined) {
      // What is left of the limit after the dry run; BigQuery stops the job itself past it.
      query.jobTimeoutMs = Math.max(1, Math.ceil(limits.timeoutMs - (performance.now() - options.started)));
    }
    if (options.stopped()) throw new Error('the query was stopped before its job started');
    const [job] = await this.client.createQueryJob(query);
    options.onJob(job);
    return await this.readResults(job, limits.maxRows);
  }

  private jobSettings(): Query {
    const settings: Query = {
      useLegacySql: false,
      maximumBytesBilled: String(this.config.maximum_bytes_billed),
    };
    if (this.config.dataset_id !== undefined) {
      settings.defaultDataset = { projectId: this.config.project_id, datasetId: this.config.dataset_id };
    }
    return settings;
  }

  /** The original's `max_query_size`: a query the dry run estimates above it is refused before it runs. */
  private checkQuerySize(estimatedBytes: number): void {
    const limit = this.config.max_query_size;
    if (limit === undefined || estimatedBytes <= limit * GIB) return;
    throw queryFailed({
      ...this.context,
      engineMessage:
        `BigQuery estimates the query would process ${estimatedBytes} bytes (${(estimatedBytes / GIB).toFixed(6)} GiB), ` +
        `more than the \`max_query_size\` of ${limit} GiB set for this database in nao_config.yaml; it was not run`,
    });
  }

  /** Pages through the job's results, asking for no more rows than `maxRows` + 1 in all. */
  private async readResults(job: Job, maxRows: number): Promise<QueryResult> {
    const wanted = maxRows + 1;
    const rows: CellValue[][] = [];
    let fields: BigQueryField[] | undefined;
    let pageToken: string | undefined;
    for (;;) {
      const [page, , response] = await job.getQueryResults({
        autoPaginate: false,
        skipParsing: true,
        maxResults: Math.min(PAGE_ROWS, wanted - rows.length),
        ...(pageToken === undefined ? {} : { pageToken }),
      });
      // Not done within BigQuery's wait (10 s by default): ask again.
      if (response?.jobComplete === false) continue;
      fields ??= (response?.schema?.fields ?? []) as BigQueryField[];
      for (const row of page as unknown as { f: BigQueryCell[] }[]) {
        if (rows.length === wanted) break;
        rows.push(fields.map((field, index) => bigQueryCell(field, row.f[index])));
      }
      pageToken = response?.pageToken ?? undefined;
      if (pageToken === undefined || rows.length === wanted) break;
    }
    const columns = (fields ?? []).map((field) => ({ name: field.name, type: bigQueryTypeName(field) }));
    const truncated = rows.length > maxRows;
    if (truncated) rows.length = maxRows;
    return { columns, rows, truncated };
  }

  /** Cancels a job; close() waits for it. Best effort: the job may have finished meanwhile. */
  private cancel(job: Job): void {
    const cancel = job.cancel().then(
      () => undefined,
      () => undefined,
    );
    this.cancels.add(cancel);
    void cancel.finally(() => this.cancels.delete(cancel));
  }

  private engineMessage(error: unknown): string {
    return withErrorCode(redactSecrets(messageOf(error), this.secrets), error);
  }

  /** The error of a failed request; `limits` only for a query (a listing has no time limit). */
  private queryError(error: unknown, limits: QueryLimits | undefined): WarehouseError {
    if (error instanceof WarehouseError) return error;
    // Whatever close() interrupted failed because of the close, not because of its SQL.
    if (this.closed) return databaseClosed(this.context);
    const engineMessage = this.engineMessage(error);
    const code = (error as { code?: unknown } | null)?.code;
    // A Node error code instead of an HTTP status: BigQuery itself could not be reached.
    if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) {
      return bigQueryConnectionFailed({ config: this.config, engineMessage });
    }
    const reasons = ((error as { errors?: { reason?: unknown }[] } | null)?.errors ?? []).map(
      (item) => item.reason,
    );
    const context = { ...this.context, engineMessage, cause: error };
    if (
      limits?.timeoutMs !== undefined &&
      (reasons.includes('timeout') || /timed out/i.test(engineMessage))
    ) {
      return queryTimeout({ ...context, timeoutMs: limits.timeoutMs });
    }
    if (reasons.includes('bytesBilledLimitExceeded')) {
      return queryFailed({
        ...context,
        engineMessage:
          `${engineMessage} (nao caps every query at \`maximum_bytes_billed\`, ${this.config.maximum_bytes_billed} bytes ` +
          'for this database: make the query read less, or raise the cap in nao_config.yaml)',
      });
    }
    return queryFailed(context);
  }
}

/** A GoogleSQL quoted identifier: backticks, with backslash escapes. */
function quoteIdentifier(name: string): string {
  return `\`${name.replaceAll('\\', '\\\\').replaceAll('`', '\\`')}\``;
}
