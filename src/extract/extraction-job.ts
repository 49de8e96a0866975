/**
 * One extraction job, run in a pool worker: `{tables, sql, limits} → answer`. The tables are
 * loaded into a fresh connection (small ones in the worker's long-lived engine, large ones
 * attached from nao's load file in an engine of the job's own, whose memory limit counts them),
 * the SQL is checked and run under its time limit, and the connection is closed.
 */
import { rename } from 'node:fs/promises';
import path from 'node:path';
import { messageOf } from '../errors/index.js';
import type { JobContext } from '../process-pool/index.js';
import { quoteIdentifier, quoteLiteral } from '../warehouse/index.js';
import { readSandboxAnswer } from './answer-file.js';
import type { ExtractionJob, JobOutcome, JobQueryOutcome } from './extraction-job-protocol.js';
import { packRows, unpackRows } from './extraction-job-protocol.js';
import { loadTables } from './load-tables.js';
import { checkExtractionSql } from './safety-check.js';
import { type HostedSandbox, SandboxHost, sharedSandboxHost } from './sandbox-host.js';

/** Room for the tables of a small job in the worker's long-lived engine, on top of its working memory. */
const SHARED_LOAD_ALLOWANCE_BYTES = 256 * 1024 * 1024;

export async function runJob(input: unknown, context: JobContext): Promise<JobOutcome> {
  const job = input as ExtractionJob;
  const { tables } = job;
  const host =
    tables.kind === 'rows'
      ? // One thread: small jobs are too small to split.
        await sharedSandboxHost({
          threads: 1,
          memoryLimitBytes: job.memoryLimitBytes + SHARED_LOAD_ALLOWANCE_BYTES,
          parentDir: context.folder,
        })
      : await SandboxHost.create({
          threads: job.threads,
          parentDir: context.folder,
          readable: path.dirname(tables.file),
        });
  let hosted: HostedSandbox | undefined;
  try {
    hosted = await host.connect();
    const { connection } = hosted;
    let tableIds: readonly string[];
    if (tables.kind === 'rows') {
      const sources = tables.tables.map((table) => ({ ...table, rows: unpackRows(table.rows) }));
      const loaded = await loadTables({ connection, tables: sources, scratchFile: hosted.scratchFile });
      if (job.sql === null) return { loaded };
      tableIds = loaded.filter((table) => table.columns.length > 0).map((table) => table.id);
    } else {
      // Attached read-only and named by temporary views, so the tables are not copied again.
      const views = tables.tableIds.map(
        (id) =>
          `; CREATE TEMP VIEW ${quoteIdentifier(id)} AS SELECT * FROM __nao_load.main.${quoteIdentifier(id)}`,
      );
      await connection.run(`ATTACH ${quoteLiteral(tables.file)} AS __nao_load (READ_ONLY)${views.join('')}`);
      await host.lock((await host.memoryInUse(connection)) + job.memoryLimitBytes);
      tableIds = tables.tableIds;
    }
    if (job.sql === null) throw new Error('a job over a load file has nothing to load: nao loaded it');
    return await query({ job, sql: job.sql, hosted, tableIds, context });
  } finally {
    // Drops the job's temporary tables with everything in them.
    hosted?.connection.closeSync();
    if (tables.kind === 'file') host.close();
  }
}

async function query(options: {
  job: ExtractionJob;
  sql: string;
  hosted: HostedSandbox;
  tableIds: readonly string[];
  context: JobContext;
}): Promise<JobQueryOutcome> {
  const { job, sql, hosted, tableIds } = options;
  const { connection } = hosted;
  const check = await checkExtractionSql({ connection, sql, tableIds: [...tableIds] });
  if (!check.success) return { success: false, kind: 'unsafe', error: check.error };
  let stopped = false;
  const stop = () => {
    stopped = true;
    connection.interrupt();
  };
  options.context.onInterrupt(stop);
  options.context.armDeadline();
  const timer = setTimeout(stop, job.timeoutMs);
  const loadFile = job.tables.kind === 'file' ? job.tables.file : undefined;
  try {
    // Streamed, and read no further than one row past the cap: an answer of unknown size is
    // never held whole, here or in the engine.
    const answer = await readSandboxAnswer({
      connection,
      sql,
      maxRows: job.maxRows,
      // An interrupt that lands between two statements of the read is lost: check here too.
      checkpoint: () => {
        if (stopped) throw new Error('the query was stopped');
      },
      file: hosted.scratchFile('answer.duckdb'),
      large: loadFile !== undefined,
      loaded: loadFile === undefined ? undefined : { file: loadFile, tableIds },
      parsed: check.tree,
    });
    if (answer.kind === 'too-many-rows') {
      return {
        success: false,
        kind: 'too-many-rows',
        error: `The query returned more than ${job.maxRows} rows; return only the rows of the answer.`,
      };
    }
    if (answer.kind === 'rows') {
      return { success: true, columns: answer.columns, rows: packRows(answer.rows, answer.columns.length) };
    }
    // Out of the engine's folder, which goes with the job: nao reads it after the job.
    const file = answer.file === loadFile ? answer.file : job.answerFile;
    if (file !== answer.file) await rename(answer.file, file);
    return { success: true, columns: answer.columns, file, table: answer.table, rowCount: answer.rowCount };
  } catch (error) {
    const message = messageOf(error);
    const kind = stopped ? 'timeout' : /out of memory/i.test(message) ? 'out-of-memory' : 'failed';
    return { success: false, kind, error: message };
  } finally {
    clearTimeout(timer);
  }
}
