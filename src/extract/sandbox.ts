/**
 * The tables of one extraction and the model-written SQL over them. Each query is one job on
 * the process pool (extraction-job.ts): nothing holds a worker while the model writes its
 * query, and a query that ignores its interrupt is killed with its worker, alone.
 * Small tables travel with each job; large ones are loaded once, by nao, into a DuckDB file
 * (load-file.ts) every job reads in place, and their answers come back in a file beside it
 * (answer-file.ts): a million rows over the process channel cost seconds of serialising.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { NaoError } from '../errors/index.js';
import { childModule, JobLost, naoTempFolder, processPool } from '../process-pool/index.js';
import type { CellValue, ColumnInfo } from '../warehouse/index.js';
import { readAnswerFile } from './answer-file.js';
import {
  type ExtractionJob,
  type ExtractionLimits,
  type JobOutcome,
  type JobQueryOutcome,
  timeoutMessage,
} from './extraction-job.js';
import { writeLoadFile } from './load-file.js';
import { type LoadedTable, loadedUpFront, type SourceTable } from './load-tables.js';

const EXTRACTION_JOB = childModule(import.meta.url, 'extraction-job').entry;

/** Each defaults to `DEFAULT_SANDBOX_OPTIONS`. */
export type SandboxOptions = Partial<ExtractionLimits>;

export type SandboxQueryResult =
  | { success: true; columns: ColumnInfo[]; rows: CellValue[][] }
  | Extract<JobQueryOutcome, { success: false }>;

export const DEFAULT_SANDBOX_OPTIONS = {
  memoryLimitBytes: 512 * 1024 * 1024,
  threads: Math.max(1, Math.min(2, availableParallelism())),
  timeoutMs: 30_000,
  maxResultRows: 1_000_000,
  interruptGraceMs: 2_000,
} as const;

/** Tables with at most this many values travel with each job; larger ones go through a load file. */
export const INLINE_TABLES_MAX_CELLS = 200_000;

export class Sandbox {
  private closed = false;

  private constructor(
    private readonly source: ExtractionJob['tables'],
    private readonly options: ExtractionLimits,
    /** The loaded result tables, in the order given, with their DuckDB column types. */
    readonly tables: readonly LoadedTable[],
  ) {}

  /** Describes (and, if large, loads) `tables`. Close it with `close()`. */
  static async open(options: { tables: readonly SourceTable[] } & SandboxOptions): Promise<Sandbox> {
    const settings = resolveOptions(options);
    const cells = options.tables.reduce((sum, table) => sum + table.rows.length * table.columns.length, 0);
    if (cells <= INLINE_TABLES_MAX_CELLS) {
      const source = { kind: 'rows' as const, tables: options.tables };
      // Only the load can tell the tables' types: a job that loads them and says.
      const loaded =
        loadedUpFront(options.tables) ??
        ((await runJob({ source, sql: null, settings })) as { loaded: LoadedTable[] }).loaded;
      return new Sandbox(source, settings, loaded);
    }
    // The folder of the load file and of the answers read from it, removed on close.
    const folder = mkdtempSync(path.join(naoTempFolder(), 'load-'));
    try {
      const file = path.join(folder, 'load.duckdb');
      const tables = await writeLoadFile({ tables: options.tables, file, threads: settings.threads });
      // Tables without columns exist only as their description.
      const tableIds = tables.filter((table) => table.columns.length > 0).map((table) => table.id);
      return new Sandbox({ kind: 'file', file, tableIds }, settings, tables);
    } catch (error) {
      rmSync(folder, { recursive: true, force: true });
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
    const { signal } = options;
    signal?.throwIfAborted();
    let outcome: JobQueryOutcome;
    try {
      outcome = (await runJob({
        source: this.source,
        sql,
        settings: this.options,
        signal,
      })) as JobQueryOutcome;
    } catch (error) {
      signal?.throwIfAborted();
      if (!(error instanceof JobLost)) throw error;
      if (error.reason === 'crashed') {
        return {
          success: false,
          kind: 'out-of-memory',
          error: `The query's process ended while running it (${error.message}), most likely out of memory; return fewer or smaller rows.`,
        };
      }
      return {
        success: false,
        kind: 'timeout',
        error: `${timeoutMessage(this.options.timeoutMs)} It ignored the interrupt, so its process was killed.`,
      };
    }
    if (outcome.success && 'file' in outcome) {
      try {
        const rows = await readAnswerFile({ ...outcome, threads: this.options.threads });
        signal?.throwIfAborted();
        return { success: true, columns: outcome.columns, rows };
      } finally {
        // The load file stays for the next query; an answer file is read once.
        if (this.source.kind !== 'file' || outcome.file !== this.source.file)
          await rm(outcome.file, { force: true });
      }
    }
    signal?.throwIfAborted();
    return outcome;
  }

  /** Removes the load file. Safe to call twice. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.source.kind === 'file')
      await rm(path.dirname(this.source.file), { recursive: true, force: true });
  }
}

/** Runs one extraction job on the pool; `sql` null only loads the tables and describes them. */
async function runJob(options: {
  source: ExtractionJob['tables'];
  sql: string | null;
  settings: ExtractionLimits;
  signal?: AbortSignal | undefined;
}): Promise<JobOutcome> {
  const { settings } = options;
  const input: ExtractionJob = { ...settings, tables: options.source, sql: options.sql };
  // A worker killed after it wrote the answer leaves it, for close() to remove with the load file.
  return processPool().run<JobOutcome>({
    module: EXTRACTION_JOB,
    input,
    deadlineMs: settings.timeoutMs + settings.interruptGraceMs,
    signal: options.signal,
  });
}

/** Starts the pool's workers, ready for extraction jobs, ahead of the first: otherwise the first runs all wait for them. */
export function prepareSandboxes(): Promise<void> {
  return processPool().prepare([EXTRACTION_JOB]);
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

function resolveOptions(options: SandboxOptions): ExtractionLimits {
  const resolved: ExtractionLimits = { ...DEFAULT_SANDBOX_OPTIONS };
  for (const field of Object.keys(resolved) as (keyof SandboxOptions)[]) {
    const value = options[field] ?? resolved[field];
    const minimum = field === 'interruptGraceMs' ? 0 : Number.MIN_VALUE;
    const integer = field !== 'memoryLimitBytes';
    if (!Number.isFinite(value) || value < minimum || (integer && !Number.isInteger(value))) {
      throw new NaoError({
        code: 'SANDBOX_BAD_OPTION',
        message: `Sandbox option ${field} is ${value}; it must be a positive ${integer ? 'integer' : 'number'}.`,
      });
    }
    resolved[field] = value;
  }
  return resolved;
}
