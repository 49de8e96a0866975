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
  | { kind: 'open'; sandbox: number; tables: readonly SourceTable[]; engine: EngineSettings }
  | { kind: 'query'; sandbox: number; sql: string; timeoutMs: number; maxRows: number }
  | { kind: 'close'; sandbox: number };

export type SandboxRequest = SandboxRequestBody & { id: number };

/** Sent without a reply: the query of that sandbox stops as if its time was up. */
export interface InterruptMessage {
  kind: 'interrupt';
  sandbox: number;
}

/** What a query ended with, in the process. */
export type ProcessQueryOutcome =
  | { success: true; columns: ColumnInfo[]; rows: CellValue[][] }
  | {
      success: false;
      kind: 'unsafe' | 'failed' | 'timeout' | 'too-many-rows' | 'out-of-memory';
      error: string;
    };

export type SandboxReply =
  | { kind: 'ready' }
  | { kind: 'done'; id: number; value: LoadedTable[] | ProcessQueryOutcome | null }
  | { kind: 'failed'; id: number; code: string | undefined; message: string };
