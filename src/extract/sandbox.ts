/**
 * A fresh DuckDB connection whose temporary tables hold one run's query results, where
 * model-written SQL runs.
 *
 * Layers, in order: the engine it lives in (sandbox-host.ts) has external access disabled
 * (only its private folder, where the loader writes, stays readable), extensions that cannot
 * be installed or loaded, capped memory and threads, and a locked configuration that no
 * query can undo; every query passes the parser-based safety check; each runs under a
 * wall-clock limit that interrupts it, and its answer is streamed no further than one row
 * past the row cap.
 *
 * The engines live in a sandbox process (sandbox-query-process.ts), not in nao's: a query
 * that ignores its interrupt is stopped for certain by killing the process once the grace
 * period has passed. This object keeps the sandbox's source tables until it closes, so that
 * a sandbox whose process was killed for another sandbox's query is opened again in a fresh
 * one, and its query in flight re-run: one run's query never fails another's.
 *
 * Small sandboxes share one engine in that process (creating one costs more CPU than a whole
 * small run); large ones get an engine of their own beside it, whose memory limit counts only
 * their own work. A large sandbox's tables reach the process in a DuckDB file that nao loads
 * (load-file.ts), read there in place, and a long answer comes back in one (answer-file.ts):
 * a million rows over the process channel cost seconds of serialising. A query that runs out
 * of memory in the shared engine, where others' work counts against the same limit, is re-run
 * once in an engine of its own before its failure is reported; one whose process crashed
 * under it, in a process of its own.
 */
import { renameSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { NaoError } from '../errors/index.js';
import type { CellValue, ColumnInfo } from '../warehouse/index.js';
import { readAnswerFile } from './answer-file.js';
import { writeLoadFile } from './load-file.js';
import { type LoadedTable, loadedUpFront, type SourceTable } from './load-tables.js';
import { createSandboxFolder } from './sandbox-folders.js';
import { SandboxProcess, SandboxProcessLost } from './sandbox-process.js';
import { type EngineSettings, type ProcessQueryOutcome, packRows, unpackRows } from './sandbox-protocol.js';

export interface SandboxOptions {
  /**
   * Working memory a query may use on top of the loaded tables, in bytes. Default 512 MiB.
   * Small sandboxes share an engine whose limit is this plus `SHARED_LOAD_ALLOWANCE_BYTES`
   * for the tables of every sandbox in it.
   */
  memoryLimitBytes?: number;
  /**
   * DuckDB threads of a large sandbox's own engine. Default 2 (or fewer cores). Small
   * sandboxes share an engine with one thread: their queries are too small to split.
   */
  threads?: number;
  /** Wall-clock limit of one query. Default 30 s. */
  timeoutMs?: number;
  /** Rows a query may return; more is an error the model can fix. Default 1,000,000. */
  maxResultRows?: number;
  /**
   * How long a query may ignore its interrupt before its process is killed (the other
   * sandboxes in it are opened again elsewhere). Default 2 s.
   */
  interruptGraceMs?: number;
}

export type SandboxQueryResult =
  | { success: true; columns: ColumnInfo[]; rows: CellValue[][] }
  | Extract<ProcessQueryOutcome, { success: false }>;

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

/**
 * Where a sandbox lives: in the engine the small sandboxes share; in an engine of its own in
 * the same process (a large sandbox, or one that ran out of the shared engine's memory); or,
 * after its process crashed under its query, in a process of its own, so that a second crash
 * takes no other sandbox with it. A sandbox only ever moves down this list.
 */
type Home = 'shared-engine' | 'own-engine' | 'own-process';

interface Placement {
  process: SandboxProcess;
  home: Home;
  /** The sandbox's id in that process. */
  id: number;
}

let nextSandboxId = 1;
let sharedProcess: Promise<SandboxProcess> | null = null;

/** The process of the small sandboxes, started on first use and again after it was killed. */
async function sharedSandboxProcess(): Promise<SandboxProcess> {
  const starting = sharedProcess ?? SandboxProcess.start();
  sharedProcess = starting;
  const started = await starting.catch((error: unknown) => {
    // A failed start is not remembered: the next sandbox tries again.
    if (sharedProcess === starting) sharedProcess = null;
    throw error;
  });
  if (started.alive) return started;
  if (sharedProcess === starting) sharedProcess = null;
  return sharedSandboxProcess();
}

export class Sandbox {
  private busy = false;
  private closed = false;

  private constructor(
    /** Kept until close: a sandbox whose process was killed is loaded again from them. */
    private readonly sources: readonly SourceTable[],
    private readonly options: Required<SandboxOptions>,
    private placement: Placement | null,
    /** Where the sandbox must live from now on. */
    private home: Home,
    /** The loaded result tables, in the order given, with their DuckDB column types. */
    readonly tables: readonly LoadedTable[],
  ) {}

  /** Connects, loads `tables` and locks the engine down. Close it with `close()`. */
  static async open(options: { tables: readonly SourceTable[] } & SandboxOptions): Promise<Sandbox> {
    const settings = resolveOptions(options);
    const cells = options.tables.reduce((sum, table) => sum + table.rows.length * table.columns.length, 0);
    const home = cells > SHARED_HOST_MAX_CELLS ? 'own-engine' : 'shared-engine';
    const { placement, tables } = await place({ sources: options.tables, settings, home });
    return new Sandbox(options.tables, settings, placement, home, tables);
  }

  /** Checks and runs one extraction query; failures are data the model can act on. */
  async query(sql: string, options: { signal?: AbortSignal } = {}): Promise<SandboxQueryResult> {
    if (this.closed) throw closedError();
    if (this.busy) {
      throw new NaoError({
        code: 'SANDBOX_BUSY',
        message: 'The extraction sandbox runs one query at a time, and is still busy with the previous one.',
      });
    }
    options.signal?.throwIfAborted();
    this.busy = true;
    try {
      return await this.run(sql, options.signal);
    } finally {
      this.busy = false;
    }
  }

  private async run(sql: string, signal: AbortSignal | undefined): Promise<SandboxQueryResult> {
    const { timeoutMs, maxResultRows, interruptGraceMs, memoryLimitBytes } = this.options;
    let crashed = false;
    for (;;) {
      const placement = await this.placed();
      let outcome: ProcessQueryOutcome;
      try {
        outcome = await placement.process.query(
          { kind: 'query', sandbox: placement.id, sql, timeoutMs, maxRows: maxResultRows },
          { deadlineMs: timeoutMs + interruptGraceMs, graceMs: interruptGraceMs, signal },
        );
      } catch (error) {
        if (!(error instanceof SandboxProcessLost)) throw error;
        this.placement = null;
        signal?.throwIfAborted();
        if (this.closed) throw closedError();
        if (error.reason === 'own-deadline') {
          return {
            success: false,
            kind: 'timeout',
            error: `${timeoutMessage(timeoutMs)} It ignored the interrupt, so its process was killed.`,
          };
        }
        // Killed for another sandbox's query: this one did nothing wrong and runs again.
        if (error.reason === 'other-deadline' || error.reason === 'closed') continue;
        // A crash names no culprit: the query gets a second chance, in a process of its own.
        if (!crashed) {
          crashed = true;
          this.home = 'own-process';
          continue;
        }
        return {
          success: false,
          kind: 'out-of-memory',
          error:
            `The query's process ended while running it (${error.message}), most likely out of ` +
            'memory; return fewer or smaller rows.',
        };
      }
      if (outcome.success && 'file' in outcome) {
        const file = claimAnswerFile(outcome.file);
        // The process was killed (for another sandbox's query) as its answer arrived.
        if (file === null) continue;
        const rows = await readAnswerFile({
          file,
          table: outcome.table,
          columns: outcome.columns,
          rowCount: outcome.rowCount,
          threads: this.options.threads,
        });
        signal?.throwIfAborted();
        return { success: true, columns: outcome.columns, rows };
      }
      signal?.throwIfAborted();
      if (outcome.success) return { success: true, columns: outcome.columns, rows: unpackRows(outcome.rows) };
      if (outcome.kind === 'out-of-memory' && placement.home === 'shared-engine') {
        // Others' work counts against the shared engine's limit: try again on an engine alone.
        this.home = 'own-engine';
        continue;
      }
      if (outcome.kind === 'timeout')
        return { success: false, kind: 'timeout', error: timeoutMessage(timeoutMs) };
      if (outcome.kind === 'out-of-memory') {
        return {
          success: false,
          kind: 'out-of-memory',
          error: `The query needed more than the sandbox's memory limit of ${Math.round(memoryLimitBytes / (1024 * 1024))} MiB (${outcome.error}); write a query that holds less at once.`,
        };
      }
      return outcome;
    }
  }

  /** Where the sandbox lives, opened again (in a fresh process, or a new home) if needed. */
  private async placed(): Promise<Placement> {
    if (this.placement?.process.alive === true && this.placement.home === this.home) return this.placement;
    await this.leave();
    const { placement } = await place({ sources: this.sources, settings: this.options, home: this.home });
    this.placement = placement;
    return placement;
  }

  private async leave(): Promise<void> {
    const placement = this.placement;
    this.placement = null;
    if (placement === null || !placement.process.alive) return;
    if (placement.home === 'own-process') await placement.process.close();
    else await placement.process.request({ kind: 'close', sandbox: placement.id }).catch(() => null);
  }

  /** Closes the connection, which drops the tables (and ends a process of its own). Safe to call twice. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.leave();
  }
}

/**
 * Moves an answer file out of its process's folder, which goes when the process does; null
 * when it is gone already.
 */
function claimAnswerFile(file: string): string | null {
  const claimed = path.join(exchangeFolder(), `${path.basename(path.dirname(file))}_${path.basename(file)}`);
  try {
    renameSync(file, claimed);
    return claimed;
  } catch {
    return null;
  }
}

let exchange: string | null = null;

/**
 * nao's folder for the database files it exchanges with sandbox processes (the tables it
 * loads for them, the long answers it reads from them), removed as it exits.
 */
function exchangeFolder(): string {
  if (exchange === null) {
    const folder = createSandboxFolder('exchange');
    process.once('exit', () => rmSync(folder, { recursive: true, force: true }));
    exchange = folder;
  }
  return exchange;
}

function closedError(): NaoError {
  return new NaoError({
    code: 'SANDBOX_CLOSED',
    message: 'The extraction sandbox is closed; open a new one.',
  });
}

/** Kills of the shared process a load rides out (each is another sandbox's query's doing). */
const MAX_LOAD_ATTEMPTS = 5;

async function place(options: {
  sources: readonly SourceTable[];
  settings: Required<SandboxOptions>;
  home: Home;
}): Promise<{ placement: Placement; tables: LoadedTable[] }> {
  const { sources, settings, home } = options;
  if (home === 'own-process') {
    const started = SandboxProcess.start();
    try {
      // The load runs while the process starts.
      const loaded = await loadThrough({ sources, settings, process: started });
      return { placement: { process: await started, home, id: loaded.id }, tables: loaded.tables };
    } catch (error) {
      void started.then(
        (process) => process.close(),
        () => undefined,
      );
      throw error;
    }
  }
  for (let attempt = 1; ; attempt++) {
    const process = await sharedSandboxProcess();
    try {
      if (home === 'own-engine') {
        const loaded = await loadThrough({ sources, settings, process: Promise.resolve(process) });
        return { placement: { process, home, id: loaded.id }, tables: loaded.tables };
      }
      const id = nextSandboxId++;
      const tables = await process.request({
        kind: 'open',
        sandbox: id,
        tables: sources.map((table) => ({ ...table, rows: packRows(table.rows, table.columns.length) })),
        engine: engineSettings(settings, false),
      });
      return { placement: { process, home, id }, tables };
    } catch (error) {
      // The shared process was killed for someone else's query while this load ran.
      if (!(error instanceof SandboxProcessLost) || attempt === MAX_LOAD_ATTEMPTS) throw error;
    }
  }
}

/**
 * Opens a sandbox with an engine of its own in `process`: nao loads its tables into a database
 * file (load-file.ts), which the process takes and reads in place.
 */
async function loadThrough(options: {
  sources: readonly SourceTable[];
  settings: Required<SandboxOptions>;
  process: Promise<SandboxProcess>;
}): Promise<{ id: number; tables: LoadedTable[] }> {
  const id = nextSandboxId++;
  const file = path.join(exchangeFolder(), `load_${id}.duckdb`);
  try {
    const tables = await writeLoadFile({ tables: options.sources, file, threads: options.settings.threads });
    await (await options.process).request({
      kind: 'open-file',
      sandbox: id,
      file,
      // Tables without columns exist only as their description.
      tableIds: tables.filter((table) => table.columns.length > 0).map((table) => table.id),
      engine: engineSettings(options.settings, true),
    });
    return { id, tables };
  } finally {
    // Taken by the process when it opened the sandbox; left here if it did not.
    rmSync(file, { force: true });
  }
}

/**
 * Starts the sandbox process and creates the engine that small sandboxes with these options
 * share, ahead of the first extraction: otherwise the first runs of a suite all wait for them,
 * at their busiest moment.
 */
export async function prepareSandboxes(options: SandboxOptions = {}): Promise<void> {
  const process = await sharedSandboxProcess();
  await process.request({ kind: 'prepare', engine: engineSettings(resolveOptions(options), false) });
}

function engineSettings(settings: Required<SandboxOptions>, dedicated: boolean): EngineSettings {
  return dedicated
    ? { dedicated, threads: settings.threads, memoryLimitBytes: settings.memoryLimitBytes }
    : { dedicated, threads: 1, memoryLimitBytes: settings.memoryLimitBytes + SHARED_LOAD_ALLOWANCE_BYTES };
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
  const opened = opening.catch(() => null);
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
