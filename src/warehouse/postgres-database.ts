import pg from 'pg';
import type { DatabaseConfig } from '../config/schema.js';
import { describeServerTarget, redactSecrets, secretsOf } from './connection-target.js';
import type { CellValue, ColumnInfo, Database, QueryOptions, QueryResult, TableInfo } from './database.js';
import { type PortalField, PortalQuery } from './postgres-portal-query.js';
import { postgresCellConverter } from './postgres-value.js';
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

export type PostgresDatabaseConfig = Extract<DatabaseConfig, { type: 'postgres' }>;

/** How long past `timeoutMs` nao waits for the server's own statement_timeout before cancelling itself. */
const CLIENT_GRACE_MS = 2000;

// Every value reaches nao as text and is converted per column by postgres-value.ts; this
// per-pool parser table keeps pg's process-wide parsers (lossy for int8, numeric, timestamps) out.
const TEXT_TYPES = { getTypeParser: () => (text: string) => text } as unknown as pg.CustomTypesConfig;

/**
 * Opens a pool to a PostgreSQL server and checks that it answers. Every query runs alone in
 * `BEGIN READ ONLY … ROLLBACK` with its settings `SET LOCAL` (time limit, search_path from
 * `schema`, UTC and ISO output), so the server refuses writes and the session is left as found.
 *
 * What the engine does not cover: a superuser (or a member of pg_write_server_files /
 * pg_execute_server_program) can still write server files with `COPY … TO 'file'` inside a
 * read-only transaction. Give nao a role without those rights.
 */
export async function openPostgresDatabase(config: PostgresDatabaseConfig): Promise<Database> {
  const database = new PostgresDatabase(config);
  await database.check();
  return database;
}

class PostgresDatabase implements Database {
  readonly dialect = 'postgres' as const;
  readonly name: string;
  private readonly pool: pg.Pool;
  private readonly clientConfig: pg.ClientConfig;
  private readonly schema: string | undefined;
  private readonly target: string;
  private readonly secrets: string[];
  /** format_type() of (oid, typmod) pairs seen so far. */
  private readonly typeNames = new Map<string, string>();
  /** Backend process ids of queries in flight, cancelled by close(). */
  private readonly running = new Set<number>();
  private closed = false;

  constructor(config: PostgresDatabaseConfig) {
    this.name = config.name;
    this.schema = config.schema;
    this.target = describeServerTarget(config, 5432);
    this.secrets = secretsOf(config);
    this.clientConfig = {
      connectionString: config.url,
      host: config.host,
      port: config.port,
      user: config.user,
      password: config.password,
      database: config.database,
      application_name: 'nao',
      connectionTimeoutMillis: 10_000,
      types: TEXT_TYPES,
    };
    this.pool = new pg.Pool({
      ...this.clientConfig,
      max: 4,
      idleTimeoutMillis: 30_000,
      allowExitOnIdle: true,
    });
    // An idle client whose server went away reports here; the pool drops it and the next query reconnects.
    this.pool.on('error', () => {});
  }

  async check(): Promise<void> {
    try {
      const client = await this.pool.connect();
      try {
        const found = await client.query({
          text: 'SELECT 1 FROM pg_catalog.pg_namespace WHERE nspname = $1',
          values: [this.schema ?? 'public'],
        });
        if (this.schema !== undefined && found.rowCount === 0) {
          // Every unqualified name would fail later with a baffling "relation does not exist".
          throw new Error(`schema "${this.schema}" does not exist; check \`schema\``);
        }
      } finally {
        client.release();
      }
    } catch (error) {
      this.closed = true;
      await this.pool.end().catch(() => {});
      throw this.connectionError(error);
    }
  }

  async query(sql: string, options?: QueryOptions): Promise<QueryResult> {
    const limits = startQuery({ database: this.name, dialect: this.dialect, sql, query: options });
    const client = await this.connect();
    const pid = (client as unknown as { processID: number | null }).processID;
    if (pid !== null) this.running.add(pid);
    let discard = false;
    let cancelling: Promise<void> | undefined;
    const watch = watchQuery({
      limits,
      graceMs: CLIENT_GRACE_MS,
      cancel: () => {
        // The cancel may land after the statement ended, on our ROLLBACK: never reuse this client.
        discard = true;
        if (pid !== null) cancelling = this.cancelBackend(pid);
      },
    });
    try {
      await client.query(this.preamble(limits));
      const portal = new PortalQuery(sql, limits.maxRows);
      void client.query(portal as unknown as pg.Submittable);
      const result = await portal.result;
      const columns = await this.columnsOf(client, result.fields);
      const converters = result.fields.map((field) => postgresCellConverter(field.dataTypeID));
      const rows = result.rows.map((row) =>
        row.map((text, index): CellValue => (text === null ? null : converters[index]!(text))),
      );
      return { columns, rows, truncated: result.truncated };
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
      if (!discard) {
        try {
          await client.query('ROLLBACK');
        } catch {
          discard = true;
        }
      }
      if (pid !== null) this.running.delete(pid);
      // The backend must outlive the cancel aimed at it: pg_cancel_backend names a pid, which
      // the OS could hand to another session once this one is gone.
      await cancelling;
      client.release(discard ? true : undefined);
    }
  }

  async listTables(): Promise<TableInfo[]> {
    const client = await this.connect();
    try {
      const result = await client.query<[string, string, string | null, string | null]>({
        rowMode: 'array',
        text: `SELECT n.nspname, c.relname, a.attname, format_type(a.atttypid, a.atttypmod)
                 FROM pg_catalog.pg_class c
                 JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
                 LEFT JOIN pg_catalog.pg_attribute a
                   ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
                WHERE c.relkind IN ('r', 'v', 'm', 'p', 'f')
                  AND NOT c.relispartition
                  AND n.nspname NOT IN ('pg_catalog', 'information_schema')
                  AND n.nspname NOT LIKE 'pg\\_toast%'
                  AND n.nspname NOT LIKE 'pg\\_temp\\_%'
                  AND ($1::text IS NULL OR n.nspname = $1)
                  AND has_schema_privilege(n.oid, 'USAGE')
                  AND has_any_column_privilege(c.oid, 'SELECT')
                ORDER BY n.nspname, c.relname, a.attnum`,
        values: [this.schema ?? null],
      });
      const tables: TableInfo[] = [];
      for (const [schema, table, column, type] of result.rows) {
        let last = tables.at(-1);
        if (last === undefined || last.schema !== schema || last.name !== table) {
          last = { schema, name: table, columns: [] };
          tables.push(last);
        }
        if (column !== null) last.columns.push({ name: column, type: type ?? '' });
      }
      return tables;
    } catch (error) {
      throw this.queryError(error, undefined);
    } finally {
      client.release();
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.running].map((pid) => this.cancelBackend(pid)));
    await this.pool.end();
  }

  private preamble(limits: QueryLimits): string {
    const statements = [
      'BEGIN READ ONLY',
      "SET LOCAL TimeZone = 'UTC'",
      "SET LOCAL DateStyle = 'ISO, MDY'",
      "SET LOCAL IntervalStyle = 'postgres'",
      'SET LOCAL extra_float_digits = 1',
    ];
    if (limits.timeoutMs !== undefined) {
      statements.push(`SET LOCAL statement_timeout = ${Math.max(1, Math.ceil(limits.timeoutMs))}`);
    }
    if (this.schema !== undefined)
      statements.push(`SET LOCAL search_path TO ${pg.escapeIdentifier(this.schema)}`);
    return statements.join('; ');
  }

  /** Column names with the server's spelling of their types ('numeric(38,10)'), looked up once per type. */
  private async columnsOf(client: pg.PoolClient, fields: PortalField[]): Promise<ColumnInfo[]> {
    const key = (field: PortalField) => `${field.dataTypeID}:${field.dataTypeModifier}`;
    const missing = [
      ...new Map(fields.filter((field) => !this.typeNames.has(key(field))).map((f) => [key(f), f])).values(),
    ];
    if (missing.length > 0) {
      try {
        const result = await client.query<[string]>({
          rowMode: 'array',
          text: 'SELECT format_type(t.oid, t.typmod) FROM unnest($1::oid[], $2::int4[]) WITH ORDINALITY AS t(oid, typmod, n) ORDER BY t.n',
          values: [missing.map((field) => field.dataTypeID), missing.map((field) => field.dataTypeModifier)],
        });
        missing.forEach((field, index) => {
          const name = result.rows[index]?.[0];
          if (name) this.typeNames.set(key(field), name);
        });
      } catch {
        // The statement may have ended the transaction (an error, a COMMIT); fall back to OIDs below.
      }
    }
    return fields.map((field) => ({
      name: field.name,
      type: this.typeNames.get(key(field)) ?? `oid ${field.dataTypeID}`,
    }));
  }

  private async connect(): Promise<pg.PoolClient> {
    if (this.closed) throw databaseClosed({ database: this.name, dialect: this.dialect });
    try {
      return await this.pool.connect();
    } catch (error) {
      throw this.connectionError(error);
    }
  }

  /** Asks the server to cancel what backend `pid` runs, over a separate connection (pg has no client-side cancel). */
  private async cancelBackend(pid: number): Promise<void> {
    const client = new pg.Client(this.clientConfig);
    client.on('error', () => {});
    try {
      await client.connect();
      await client.query('SELECT pg_cancel_backend($1)', [pid]);
    } catch {
      // Best effort: if the server cannot be reached, the query cannot be running either.
    } finally {
      await client.end().catch(() => {});
    }
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
    const { code, hint } = error as { code?: unknown; hint?: unknown };
    const message = redactSecrets(messageOf(error), this.secrets);
    const engineMessage = typeof hint === 'string' && hint !== '' ? `${message} (hint: ${hint})` : message;
    const context = { database: this.name, dialect: this.dialect, engineMessage, cause: error };
    if (code === '25006') return readOnlyViolation(context);
    if (code === '57014' && /statement timeout/.test(message) && limits?.timeoutMs !== undefined) {
      return queryTimeout({
        database: this.name,
        dialect: this.dialect,
        timeoutMs: limits.timeoutMs,
        cause: error,
      });
    }
    // A Node error code instead of an SQLSTATE: the connection itself failed (server gone, network).
    if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return this.connectionError(error);
    return queryFailed(context);
  }
}
