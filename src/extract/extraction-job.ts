/**
 * One extraction job, run in a pool worker: `{tables, sql, limits} → answer`. Small tables
 * come with the job and are loaded into the worker's long-lived engine; large ones are
 * attached read-only from nao's load file (load-file.ts) by an engine of the job's own, whose
 * long answers go to a file beside it (answer-file.ts). The SQL is checked and run under its
 * time limit, and the job's connection is closed with its tables.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { messageOf } from '../errors/index.js';
import type { JobContext } from '../process-pool/index.js';
import { quoteIdentifier, quoteLiteral } from '../warehouse/duckdb/index.js';
import type { CellValue, ColumnInfo } from '../warehouse/index.js';
import { type AnswerFile, loadedTableWhole, writeAnswerFile } from './answer-file.js';
import { type LoadedTable, loadTables, type SourceTable } from './load-tables.js';
import { readAnswer } from './read-answer.js';
import { checkExtractionSql } from './safety-check.js';
import { createSandboxEngine } from './sandbox-engine.js';

/** The limits of a sandbox's queries (sandbox.ts has their defaults). */
export interface ExtractionLimits {
  /** Working memory a query may use on top of the loaded tables, in bytes. */
  memoryLimitBytes: number;
  /** DuckDB threads of a large job's engine; small jobs are too small to split. */
  threads: number;
  /** Wall-clock limit of one query. */
  timeoutMs: number;
  /** Rows a query may return; more is an error the model can fix. */
  maxResultRows: number;
  /**
   * How long past `timeoutMs` a query that ignores its interrupt runs before the pool kills its
   * worker, counted from when a worker takes the query (loading its tables included).
   */
  interruptGraceMs: number;
}

export interface ExtractionJob extends ExtractionLimits {
  tables: /** Small tables, sent whole. */
    | { kind: 'rows'; tables: readonly SourceTable[] }
    /** Large ones, loaded by nao into `file`; a long answer goes beside it. */
    | { kind: 'file'; file: string; tableIds: readonly string[] };
  /** null: only load, and tell what was loaded. */
  sql: string | null;
}

/** `unsafe`: refused by the safety check; `failed`: DuckDB raised an error; the rest are limits. */
export type SandboxFailureKind = 'unsafe' | 'failed' | 'timeout' | 'too-many-rows' | 'out-of-memory';

export type JobQueryOutcome =
  | { success: true; columns: ColumnInfo[]; rows: CellValue[][] }
  /** A large job's answer, in a file. */
  | ({ success: true } & AnswerFile)
  | { success: false; kind: SandboxFailureKind; error: string };

export type JobOutcome = { loaded: LoadedTable[] } | JobQueryOutcome;

/** Room for a job's tables in its engine's memory limit, on top of its working memory. */
const TABLES_ALLOWANCE_BYTES = 256 * 1024 * 1024;

/** The worker's engine for small jobs, kept from job to job: an engine costs about 12 ms of CPU to create. */
let kept: { memoryLimitBytes: number; engine: DuckDBInstance } | null = null;
let jobs = 0;

async function smallJobEngine(memoryLimitBytes: number, folder: string): Promise<DuckDBInstance> {
  if (kept?.memoryLimitBytes !== memoryLimitBytes) {
    // One job at a time: nothing else uses the engine of other limits.
    kept?.engine.closeSync();
    kept = null;
    const engine = await createSandboxEngine({
      threads: 1,
      memoryLimitBytes: memoryLimitBytes + TABLES_ALLOWANCE_BYTES,
      folders: [folder],
    });
    kept = { memoryLimitBytes, engine };
  }
  return kept.engine;
}

export async function runJob(input: unknown, context: JobContext): Promise<JobOutcome> {
  const job = input as ExtractionJob;
  const { tables } = job;
  const engine =
    tables.kind === 'rows'
      ? await smallJobEngine(job.memoryLimitBytes, context.folder)
      : await createSandboxEngine({
          threads: job.threads,
          memoryLimitBytes: job.memoryLimitBytes + TABLES_ALLOWANCE_BYTES,
          folders: [path.dirname(tables.file)],
        });
  let connection: DuckDBConnection | undefined;
  try {
    connection = await engine.connect();
    let tableIds: readonly string[];
    if (tables.kind === 'rows') {
      const prefix = path.join(context.folder, `job${++jobs}_`);
      const loaded = await loadTables({
        connection,
        tables: tables.tables,
        scratchFile: (name) => prefix + name,
      });
      if (job.sql === null) return { loaded };
      tableIds = loaded.filter((table) => table.columns.length > 0).map((table) => table.id);
    } else {
      // Attached read-only and named by temporary views, so the tables are not copied again.
      const views = tables.tableIds.map(
        (id) =>
          `; CREATE TEMP VIEW ${quoteIdentifier(id)} AS SELECT * FROM __nao_load.main.${quoteIdentifier(id)}`,
      );
      await connection.run(`ATTACH ${quoteLiteral(tables.file)} AS __nao_load (READ_ONLY)${views.join('')}`);
      tableIds = tables.tableIds;
    }
    if (job.sql === null) throw new Error('a job over a load file has nothing to load: nao loaded it');
    return await query({ job, sql: job.sql, connection, tableIds });
  } finally {
    // Drops the job's temporary tables with everything in them.
    connection?.closeSync();
    if (tables.kind === 'file') engine.closeSync();
  }
}

async function query(options: {
  job: ExtractionJob;
  sql: string;
  connection: DuckDBConnection;
  tableIds: readonly string[];
}): Promise<JobQueryOutcome> {
  const { job, sql, connection, tableIds } = options;
  const { maxResultRows: maxRows, tables } = job;
  const check = await checkExtractionSql({ connection, sql, tableIds: [...tableIds] });
  if (!check.success) return { success: false, kind: 'unsafe', error: check.error };
  let stopped = false;
  const stop = () => {
    stopped = true;
    connection.interrupt();
  };
  const timer = setTimeout(stop, job.timeoutMs);
  // An interrupt that lands between two statements of the read is lost: checked there too.
  const checkpoint = () => {
    if (stopped) throw new Error('the query was stopped');
  };
  const tooMany = {
    success: false,
    kind: 'too-many-rows',
    error: `The query returned more than ${maxRows} rows; return only the rows of the answer.`,
  } as const;
  try {
    if (tables.kind === 'file') {
      const inFile = {
        connection,
        sql,
        maxRows,
        checkpoint,
        tableIds,
        parsed: check.tree,
        loadFile: tables.file,
      };
      const file = `${tables.file}.${randomUUID()}`;
      const written = (await loadedTableWhole(inFile)) ?? (await writeAnswerFile({ ...inFile, file }));
      if (written === 'too-many-rows') return tooMany;
      if (written !== undefined) return { success: true, ...written };
    }
    // Streamed, and read no further than one row past the cap: an answer of unknown size is
    // never held whole, here or in the engine.
    const answer = await readAnswer({ connection, sql, maxRows, checkpoint });
    return answer.truncated ? tooMany : { success: true, columns: answer.columns, rows: answer.rows };
  } catch (error) {
    const message = messageOf(error);
    if (stopped) return { success: false, kind: 'timeout', error: timeoutMessage(job.timeoutMs) };
    if (!/out of memory/i.test(message)) return { success: false, kind: 'failed', error: message };
    const limit = `${Math.round(job.memoryLimitBytes / (1024 * 1024))} MiB`;
    return {
      success: false,
      kind: 'out-of-memory',
      error: `The query needed more than the sandbox's memory limit of ${limit} (${message}); write a query that holds less at once.`,
    };
  } finally {
    clearTimeout(timer);
  }
}

export function timeoutMessage(timeoutMs: number): string {
  return `The query ran longer than ${timeoutMs / 1000} s and was stopped; write a simpler query over the result tables.`;
}
