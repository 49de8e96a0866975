/**
 * A fresh DuckDB connection whose temporary tables hold one run's query results, where
 * model-written SQL runs.
 *
 * Layers, in order: the engine it lives in (sandbox-host.ts) has external access disabled
 * (only its private folder, where the loader writes, stays readable), extensions that cannot
 * be installed or loaded, capped memory and threads, and a locked configuration that no
 * query can undo; every query passes the parser-based safety check; and each runs under a
 * wall-clock limit that interrupts it. A query that ignores the interrupt is abandoned at a
 * hard deadline and its tables are dropped once it returns.
 *
 * Small sandboxes share one engine (creating one costs more CPU than a whole small run);
 * large ones get an engine of their own whose memory limit counts their tables.
 */
import { availableParallelism } from 'node:os';
import type { DuckDBConnection } from '@duckdb/node-api';
import { NaoError } from '../errors/index.js';
import type { CellValue, ColumnInfo } from '../warehouse/index.js';
import { type LoadedTable, loadedUpFront, loadTables, type SourceTable } from './load-tables.js';
import { readAnswer } from './read-answer.js';
import { checkExtractionSql } from './safety-check.js';
import { type HostedSandbox, SandboxHost, sharedSandboxHost } from './sandbox-host.js';

export interface SandboxOptions {
  /**
   * Working memory a query may use on top of the loaded tables, in bytes. Default 512 MiB.
   * Small sandboxes share an engine whose limit is this plus `SHARED_LOAD_ALLOWANCE_BYTES`
   * for the tables of every sandbox in it.
   */
  memoryLimitBytes?: number;
  /**
   * DuckDB threads of a large sandbox's own engine. Default 2 (or fewer cores). Small
   * sandboxes share an engine with one thread: their queries are too small to split, and
   * handing work between threads cost more than it saved.
   */
  threads?: number;
  /** Wall-clock limit of one query. Default 30 s. */
  timeoutMs?: number;
  /** Rows a query may return; more is an error the model can fix. Default 1,000,000. */
  maxResultRows?: number;
  /**
   * How long a query may ignore its interrupt before it is abandoned (the tables are then
   * dropped once it returns). Default 2 s.
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

/** Sandboxes with at most this many loaded values share an engine; larger ones get their own. */
export const SHARED_HOST_MAX_CELLS = 200_000;
/** Room for the tables of all the small sandboxes sharing an engine at one time. */
export const SHARED_LOAD_ALLOWANCE_BYTES = 256 * 1024 * 1024;

export class Sandbox {
  /** The loaded result tables, in the order given, with their DuckDB column types. */
  readonly tables: readonly LoadedTable[];
  private readonly options: Required<SandboxOptions>;
  private busy = false;
  /** A query that ignored its interrupt; the connection must outlive it. */
  private abandonedWork: Promise<unknown> | null = null;
  private closed = false;
  private released = false;

  private constructor(
    private readonly host: SandboxHost,
    /** The host is this sandbox's alone and closes with it. */
    private readonly ownsHost: boolean,
    private readonly hosted: HostedSandbox,
    tables: LoadedTable[],
    options: Required<SandboxOptions>,
  ) {
    this.tables = tables;
    this.options = options;
  }

  private get connection(): DuckDBConnection {
    return this.hosted.connection;
  }

  /** Connects, loads `tables` and locks the engine down. Close it with `close()`. */
  static async open(options: { tables: readonly SourceTable[] } & SandboxOptions): Promise<Sandbox> {
    const settings = resolveOptions(options);
    const cells = options.tables.reduce((sum, table) => sum + table.rows.length * table.columns.length, 0);
    const ownsHost = cells > SHARED_HOST_MAX_CELLS;
    const host = ownsHost
      ? await SandboxHost.create({ threads: settings.threads })
      : await sharedSandboxHost(sharedHostSettings(settings));
    let hosted: HostedSandbox | undefined;
    try {
      hosted = await host.connect();
      const tables = await loadTables({
        connection: hosted.connection,
        tables: options.tables,
        scratchFile: hosted.scratchFile,
      });
      if (ownsHost) {
        const used = await host.memoryInUse(hosted.connection);
        await host.lock(used + settings.memoryLimitBytes);
      }
      return new Sandbox(host, ownsHost, hosted, tables, settings);
    } catch (error) {
      if (hosted !== undefined) host.disconnect(hosted);
      if (ownsHost) host.close();
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
    const work = readAnswer({
      connection: this.connection,
      sql,
      maxRows: maxResultRows,
      // A small sandbox's answer is read in one round trip; the shared engine's memory limit
      // bounds a runaway one. A large sandbox streams (its answer may be millions of rows).
      materialize: !this.ownsHost,
      // An interrupt that lands between two statements of the read is lost: check here too.
      checkpoint: () => {
        if (timedOut || signal?.aborted) throw new Error('the query was stopped');
      },
    });
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
      if (this.closed) this.release();
    });
  }

  /**
   * Closes the connection, which drops the tables (and closes an engine of its own). After a
   * query was abandoned, that happens when the query finally returns. Safe to call twice.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.abandonedWork === null) this.release();
  }

  private release(): void {
    if (this.released) return;
    this.released = true;
    try {
      this.host.disconnect(this.hosted);
    } finally {
      if (this.ownsHost) this.host.close();
    }
  }
}

/**
 * Creates the engine that small sandboxes with these options share, ahead of the first
 * extraction: otherwise the first runs of a suite all wait for it, at their busiest moment.
 */
export async function prepareSandboxes(options: SandboxOptions = {}): Promise<void> {
  await sharedSandboxHost(sharedHostSettings(resolveOptions(options)));
}

function sharedHostSettings(settings: Required<SandboxOptions>) {
  return { threads: 1, memoryLimitBytes: settings.memoryLimitBytes + SHARED_LOAD_ALLOWANCE_BYTES };
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

/**
 * Like `withSandbox`, but `work` starts before the load when the tables it will hold are
 * known already (small typed results, see `loadedUpFront`): it gets their description at once
 * and awaits the sandbox only when it needs one, so the load runs while the model writes its
 * query. A load that fails surfaces there, or not at all if the sandbox is never needed.
 */
export async function withSandboxAhead<T>(
  options: { tables: readonly SourceTable[] } & SandboxOptions,
  work: (tables: readonly LoadedTable[], sandbox: () => Promise<Sandbox>) => Promise<T>,
): Promise<T> {
  resolveOptions(options); // nonsense options are refused before any work, as by withSandbox
  const known = loadedUpFront(options.tables);
  if (known === null) return withSandbox(options, (sandbox) => work(sandbox.tables, async () => sandbox));
  const opening = Sandbox.open(options);
  // Handles a failed open for the finally below; `work` meets the failure when it asks.
  const opened = opening.then(
    (sandbox) => sandbox,
    () => null,
  );
  try {
    return await work(known, () => opening);
  } finally {
    await (await opened)?.close();
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

function timeoutMessage(timeoutMs: number): string {
  return `The query ran longer than ${timeoutMs / 1000} s and was stopped; write a simpler query over the result tables.`;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
