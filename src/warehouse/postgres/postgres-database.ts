import pg from 'pg';
import { describeServerTarget, type ServerConnectionFields } from '../connection-target.js';
import type { CellValue, ColumnInfo, Database, QueryOptions, QueryResult, TableInfo } from '../database.js';
import { type DatabaseConfig, plannedAhead } from '../database-config.js';
import { enforceRolePolicy, type RoleCheckOptions } from '../privileged-role.js';
import { type QueryLimits, startQuery } from '../query-control.js';
import { ServerConnection, type ServerErrorVerdict } from '../server-connection.js';
import { type CatalogRow, tablesOfRows } from '../table-list.js';
import { readOnlyViolation } from '../warehouse-error.js';
import { type PortalField, PortalQuery } from './postgres-portal-query.js';
import { postgresRole } from './postgres-role.js';
import {
  POSTGRES_EXPLAIN_PREFIX,
  postgresPlanRefusal,
  postgresStatementRefusal,
} from './postgres-statement-guard.js';
import { postgresCellConverter } from './postgres-value.js';

export type PostgresDatabaseConfig = Extract<DatabaseConfig, { type: 'postgres' }>;

/**
 * A server of the PostgreSQL family: PostgreSQL itself, or Amazon Redshift (same wire
 * protocol, an older SQL: no IntervalStyle, unnest, relispartition or has_any_column_privilege,
 * and its statement_timeout cancels with its own words).
 */
export interface PostgresFamilyOptions {
  name: string;
  dialect: 'postgres' | 'redshift';
  fields: ServerConnectionFields;
  defaultPort: number;
  schema: string | undefined;
  ssl?: pg.ClientConfig['ssl'];
  /**
   * PostgreSQL's guard: the role is checked on connect, and each statement is read and then
   * planned by the server before it runs (postgres-statement-guard.ts). Absent for Redshift,
   * whose catalog and EXPLAIN differ.
   */
  guard?: RoleCheckOptions;
}

// Every value reaches nao as text and is converted per column by postgres-value.ts; this
// per-pool parser table keeps pg's process-wide parsers (lossy for int8, numeric, timestamps) out.
const TEXT_TYPES = { getTypeParser: () => (text: string) => text } as unknown as pg.CustomTypesConfig;

/**
 * Opens a pool to a PostgreSQL server and checks that it answers. Every query runs alone in
 * `BEGIN READ ONLY … ROLLBACK` with its settings `SET LOCAL` (time limit, search_path from
 * `schema`, UTC and ISO output), so the server refuses writes and the session is left as found.
 *
 * What a read-only transaction does not cover: a superuser (or a member of
 * pg_read_server_files / pg_write_server_files / pg_execute_server_program) can still run
 * `COPY … TO PROGRAM`, `pg_read_file()`, `pg_reload_conf()` inside it. So nao refuses such a
 * role unless `allow_privileged_role` is set, runs only what the server plans as a query, and
 * refuses those functions by name (postgres-statement-guard.ts).
 */
export function openPostgresDatabase(
  config: PostgresDatabaseConfig,
  options: { onWarning?: (warning: string) => void } = {},
): Promise<Database> {
  return openPostgresFamilyDatabase({
    name: config.name,
    dialect: 'postgres',
    fields: config,
    defaultPort: 5432,
    schema: config.schema,
    guard: { allowPrivilegedRole: config.allow_privileged_role === true, onWarning: options.onWarning },
  });
}

/** Opens a pool to a server of the PostgreSQL family (see PostgresFamilyOptions) and checks that it answers. */
export async function openPostgresFamilyDatabase(options: PostgresFamilyOptions): Promise<Database> {
  const database = new PostgresDatabase(options);
  await database.check();
  return database;
}

class PostgresDatabase implements Database {
  readonly dialect: 'postgres' | 'redshift';
  readonly name: string;
  /**
   * PostgreSQL plans every statement before running it, and the guard refuses an EXPLAIN from
   * outside: planned through `planOnly`, where the engine definition says nao plans ahead.
   */
  readonly plan: Database['plan'];
  private readonly pool: pg.Pool;
  private readonly clientConfig: pg.ClientConfig;
  private readonly schema: string | undefined;
  private readonly server: ServerConnection;
  private readonly guard: RoleCheckOptions | undefined;
  private readonly target: string;
  /** format_type() of (oid, typmod) pairs seen so far. */
  private readonly typeNames = new Map<string, string>();

  constructor(options: PostgresFamilyOptions) {
    const config = options.fields;
    this.name = options.name;
    this.dialect = options.dialect;
    this.plan = plannedAhead(options.dialect)
      ? async (sql, planOptions) => {
          await this.query(sql, { ...planOptions, planOnly: true, maxRows: 0 });
          return { planned: true };
        }
      : undefined;
    this.schema = options.schema;
    this.guard = options.guard;
    this.target = describeServerTarget(config, options.defaultPort);
    this.server = new ServerConnection({
      name: options.name,
      dialect: this.dialect,
      fields: config,
      defaultPort: options.defaultPort,
      cancelSession: (pid) => this.cancelBackend(pid),
      classify: (error, message) => classifyError(error, message, this.dialect),
    });
    this.clientConfig = {
      ...(options.ssl === undefined ? {} : { ssl: options.ssl }),
      connectionString: config.url,
      host: config.host,
      port: config.port ?? (config.url === undefined ? options.defaultPort : undefined),
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

  check(): Promise<void> {
    return this.server.open(
      async () => {
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
          if (this.guard !== undefined) {
            const role = await postgresRole(client, {
              database: this.name,
              dialect: this.dialect,
              target: this.target,
              schema: this.schema,
            });
            enforceRolePolicy(role, this.guard);
          }
        } finally {
          client.release();
        }
      },
      () => this.pool.end(),
    );
  }

  async query(sql: string, options?: QueryOptions): Promise<QueryResult> {
    const limits = startQuery({ database: this.name, dialect: this.dialect, sql, query: options });
    const context = { database: this.name, dialect: this.dialect };
    const refusal = this.guard === undefined ? undefined : postgresStatementRefusal(sql);
    if (refusal !== undefined) throw readOnlyViolation({ ...context, engineMessage: refusal });
    const client = await this.server.acquire(() => this.pool.connect());
    const pid = (client as unknown as { processID: number | null }).processID;
    const watch = this.server.watch(limits, pid);
    try {
      await client.query(this.preamble(limits));
      if (this.guard !== undefined) {
        // The server's own reading: a statement it cannot plan is no query; the plan names what it reaches.
        // The extended protocol, as for the statement itself: one statement, nothing chained after it.
        const plan = await client.query<[string]>({
          text: POSTGRES_EXPLAIN_PREFIX + sql,
          rowMode: 'array',
          queryMode: 'extended',
        } as pg.QueryArrayConfig);
        const planRefusal = postgresPlanRefusal(String(plan.rows[0]?.[0]));
        if (planRefusal !== undefined) throw readOnlyViolation({ ...context, engineMessage: planRefusal });
        if (options?.planOnly === true) return { columns: [], rows: [], truncated: false };
      }
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
      throw watch.failure(error);
    } finally {
      await watch.finish();
      // A cancel may have landed after the statement ended, on our ROLLBACK: never reuse that client.
      let discard = watch.cancelled;
      if (!discard) {
        try {
          await client.query('ROLLBACK');
        } catch {
          discard = true;
        }
      }
      client.release(discard ? true : undefined);
    }
  }

  async listTables(): Promise<TableInfo[]> {
    const client = await this.server.acquire(() => this.pool.connect());
    try {
      const result = await client.query<CatalogRow>({
        rowMode: 'array',
        text: this.dialect === 'redshift' ? REDSHIFT_TABLES : POSTGRES_TABLES,
        values: [this.schema ?? null],
      });
      // A table without columns comes back once, with a null column (the catalog query's outer join).
      return tablesOfRows(result.rows);
    } catch (error) {
      throw this.server.queryError(error, undefined);
    } finally {
      client.release();
    }
  }

  close(): Promise<void> {
    return this.server.close(() => this.pool.end());
  }

  private preamble(limits: QueryLimits): string {
    const statements = [
      'BEGIN READ ONLY',
      "SET LOCAL TimeZone = 'UTC'",
      "SET LOCAL DateStyle = 'ISO, MDY'",
      'SET LOCAL extra_float_digits = 1',
    ];
    if (this.dialect === 'postgres') statements.push("SET LOCAL IntervalStyle = 'postgres'");
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
    if (missing.length > 0 && this.dialect === 'redshift') {
      await this.lookUpTypesOneByOne(client, missing, key);
    } else if (missing.length > 0) {
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

  /** format_type() of each (oid, typmod) on its own: Redshift has no unnest() on the leader node. */
  private async lookUpTypesOneByOne(
    client: pg.PoolClient,
    fields: PortalField[],
    key: (field: PortalField) => string,
  ): Promise<void> {
    for (const field of fields) {
      try {
        const result = await client.query<[string]>({
          rowMode: 'array',
          text: 'SELECT format_type($1::oid, $2::int4)',
          values: [field.dataTypeID, field.dataTypeModifier],
        });
        const name = result.rows[0]?.[0];
        if (name) this.typeNames.set(key(field), name);
      } catch {
        // As above: the transaction may have ended; the OID stands in.
        return;
      }
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
}

/** Tables, views and their columns the role may read, in `$1` (a schema) or every user schema. */
const POSTGRES_TABLES = `SELECT n.nspname, c.relname, a.attname, format_type(a.atttypid, a.atttypmod)
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
                ORDER BY n.nspname, c.relname, a.attnum`;

/** The same on Redshift, with what its leader node has (no relispartition, has_any_column_privilege). */
const REDSHIFT_TABLES = `SELECT n.nspname, c.relname, a.attname, format_type(a.atttypid, a.atttypmod)
                 FROM pg_catalog.pg_class c
                 JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
                 LEFT JOIN pg_catalog.pg_attribute a
                   ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
                WHERE c.relkind IN ('r', 'v', 'm')
                  AND n.nspname NOT IN ('pg_catalog', 'information_schema', 'pg_internal', 'pg_automv')
                  AND n.nspname NOT LIKE 'pg\\_toast%'
                  AND n.nspname NOT LIKE 'pg\\_temp\\_%'
                  AND ($1::text IS NULL OR n.nspname = $1)
                  AND has_schema_privilege(n.nspname, 'USAGE')
                  AND has_table_privilege(quote_ident(n.nspname) || '.' || quote_ident(c.relname), 'SELECT')
                ORDER BY n.nspname, c.relname, a.attnum`;

/** SQLSTATEs of the refusals of a read-only transaction and of nao's statement_timeout. */
function classifyError(
  error: unknown,
  message: string,
  dialect: 'postgres' | 'redshift',
): ServerErrorVerdict {
  const { code, hint } = error as { code?: unknown; hint?: unknown };
  const engineMessage = typeof hint === 'string' && hint !== '' ? `${message} (hint: ${hint})` : message;
  // 25006: read_only_sql_transaction. 25001: active_sql_transaction, the refusal of what cannot
  // run inside nao's transaction (VACUUM, ALTER SYSTEM, CREATE DATABASE…), all of them changes.
  if (code === '25006' || code === '25001') return { kind: 'read-only', engineMessage };
  if (code === '57014' && /statement timeout/.test(message)) return { kind: 'timeout', engineMessage };
  // Redshift's statement_timeout says "Query (150) canceled on user's request"; nao's own cancels are told apart before.
  if (code === '57014' && dialect === 'redshift') return { kind: 'timeout', engineMessage };
  return { kind: 'failed', engineMessage };
}
