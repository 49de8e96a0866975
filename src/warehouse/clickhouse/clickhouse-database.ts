import { randomUUID } from 'node:crypto';
import type { ClickHouseClient } from '@clickhouse/client';
import { messageOf } from '../../errors/index.js';
import { describeServerTarget } from '../connection-target.js';
import type { CellValue, ColumnInfo, Database, QueryOptions, QueryResult, TableInfo } from '../database.js';
import type { DatabaseConfig } from '../database-config.js';
import { MEMORY_LIMIT_PATTERN } from '../memory-limit.js';
import { loadOptionalDriver } from '../optional-driver.js';
import { NO_LIMITS, type QueryLimits, startQuery } from '../query-control.js';
import { ServerConnection, type ServerErrorVerdict } from '../server-connection.js';
import { type CatalogRow, compareTables, tablesOfRows } from '../table-list.js';
import { queryFailed, queryOutOfMemory, WarehouseError } from '../warehouse-error.js';
import { readTsv } from './clickhouse-tsv.js';
import { type ClickHouseCellConverter, clickHouseCellConverter } from './clickhouse-value.js';

export type ClickHouseDatabaseConfig = Extract<DatabaseConfig, { type: 'clickhouse' }>;

type ClickHouseDriver = typeof import('@clickhouse/client');

export interface OpenClickHouseOptions {
  /** `agent.query_memory_limit`: a size becomes each query's `max_memory_usage`; a share of nao's machine says nothing of the server's. */
  memoryLimit?: string;
  /** Loads the driver; a test replaces it to see the message of a missing package. */
  importDriver?: () => Promise<ClickHouseDriver>;
}

const FORMAT = 'TabSeparatedWithNamesAndTypes';
const FORMAT_CLAUSE = `\nFORMAT ${FORMAT}`;

/**
 * Opens a client of a ClickHouse server's HTTP interface and checks that it answers (and that
 * `database` exists).
 *
 * Read-only: every request carries the setting `readonly=1`, with which the server refuses
 * every write, DDL, `SET`/`SETTINGS` (so a query cannot lift it), table functions (file, url,
 * remote, mysql…) and SYSTEM/OPTIMIZE statements. Requests are stateless (no `session_id`), so
 * nothing one query does reaches the next. Each query gets `max_execution_time` from its time
 * limit and, for a size in `agent.query_memory_limit`, `max_memory_usage`; a stopped query is
 * aborted on the client and killed on the server (`KILL QUERY` by its query_id).
 *
 * What the engine does not cover: `KILL QUERY` stays allowed in readonly mode for the queries
 * of the same user, so nao's user should not be shared with other clients.
 */
export async function openClickHouseDatabase(
  config: ClickHouseDatabaseConfig,
  options: OpenClickHouseOptions = {},
): Promise<Database> {
  const port = config.port ?? (config.secure ? 8443 : 8123);
  const fields = {
    host: config.host,
    port,
    user: config.user,
    password: config.password,
    database: config.database,
  };
  if (config.protocol === 'native') {
    throw new WarehouseError({
      code: 'CONNECTION_FAILED',
      database: config.name,
      dialect: 'clickhouse',
      message:
        `Could not connect to database "${config.name}" (clickhouse at ${describeServerTarget({ ...fields, port: config.port }, 9000)}): ` +
        "nao speaks ClickHouse's " +
        'HTTP interface only, not the native TCP protocol. Set `protocol: http` and the HTTP port (8123, or 8443 ' +
        'with `secure: true`) of this database in nao_config.yaml.',
    });
  }
  const driver = await loadOptionalDriver({
    database: config.name,
    dialect: 'clickhouse',
    target: describeServerTarget(fields, port),
    packageName: '@clickhouse/client',
    importer: options.importDriver ?? (() => import('@clickhouse/client')),
  });
  const database = new ClickHouseDatabase({ config, fields, driver, memoryLimit: options.memoryLimit });
  await database.check(config.connect_timeout);
  return database;
}

interface RunningQuery {
  queryId: string;
  controller: AbortController;
}

interface Collected {
  columns: ColumnInfo[];
  rows: CellValue[][];
  truncated: boolean;
}

class ClickHouseDatabase implements Database {
  readonly dialect = 'clickhouse' as const;
  readonly name: string;
  private readonly client: ClickHouseClient;
  private readonly server: ServerConnection;
  private readonly memoryLimit: { bytes: number; spelling: string } | undefined;
  /** Queries in flight by the number ServerConnection knows them by. */
  private readonly running = new Map<number, RunningQuery>();
  private nextSession = 1;

  constructor(options: {
    config: ClickHouseDatabaseConfig;
    fields: { host: string; port: number; user: string; password: string; database: string };
    driver: ClickHouseDriver;
    memoryLimit: string | undefined;
  }) {
    const { config, fields, driver } = options;
    this.name = config.name;
    this.memoryLimit = memoryBytes(options.memoryLimit);
    this.server = new ServerConnection({
      name: config.name,
      dialect: this.dialect,
      fields,
      defaultPort: fields.port,
      cancelSession: (session) => this.kill(session),
      classify: classifyError,
    });
    this.client = driver.createClient({
      url: `${config.secure ? 'https' : 'http'}://${bracketed(fields.host)}:${fields.port}`,
      username: fields.user,
      password: fields.password,
      database: fields.database,
      application: 'nao',
      // nao bounds each query itself (time limit, abort); the driver's own limit would cut long queries at 30 s.
      request_timeout: (config.send_receive_timeout ?? 24 * 3600) * 1000,
      log: { level: driver.ClickHouseLogLevel.OFF },
    });
  }

  async check(connectTimeoutS: number | undefined): Promise<void> {
    const seconds = connectTimeoutS ?? 10;
    const signal = AbortSignal.timeout(seconds * 1000);
    await this.server.open(
      async () => {
        try {
          await this.collect('SELECT version()', { ...NO_LIMITS, maxRows: 1 }, signal);
        } catch (error) {
          if (signal.aborted) throw new Error(`no answer within ${seconds} s (connect_timeout)`);
          throw error;
        }
      },
      () => this.client.close(),
    );
  }

  async query(sql: string, options?: QueryOptions): Promise<QueryResult> {
    const limits = startQuery({ database: this.name, dialect: this.dialect, sql, query: options });
    await this.server.acquire(async () => undefined);
    const statement = sql.replace(/[\s;]+$/, '');
    try {
      return await this.run(statement + FORMAT_CLAUSE, limits);
    } catch (error) {
      const rejected = formatRejection(error, statement);
      if (rejected === undefined) throw error;
      if (rejected === 'theirs') {
        throw queryFailed({
          database: this.name,
          dialect: this.dialect,
          engineMessage: 'nao reads results in its own format: remove the FORMAT clause of the query',
          cause: error,
        });
      }
    }
    // The statement takes no FORMAT (SET, KILL…): nothing ran, since the server refused to parse it.
    await this.run(statement, { ...limits, maxRows: 0 });
    return { columns: [], rows: [], truncated: false };
  }

  async listTables(): Promise<TableInfo[]> {
    await this.server.acquire(async () => undefined);
    // The configured database's tables: the other databases of the server stay reachable by qualified name.
    const result = await this.collect(
      `SELECT database, table, name, type FROM system.columns WHERE database = currentDatabase()${FORMAT_CLAUSE}`,
      NO_LIMITS,
      new AbortController().signal,
    ).catch((error: unknown) => {
      throw this.server.queryError(error, undefined);
    });
    // system.columns lists a table's columns in their order (18.x has no `position` to sort by), the tables in none.
    const tables = tablesOfRows(result.rows as CatalogRow[]);
    return tables.sort(compareTables);
  }

  close(): Promise<void> {
    return this.server.close(() => this.client.close());
  }

  /** One request under nao's watch: its time limit, its signal, close(). */
  private async run(query: string, limits: QueryLimits): Promise<QueryResult> {
    const session = this.nextSession++;
    const running: RunningQuery = { queryId: randomUUID(), controller: new AbortController() };
    this.running.set(session, running);
    const watch = this.server.watch(limits, session);
    let capped = false;
    try {
      const result = await this.collect(query, limits, running.controller.signal, running.queryId);
      capped = result.truncated;
      watch.throwIfStopped();
      return result;
    } catch (error) {
      const stopped = watch.stopped(error);
      if (stopped !== undefined) throw stopped;
      if (this.memoryLimit !== undefined && serverCode(error) === '241') {
        throw queryOutOfMemory({
          database: this.name,
          dialect: this.dialect,
          engineMessage: engineMessageOf(error),
          limit: this.memoryLimit.spelling,
          cause: error,
        });
      }
      throw watch.failure(error);
    } finally {
      await watch.finish();
      this.running.delete(session);
      // Past the cap the server is still producing rows: stop it there too.
      if (capped) void this.server.cancel(session);
    }
  }

  /** Sends `query` and reads its rows up to `limits.maxRows`, closing the response early at the cap. */
  private async collect(
    query: string,
    limits: QueryLimits,
    signal: AbortSignal,
    queryId?: string,
  ): Promise<Collected> {
    const settings: Record<string, string | number> = { readonly: '1' };
    if (limits.timeoutMs !== undefined)
      settings.max_execution_time = Math.max(1, Math.ceil(limits.timeoutMs / 1000));
    if (this.memoryLimit !== undefined) settings.max_memory_usage = this.memoryLimit.bytes;
    const { stream } = await this.client.exec({
      query,
      clickhouse_settings: settings as never,
      abort_signal: signal,
      ...(queryId === undefined ? {} : { query_id: queryId }),
    });
    const columns: ColumnInfo[] = [];
    let converters: ClickHouseCellConverter[] = [];
    const rows: CellValue[][] = [];
    let truncated = false;
    try {
      await readTsv({
        stream,
        onHeader: ({ names, types }) => {
          for (const [index, name] of names.entries()) columns.push({ name, type: types[index] ?? '' });
          converters = types.map(clickHouseCellConverter);
        },
        onRow: (fields) => {
          if (rows.length >= limits.maxRows) {
            truncated = true;
            return false;
          }
          rows.push(fields.map((field, index) => converters[index]!(field)));
          return true;
        },
      });
    } finally {
      stream.destroy();
    }
    return { columns, rows, truncated };
  }

  /** Aborts the request and asks the server to kill the query, over a request of its own. */
  private async kill(session: number): Promise<void> {
    const running = this.running.get(session);
    if (running === undefined) return;
    running.controller.abort();
    try {
      await this.client.command({
        query: `KILL QUERY WHERE query_id = '${running.queryId}' ASYNC`,
        clickhouse_settings: { readonly: '1' } as never,
      });
    } catch {
      // Best effort: the query may have ended on its own.
    }
  }
}

/** ClickHouse's error code: the client's `code`, or the `Code: 164` of a message it could not parse (18.x wording). */
function serverCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && /^\d+$/.test(code)) return code;
  const match = /^Code: (\d+)[.,]/.exec(error instanceof Error ? error.message : '');
  return match?.[1];
}

/** The server's words without the wrapping ('Code: 164, e.displayText() = DB::Exception: … e.what() = …'). */
function engineMessageOf(error: unknown, message = messageOf(error)): string {
  const inner =
    /DB::Exception: ([\s\S]*?)(?:, e\.what\(\) = DB::Exception)?\s*$/.exec(message)?.[1] ?? message;
  const code = serverCode(error);
  return code === undefined || inner.includes(`code ${code}`)
    ? inner.trim()
    : `${inner.trim()} (code ${code})`;
}

/** Codes of `readonly=1` refusals and of `max_execution_time`. */
function classifyError(error: unknown, message: string): ServerErrorVerdict {
  const engineMessage = engineMessageOf(error, message);
  const code = serverCode(error);
  // 164 READONLY: every write, DDL, SET, table function and SYSTEM statement under readonly=1.
  if (code === '164') return { kind: 'read-only', engineMessage };
  // 113 NO_SESSION: a SET sent without a FORMAT clause, which some 18.x servers refuse for want of a
  // session before readonly=1 is consulted. nao's requests never carry one: a settings change.
  if (code === '113') return { kind: 'read-only', engineMessage };
  if (code === '159') return { kind: 'timeout', engineMessage };
  return { kind: 'failed', engineMessage };
}

/**
 * Whether a syntax error is about the FORMAT clause nao appended: because the statement has one
 * of its own ('theirs'), or takes none ('ours': the error is past the statement's end).
 */
function formatRejection(error: unknown, statement: string): 'ours' | 'theirs' | undefined {
  if (!(error instanceof WarehouseError) || error.code !== 'QUERY_FAILED') return undefined;
  const cause = error.cause;
  if (serverCode(cause) !== '62') return undefined;
  if (/\bFORMAT\s+[A-Za-z]\w*$/i.test(statement)) return 'theirs';
  const position = /failed at position (\d+)/.exec(cause instanceof Error ? cause.message : '')?.[1];
  return position !== undefined && Number(position) >= Buffer.byteLength(statement) + 1 ? 'ours' : undefined;
}

function memoryBytes(spelling: string | undefined): { bytes: number; spelling: string } | undefined {
  const match = spelling === undefined ? null : MEMORY_LIMIT_PATTERN.exec(spelling);
  if (match === null || spelling === undefined) return undefined;
  const unit = match[2]!.toUpperCase();
  if (unit === '%') return undefined;
  const factors: Record<string, number> = {
    B: 1,
    KB: 1e3,
    MB: 1e6,
    GB: 1e9,
    TB: 1e12,
    KIB: 2 ** 10,
    MIB: 2 ** 20,
    GIB: 2 ** 30,
    TIB: 2 ** 40,
  };
  return { bytes: Math.max(1, Math.floor(Number(match[1]) * factors[unit]!)), spelling: spelling.trim() };
}

function bracketed(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}
