/** One extraction job, as the parent's sandbox (sandbox.ts) sends it to a pool worker (extraction-job.ts). */
import type { CellValue, ColumnInfo } from '../warehouse/index.js';
import type { LoadedTable, SourceTable } from './load-tables.js';

export interface ExtractionJob {
  tables: /** Small tables, sent whole and loaded in the worker's long-lived engine. */
    | { kind: 'rows'; tables: readonly PackedTable[] }
    /** Large ones, loaded by nao into `file` (load-file.ts), read in place by an engine of the job's own. */
    | { kind: 'file'; file: string; tableIds: readonly string[] };
  /** null: only load, and tell what was loaded. */
  sql: string | null;
  timeoutMs: number;
  maxRows: number;
  /** Working memory on top of the loaded tables. */
  memoryLimitBytes: number;
  /** DuckDB threads of an engine of the job's own. */
  threads: number;
  /** Where a long answer goes, in nao's exchange folder. */
  answerFile: string;
}

/** A source table as sent to the worker. */
export type PackedTable = Omit<SourceTable, 'rows'> & { rows: PackedRows };

/** What a query ended with, in the worker. */
export type JobQueryOutcome =
  | { success: true; columns: ColumnInfo[]; rows: PackedRows }
  /** A long answer: table `table` of `file` (the answer file, or the load file itself). */
  | { success: true; columns: ColumnInfo[]; file: string; table: string; rowCount: number }
  | { success: false; kind: SandboxFailureKind; error: string };

export type JobOutcome = { loaded: LoadedTable[] } | JobQueryOutcome;

/** `unsafe`: refused by the safety check; `failed`: DuckDB raised an error; the rest are limits. */
export type SandboxFailureKind = 'unsafe' | 'failed' | 'timeout' | 'too-many-rows' | 'out-of-memory';

/**
 * Rows cross the channel column by column: a few long arrays of like values serialise far
 * faster than a million short mixed ones.
 */
export interface PackedRows {
  width: number;
  length: number;
  columns: CellValue[][];
}

export function packRows(rows: readonly (readonly CellValue[])[], width: number): PackedRows {
  const columns: CellValue[][] = Array.from({ length: width }, () => new Array<CellValue>(rows.length));
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r]!;
    // A row of the wrong width stays one: the loader refuses it with its own message.
    if (row.length !== width)
      return { width: -1, length: rows.length, columns: rows.map((each) => [...each]) };
    for (let c = 0; c < width; c++) columns[c]![r] = row[c]!;
  }
  return { width, length: rows.length, columns };
}

export function unpackRows(packed: PackedRows): CellValue[][] {
  if (packed.width === -1) return packed.columns;
  const rows: CellValue[][] = new Array(packed.length);
  for (let r = 0; r < packed.length; r++) {
    const row = new Array<CellValue>(packed.width);
    for (let c = 0; c < packed.width; c++) row[c] = packed.columns[c]![r]!;
    rows[r] = row;
  }
  return rows;
}
