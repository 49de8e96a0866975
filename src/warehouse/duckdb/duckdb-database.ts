import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import type { Database, PlanOutcome, QueryOptions, QueryResult, TableInfo } from '../database.js';
import { duckDbMemoryLimit } from '../memory-limit.js';
import { startQuery, stoppedError, watchQuery } from '../query-control.js';
import { tablesOfColumns } from '../table-list.js';
import {
  connectionFailed,
  databaseClosed,
  messageOf,
  queryFailed,
  queryOutOfMemory,
  readOnlyViolation,
  type WarehouseError,
} from '../warehouse-error.js';
import { readDuckDbQuery } from './duckdb-query.js';

/**
 * What the engine guarantees, checked by conformance/ (its DuckDB entry lists the statements):
 * - `access_mode=READ_ONLY`: every write to the database file (INSERT, CREATE, DROP, ALTER,
 *   CHECKPOINT of changes…) fails with DuckDB's "attached in read-only mode" error.
 * - `enable_external_access=false`: no file outside the opened database can be read or
 *   written — COPY … TO 'file', EXPORT DATABASE, ATTACH of another file, read_csv('/etc/…'),
 *   INSTALL/LOAD of extensions all fail. The database itself stays readable because it is
 *   opened before the setting takes effect.
 * - `lock_configuration=true` (set last): a query cannot undo the above with SET/PRAGMA, nor
 *   change global settings such as threads, memory or profiling output.
 * - `temp_directory=''` (set first: external access off forbids changing it): nothing spills to
 *   disk. DuckDB would otherwise write `<file>.tmp/` beside the warehouse, up to 90% of the disk,
 *   once a query outgrows `memory_limit`; such a query fails instead (QUERY_OUT_OF_MEMORY).
 * What remains allowed is harmless: temporary tables live in memory and vanish with the
 * query's connection, which is never reused.
 * The time zone is pinned to UTC so TIMESTAMPTZ arithmetic does not depend on the machine.
 */
const READ_ONLY_CONFIG: Record<string, string> = {
  temp_directory: '',
  access_mode: 'READ_ONLY',
  enable_external_access: 'false',
  autoinstall_known_extensions: 'false',
  autoload_known_extensions: 'false',
};

/**
 * Opens a DuckDB file read-only; a missing or unreadable file is a CONNECTION_FAILED error.
 * `memoryLimit` (see duckDbMemoryLimit) bounds the memory of all its queries together.
 */
export async function openDuckDbDatabase(options: {
  name: string;
  path: string;
  memoryLimit?: string;
}): Promise<Database> {
  const { name, path } = options;
  let instance: DuckDBInstance;
  try {
    // An in-memory database (a DuckDB entry without `path`, as the original nao's `nao init`
    // writes it) is empty and private to this process; DuckDB cannot open one read-only.
    const { access_mode: _readOnly, ...inMemory } = READ_ONLY_CONFIG;
    instance = await DuckDBInstance.create(path, {
      ...(path === ':memory:' ? inMemory : READ_ONLY_CONFIG),
      ...(options.memoryLimit === undefined ? {} : { memory_limit: duckDbMemoryLimit(options.memoryLimit) }),
    });
  } catch (error) {
    throw connectionFailed({
      database: name,
      dialect: 'duckdb',
      target: path,
      engineMessage: messageOf(error),
    });
  }
  let memoryLimit: string;
  try {
    const connection = await instance.connect();
    try {
      await connection.run("SET GLOBAL TimeZone = 'UTC'; SET GLOBAL lock_configuration = true");
      const reader = await connection.runAndReadAll("SELECT current_setting('memory_limit')");
      memoryLimit = String(reader.getRows()[0]?.[0]);
    } finally {
      connection.closeSync();
    }
  } catch (error) {
    instance.closeSync();
    throw connectionFailed({
      database: name,
      dialect: 'duckdb',
      target: path,
      engineMessage: messageOf(error),
    });
  }
  return new DuckDbDatabase(name, instance, memoryLimit);
}

class DuckDbDatabase implements Database {
  readonly dialect = 'duckdb' as const;
  private instance: DuckDBInstance | null;
  /** Queries in flight, stopped by close(). */
  private readonly active = new Map<DuckDBConnection, Interrupter>();
  /** Connections still being opened, awaited by close(). */
  private readonly connecting = new Set<Promise<DuckDBConnection>>();

  constructor(
    readonly name: string,
    instance: DuckDBInstance,
    /** DuckDB's spelling of its memory limit (`5.8 GiB`), for the message of a query that ran into it. */
    private readonly memoryLimit: string,
  ) {
    this.instance = instance;
  }

  async query(sql: string, options?: QueryOptions): Promise<QueryResult> {
    const limits = startQuery({ database: this.name, dialect: this.dialect, sql, query: options });
    // One connection per query: queries run in parallel, and session state (SET, temp
    // tables, an interrupt that arrives late) dies with the query.
    const { connection, interrupter } = await this.connect();
    const watch = watchQuery({ limits, cancel: () => interrupter.start() });
    try {
      // An abort while connecting came before the watch: an interrupt now would be lost.
      limits.signal?.throwIfAborted();
      return await readDuckDbQuery({
        connection,
        sql,
        maxRows: limits.maxRows,
        // A read of several statements would miss an interrupt or a close between two of them.
        checkpoint: () => {
          if (watch.reason !== undefined || this.instance === null) throw new Error('the query was stopped');
        },
      });
    } catch (error) {
      if (limits.signal?.aborted && watch.reason === undefined) throw limits.signal.reason;
      throw (
        stoppedError({
          database: this.name,
          dialect: this.dialect,
          reason: watch.reason,
          limits,
          cause: error,
        }) ?? this.queryError(error)
      );
    } finally {
      watch.dispose();
      this.release(connection, interrupter);
    }
  }

  /**
   * EXPLAIN, on the SQL's first line, so the engine's line numbers are the SQL's own. EXPLAIN
   * takes one statement: before several, DuckDB would plan the first and run the others in
   * full, and a later one may read what an earlier one makes (a temp table, a variable), so
   * SQL of several statements is left to the run, which runs them all.
   */
  async plan(sql: string, options?: Pick<QueryOptions, 'timeoutMs' | 'signal'>): Promise<PlanOutcome> {
    const statements = await this.statementCount(sql);
    if (statements > 1) {
      return {
        planned: false,
        reason: `it has ${statements} statements; only a single statement is planned ahead of the run`,
      };
    }
    await this.query(`EXPLAIN ${sql}`, { ...options, maxRows: 0 });
    return { planned: true };
  }

  async listTables(): Promise<TableInfo[]> {
    const { connection, interrupter } = await this.connect();
    try {
      const reader = await connection.runAndReadAll(
        `SELECT table_schema, table_name, column_name, data_type
           FROM information_schema.columns
          WHERE table_catalog = current_database()
            AND table_schema NOT IN ('information_schema', 'pg_catalog')
          ORDER BY table_schema, table_name, ordinal_position`,
      );
      return tablesOfColumns(
        (reader.getRows() as string[][]).map(([schema, table, name, type]) => ({
          schema: schema!,
          table: table!,
          column: { name: name!, type: type! },
        })),
      );
    } catch (error) {
      throw this.queryError(error);
    } finally {
      this.release(connection, interrupter);
    }
  }

  /** The statements DuckDB's parser finds in `sql`; 1 when it cannot parse it, so EXPLAIN says why. */
  private async statementCount(sql: string): Promise<number> {
    const { connection, interrupter } = await this.connect();
    try {
      return (await connection.extractStatements(sql)).count;
    } catch {
      return 1;
    } finally {
      this.release(connection, interrupter);
    }
  }

  async close(): Promise<void> {
    const instance = this.instance;
    if (instance === null) return;
    this.instance = null;
    for (const interrupter of this.active.values()) interrupter.start();
    // The bindings promise nothing about a connect that is pending while its instance closes.
    await Promise.allSettled(this.connecting);
    instance.closeSync();
  }

  private async connect(): Promise<{ connection: DuckDBConnection; interrupter: Interrupter }> {
    if (this.instance === null) throw databaseClosed({ database: this.name, dialect: this.dialect });
    const connecting = this.instance.connect();
    this.connecting.add(connecting);
    const connection = await connecting.finally(() => this.connecting.delete(connecting));
    if (this.instance === null) {
      // Closed while connecting.
      connection.closeSync();
      throw databaseClosed({ database: this.name, dialect: this.dialect });
    }
    const interrupter = new Interrupter(connection);
    this.active.set(connection, interrupter);
    return { connection, interrupter };
  }

  private release(connection: DuckDBConnection, interrupter: Interrupter): void {
    interrupter.stop();
    this.active.delete(connection);
    connection.closeSync();
  }

  private queryError(error: unknown): WarehouseError {
    // Whatever close() interrupted failed because of the close, not because of its SQL.
    if (this.instance === null) return databaseClosed({ database: this.name, dialect: this.dialect });
    const engineMessage = messageOf(error);
    const context = { database: this.name, dialect: this.dialect, engineMessage, cause: error };
    if (OUT_OF_MEMORY_MESSAGE.test(engineMessage)) {
      // Its first line has the sizes; the rest suggests settings that a query cannot change.
      const [firstLine = engineMessage] = engineMessage.split('\n');
      return queryOutOfMemory({ ...context, engineMessage: firstLine, limit: this.memoryLimit });
    }
    return READ_ONLY_MESSAGE.test(engineMessage) ? readOnlyViolation(context) : queryFailed(context);
  }
}

/**
 * The refusals of the settings at open: writes to the file ("…which is attached in read-only
 * mode!", "Cannot launch in-memory database in read-only mode!"), SET/PRAGMA of a setting ("the
 * configuration has been locked") and files or extensions outside the database ("file system
 * operations are disabled by configuration", "Loading external extensions is disabled through
 * configuration").
 */
const READ_ONLY_MESSAGE = /read-only mode|configuration has been locked|disabled (by|through) configuration/i;

/** A query that needed more than `memory_limit` (and could not spill, see READ_ONLY_CONFIG). */
const OUT_OF_MEMORY_MESSAGE = /^Out of Memory Error/;

/** How often a stopped query is interrupted again until it ends. */
const INTERRUPT_REPEAT_MS = 25;

/**
 * Stops the query of one connection. DuckDB forgets an interrupt that lands before a
 * statement starts to run (it clears the flag as the statement begins, and a busy thread
 * pool can start it late), so once started it repeats until the query ends.
 */
class Interrupter {
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly connection: DuckDBConnection) {}

  start(): void {
    if (this.timer !== undefined) return;
    this.connection.interrupt();
    this.timer = setInterval(() => this.connection.interrupt(), INTERRUPT_REPEAT_MS);
  }

  /** Called once the query is over, before its connection closes. */
  stop(): void {
    clearInterval(this.timer);
  }
}
