/**
 * A fresh in-memory DuckDB holding one run's query results, where model-written SQL runs.
 *
 * Layers, in order: results are loaded (the only moment files are read, from a private temp
 * folder); then external access is disabled, extensions cannot be installed or loaded, memory
 * and threads are capped, and the configuration is locked so no query can undo any of it;
 * every query passes the parser-based safety check; and each runs under a wall-clock limit
 * that interrupts it. A query that ignores the interrupt is abandoned at a hard deadline
 * and the instance is closed once it returns.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { NaoError } from '../errors/index.js';
import type { CellValue, ColumnInfo } from '../warehouse/index.js';
import { type LoadedTable, loadTables, type SourceTable } from './load-tables.js';
import { readAnswer } from './read-answer.js';
import { checkExtractionSql } from './safety-check.js';

export interface SandboxOptions {
  /** Working memory a query may use on top of the loaded tables, in bytes. Default 512 MiB. */
  memoryLimitBytes?: number;
  /** DuckDB threads. Default 2 (or fewer cores). */
  threads?: number;
  /** Wall-clock limit of one query. Default 30 s. */
  timeoutMs?: number;
  /** Rows a query may return; more is an error the model can fix. Default 1,000,000. */
  maxResultRows?: number;
  /**
   * How long a query may ignore its interrupt before it is abandoned (the instance is then
   * closed once it returns). Default 2 s.
   */
  interruptGraceMs?: number;
}

export type SandboxQueryResult =
  | { success: true; columns: ColumnInfo[]; rows: CellValue[][] }
  | { success: false; error: string; kind: SandboxFailureKind };

/** `unsafe`: refused by the safety check; `failed`: DuckDB raised an error; the rest are limits. */
export type SandboxFailureKind = 'unsafe' | 'failed' | 'timeout' | 'too-many-rows';

export const DEFAULT_SANDBOX_OPTIONS = {
  memoryLimitBytes: 512 * 1024 * 1024,
  threads: Math.max(1, Math.min(2, availableParallelism())),
  timeoutMs: 30_000,
  maxResultRows: 1_000_000,
  interruptGraceMs: 2_000,
} as const;

export class Sandbox {
  /** The loaded result tables, in the order given, with their DuckDB column types. */
  readonly tables: readonly LoadedTable[];
  private readonly options: Required<SandboxOptions>;
  private busy = false;
  /** A query that ignored its interrupt; the instance must outlive it. */
  private abandonedWork: Promise<unknown> | null = null;
  private closed = false;
  private nativeClosed = false;

  private constructor(
    private readonly instance: DuckDBInstance,
    private readonly connection: DuckDBConnection,
    private readonly workDir: string,
    tables: LoadedTable[],
    options: Required<SandboxOptions>,
  ) {
    this.tables = tables;
    this.options = options;
  }

  /** Creates the database, loads `tables` and locks it down. Close it with `close()`. */
  static async open(options: { tables: readonly SourceTable[] } & SandboxOptions): Promise<Sandbox> {
    const settings = resolveOptions(options);
    const workDir = await mkdtemp(path.join(tmpdir(), 'nao-sandbox-'));
    let instance: DuckDBInstance | undefined;
    let connection: DuckDBConnection | undefined;
    try {
      instance = await DuckDBInstance.create(':memory:', {
        autoinstall_known_extensions: 'false',
        autoload_known_extensions: 'false',
        allow_community_extensions: 'false',
        allow_unsigned_extensions: 'false',
        extension_directory: path.join(workDir, 'extensions'),
        // No spilling: a query over its memory budget fails instead of filling the disk.
        temp_directory: '',
        threads: String(settings.threads),
      });
      connection = await instance.connect();
      const tables = await loadTables({ connection, tables: options.tables, workDir });
      const used = await memoryInUse(connection);
      // UTC so that casts of TIMESTAMPTZ values do not depend on the host's zone.
      await connection.run(`SET TimeZone = 'UTC'`);
      await connection.run(`SET memory_limit = '${Math.ceil(used + settings.memoryLimitBytes)}B'`);
      await connection.run('SET enable_external_access = false');
      await connection.run('SET lock_configuration = true');
      return new Sandbox(instance, connection, workDir, tables, settings);
    } catch (error) {
      connection?.closeSync();
      instance?.closeSync();
      await rm(workDir, { recursive: true, force: true });
      throw error;
    }
  }

  /** Checks and runs one extraction query; failures are data the model can act on. */
  async query(sql: string, options: { signal?: AbortSignal } = {}): Promise<SandboxQueryResult> {
    if (this.closed) {
      throw new NaoError({
        code: 'SANDBOX_CLOSED',
        message: 'The extraction sandbox is closed; open a new one.',
      });
    }
    if (this.busy || this.abandonedWork !== null) {
      throw new NaoError({
        code: 'SANDBOX_BUSY',
        message: 'The extraction sandbox runs one query at a time, and is still busy with the previous one.',
      });
    }
    options.signal?.throwIfAborted();
    this.busy = true;
    try {
      const check = await checkExtractionSql({
        connection: this.connection,
        sql,
        tableIds: this.tables.filter((table) => table.columns.length > 0).map((table) => table.id),
      });
      if (!check.success) return { success: false, error: check.error, kind: 'unsafe' };
      return await this.execute(sql, options.signal);
    } finally {
      this.busy = false;
    }
  }

  private async execute(sql: string, signal: AbortSignal | undefined): Promise<SandboxQueryResult> {
    const { timeoutMs, maxResultRows, interruptGraceMs } = this.options;
    let timedOut = false;
    const work = readAnswer({ connection: this.connection, sql, maxRows: maxResultRows });
    const interrupt = () => this.connection.interrupt();
    const timer = setTimeout(() => {
      timedOut = true;
      interrupt();
    }, timeoutMs);
    signal?.addEventListener('abort', interrupt, { once: true });
    let hardDeadline: NodeJS.Timeout | undefined;
    const abandon = new Promise<'abandoned'>((resolve) => {
      hardDeadline = setTimeout(() => resolve('abandoned'), timeoutMs + interruptGraceMs);
    });
    try {
      const outcome = await Promise.race([work, abandon]);
      if (outcome === 'abandoned') {
        this.abandon(work);
        signal?.throwIfAborted();
        return { success: false, kind: 'timeout', error: timeoutMessage(timeoutMs) };
      }
      signal?.throwIfAborted();
      if (outcome.truncated) {
        return {
          success: false,
          kind: 'too-many-rows',
          error: `The query returned more than ${maxResultRows} rows; return only the rows of the answer.`,
        };
      }
      return { success: true, columns: outcome.columns, rows: outcome.rows };
    } catch (error) {
      signal?.throwIfAborted();
      if (timedOut) return { success: false, kind: 'timeout', error: timeoutMessage(timeoutMs) };
      return { success: false, kind: 'failed', error: messageOf(error) };
    } finally {
      clearTimeout(timer);
      clearTimeout(hardDeadline);
      signal?.removeEventListener('abort', interrupt);
    }
  }

  private abandon(work: Promise<unknown>): void {
    const settled = work.then(
      () => undefined,
      () => undefined,
    );
    this.abandonedWork = settled;
    void settled.then(() => {
      this.abandonedWork = null;
      if (this.closed) this.closeNative();
    });
  }

  /**
   * Closes the database and removes the temp folder. After a query was abandoned, the
   * database itself is closed when that query finally returns. Safe to call twice.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.abandonedWork === null) this.closeNative();
    await rm(this.workDir, { recursive: true, force: true });
  }

  private closeNative(): void {
    if (this.nativeClosed) return;
    this.nativeClosed = true;
    try {
      this.connection.closeSync();
    } finally {
      this.instance.closeSync();
    }
  }
}

/** Opens a sandbox, runs `work` with it and always closes it. */
export async function withSandbox<T>(
  options: { tables: readonly SourceTable[] } & SandboxOptions,
  work: (sandbox: Sandbox) => Promise<T>,
): Promise<T> {
  const sandbox = await Sandbox.open(options);
  try {
    return await work(sandbox);
  } finally {
    await sandbox.close();
  }
}

function resolveOptions(options: SandboxOptions): Required<SandboxOptions> {
  const resolved = {
    memoryLimitBytes: options.memoryLimitBytes ?? DEFAULT_SANDBOX_OPTIONS.memoryLimitBytes,
    threads: options.threads ?? DEFAULT_SANDBOX_OPTIONS.threads,
    timeoutMs: options.timeoutMs ?? DEFAULT_SANDBOX_OPTIONS.timeoutMs,
    maxResultRows: options.maxResultRows ?? DEFAULT_SANDBOX_OPTIONS.maxResultRows,
    interruptGraceMs: options.interruptGraceMs ?? DEFAULT_SANDBOX_OPTIONS.interruptGraceMs,
  };
  for (const [field, value] of Object.entries(resolved)) {
    const minimum = field === 'interruptGraceMs' ? 0 : Number.MIN_VALUE;
    if (
      !Number.isFinite(value) ||
      value < minimum ||
      (field !== 'memoryLimitBytes' && !Number.isInteger(value))
    ) {
      throw new NaoError({
        code: 'SANDBOX_BAD_OPTION',
        message: `Sandbox option ${field} is ${value}; it must be a positive ${field === 'memoryLimitBytes' ? 'number' : 'integer'}.`,
      });
    }
  }
  return resolved;
}

async function memoryInUse(connection: DuckDBConnection): Promise<number> {
  const reader = await connection.runAndReadAll('SELECT sum(memory_usage_bytes) FROM duckdb_memory()');
  return Number(reader.getRows()[0]?.[0] ?? 0);
}

function timeoutMessage(timeoutMs: number): string {
  return `The query ran longer than ${timeoutMs / 1000} s and was stopped; write a simpler query over the result tables.`;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
