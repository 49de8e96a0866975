/** Messages between the parent's sandboxes (sandbox.ts) and a sandbox process (sandbox-query-process.ts). */
import type { CellValue, ColumnInfo } from '../warehouse/index.js';
import type { LoadedTable, SourceTable } from './load-tables.js';

/** The engine a sandbox lives in: the process's shared one, or one of its own. */
export interface EngineSettings {
  /** The sandbox gets an engine of its own, locked once its tables are loaded. */
  dedicated: boolean;
  threads: number;
  /** Shared engine: its whole limit; dedicated engine: the working memory on top of the tables. */
  memoryLimitBytes: number;
}

export type SandboxRequestBody =
  | { kind: 'prepare'; engine: EngineSettings }
  | { kind: 'open'; sandbox: number; tables: readonly PackedTable[]; engine: EngineSettings }
  /** Tables `tableIds` loaded by nao into `file` (load-file.ts), which the process takes over and removes. */
  | { kind: 'open-file'; sandbox: number; file: string; tableIds: readonly string[]; engine: EngineSettings }
  | { kind: 'query'; sandbox: number; sql: string; timeoutMs: number; maxRows: number }
  | { kind: 'close'; sandbox: number };

export type SandboxRequest = SandboxRequestBody & { id: number };

/** Sent without a reply: the query of that sandbox stops as if its time was up. */
export interface InterruptMessage {
  kind: 'interrupt';
  sandbox: number;
}

/** A source table as sent to the process. */
export type PackedTable = Omit<SourceTable, 'rows'> & { rows: PackedRows };

/** What a query ended with, in the process. */
export type ProcessQueryOutcome =
  | { success: true; columns: ColumnInfo[]; rows: PackedRows }
  /** A long answer: table `table` of `file`, in the process's folder (answer-file.ts). */
  | { success: true; columns: ColumnInfo[]; file: string; table: string; rowCount: number }
  | { success: false; kind: SandboxFailureKind; error: string };

/** `unsafe`: refused by the safety check; `failed`: DuckDB raised an error; the rest are limits. */
export type SandboxFailureKind = 'unsafe' | 'failed' | 'timeout' | 'too-many-rows' | 'out-of-memory';

export type SandboxReply =
  | { kind: 'ready' }
  | { kind: 'done'; id: number; value: LoadedTable[] | ProcessQueryOutcome | null }
  | { kind: 'failed'; id: number; code: string | undefined; message: string };

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
