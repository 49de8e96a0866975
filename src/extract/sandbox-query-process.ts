/**
 * The process where extraction sandboxes live and model-written SQL runs. Some DuckDB work
 * never looks at its interrupt (one `levenshtein` over two long strings runs for hours), and
 * nothing in the same process can stop native code that ignores it: so the parent
 * (sandbox-process.ts) kills this process when a query outlives its grace period, and re-opens
 * the other sandboxes that lived here in a fresh one. Memory that DuckDB's own limit does not
 * count (the rows read into JavaScript) is bounded by this process's heap limit.
 *
 * Started by sandbox-process.ts with one argument: a folder of its own, for the engines'
 * private folders, which the parent removes once this process has ended.
 */
import { rmSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { messageOf, NaoError } from '../errors/index.js';
import { quoteIdentifier, quoteLiteral } from '../warehouse/index.js';
import { readSandboxAnswer } from './answer-file.js';
import { type LoadedTable, loadTables, type SourceTable } from './load-tables.js';
import { checkExtractionSql } from './safety-check.js';
import { type HostedSandbox, SandboxHost, sharedSandboxHost } from './sandbox-host.js';
import {
  type EngineSettings,
  type InterruptMessage,
  type PackedTable,
  type ProcessQueryOutcome,
  packRows,
  type SandboxReply,
  type SandboxRequest,
  unpackRows,
} from './sandbox-protocol.js';

const parentDir = process.argv[2];

interface Entry {
  host: SandboxHost;
  hosted: HostedSandbox;
  dedicated: boolean;
  tableIds: string[];
  /** The file a large sandbox's tables are attached from (openFile); null for tables loaded here. */
  loadFile: string | null;
  /** Stops the query in flight; set while one runs. */
  stop: (() => void) | null;
  /** Closed while a query ran: released once it returns. */
  closing: boolean;
}

const sandboxes = new Map<number, Entry>();

function send(reply: SandboxReply): void {
  process.send?.(reply);
}

function engineOf(settings: EngineSettings): Promise<SandboxHost> {
  const { threads, memoryLimitBytes } = settings;
  return settings.dedicated
    ? SandboxHost.create({ threads, parentDir })
    : sharedSandboxHost({ threads, memoryLimitBytes, parentDir });
}

async function open(sandbox: number, packed: readonly PackedTable[], engine: EngineSettings) {
  const tables = packed.map((table): SourceTable => ({ ...table, rows: unpackRows(table.rows) }));
  let loaded: LoadedTable[] = [];
  await place(sandbox, engine, async (hosted) => {
    loaded = await loadTables({ connection: hosted.connection, tables, scratchFile: hosted.scratchFile });
    return {
      tableIds: loaded.filter((table) => table.columns.length > 0).map((table) => table.id),
      loadFile: null,
    };
  });
  return loaded;
}

/**
 * Opens a sandbox over the tables of a file nao loaded (load-file.ts): attached read-only in
 * the sandbox's own engine, and named by temporary views, so they are not copied again. The
 * file stays in the engine's folder, which goes with the engine.
 */
async function openFile(request: Extract<SandboxRequest, { kind: 'open-file' }>): Promise<null> {
  const { file, tableIds } = request;
  if (!request.engine.dedicated) throw new Error('a sandbox loaded from a file needs an engine of its own');
  try {
    await place(request.sandbox, request.engine, async (hosted) => {
      // Into the one folder the engine may read.
      const readable = hosted.scratchFile('load.duckdb');
      await rename(file, readable);
      const views = tableIds.map(
        (id) =>
          `; CREATE TEMP VIEW ${quoteIdentifier(id)} AS SELECT * FROM __nao_load.main.${quoteIdentifier(id)}`,
      );
      await hosted.connection.run(
        `ATTACH ${quoteLiteral(readable)} AS __nao_load (READ_ONLY)${views.join('')}`,
      );
      return { tableIds: [...tableIds], loadFile: readable };
    });
  } finally {
    await rm(file, { force: true });
  }
  return null;
}

/** Connects a sandbox, fills it with `load` (which says where its tables are) and keeps it. */
async function place(
  sandbox: number,
  engine: EngineSettings,
  load: (hosted: HostedSandbox) => Promise<Pick<Entry, 'tableIds' | 'loadFile'>>,
): Promise<void> {
  const host = await engineOf(engine);
  let hosted: HostedSandbox | undefined;
  try {
    hosted = await host.connect();
    const { tableIds, loadFile } = await load(hosted);
    if (engine.dedicated) {
      const used = await host.memoryInUse(hosted.connection);
      await host.lock(used + engine.memoryLimitBytes);
    }
    sandboxes.set(sandbox, {
      host,
      hosted,
      dedicated: engine.dedicated,
      tableIds,
      loadFile,
      stop: null,
      closing: false,
    });
  } catch (error) {
    if (hosted !== undefined) host.disconnect(hosted);
    if (engine.dedicated) host.close();
    throw error;
  }
}

async function query(request: Extract<SandboxRequest, { kind: 'query' }>): Promise<ProcessQueryOutcome> {
  const entry = sandboxes.get(request.sandbox);
  if (entry === undefined) throw new Error(`no sandbox ${request.sandbox} in this process`);
  const { connection } = entry.hosted;
  const check = await checkExtractionSql({ connection, sql: request.sql, tableIds: entry.tableIds });
  if (!check.success) return { success: false, kind: 'unsafe', error: check.error };
  let stopped = false;
  entry.stop = () => {
    stopped = true;
    connection.interrupt();
  };
  const timer = setTimeout(() => entry.stop?.(), request.timeoutMs);
  try {
    // Streamed, and read no further than one row past the cap: an answer of unknown size is
    // never held whole, here or in the engine.
    const answer = await readSandboxAnswer({
      connection,
      sql: request.sql,
      maxRows: request.maxRows,
      // An interrupt that lands between two statements of the read is lost: check here too.
      checkpoint: () => {
        if (stopped) throw new Error('the query was stopped');
      },
      file: entry.hosted.scratchFile(`answer_${request.id}.duckdb`),
      large: entry.dedicated,
      loaded: entry.loadFile === null ? undefined : { file: entry.loadFile, tableIds: entry.tableIds },
      parsed: check.tree,
    });
    if (answer.kind === 'too-many-rows') {
      return {
        success: false,
        kind: 'too-many-rows',
        error: `The query returned more than ${request.maxRows} rows; return only the rows of the answer.`,
      };
    }
    if (answer.kind === 'file') {
      const { columns, file, table, rowCount } = answer;
      return { success: true, columns, file, table, rowCount };
    }
    return { success: true, columns: answer.columns, rows: packRows(answer.rows, answer.columns.length) };
  } catch (error) {
    const message = messageOf(error);
    const kind = stopped ? 'timeout' : /out of memory/i.test(message) ? 'out-of-memory' : 'failed';
    return { success: false, kind, error: message };
  } finally {
    clearTimeout(timer);
    entry.stop = null;
    if (entry.closing) release(request.sandbox, entry);
  }
}

function close(sandbox: number): null {
  const entry = sandboxes.get(sandbox);
  if (entry === undefined) return null;
  if (entry.stop !== null) {
    entry.closing = true;
    entry.stop();
  } else {
    release(sandbox, entry);
  }
  return null;
}

function release(sandbox: number, entry: Entry): void {
  sandboxes.delete(sandbox);
  try {
    entry.host.disconnect(entry.hosted);
  } finally {
    if (entry.dedicated) entry.host.close();
  }
}

async function handle(request: SandboxRequest): Promise<LoadedTable[] | ProcessQueryOutcome | null> {
  switch (request.kind) {
    case 'prepare':
      await engineOf(request.engine);
      return null;
    case 'open':
      return open(request.sandbox, request.tables, request.engine);
    case 'open-file':
      return openFile(request);
    case 'query':
      return query(request);
    case 'close':
      return close(request.sandbox);
  }
}

process.on('message', (message: SandboxRequest | InterruptMessage) => {
  if (message.kind === 'interrupt') {
    sandboxes.get(message.sandbox)?.stop?.();
    return;
  }
  handle(message).then(
    (value) => send({ kind: 'done', id: message.id, value }),
    (error: unknown) =>
      send({
        kind: 'failed',
        id: message.id,
        code: error instanceof NaoError ? error.code : undefined,
        message: messageOf(error),
      }),
  );
});
// The parent decides when this process ends: a Ctrl-C in the terminal reaches the whole
// process group, and the parent still needs the sandboxes while it saves what finished.
process.on('SIGINT', () => undefined);
// Gone with the parent, however it ended; at once, since an exit that runs DuckDB's
// destructors would wait for a query that ignores its interrupt.
process.on('disconnect', () => {
  if (parentDir !== undefined) rmSync(parentDir, { recursive: true, force: true });
  process.kill(process.pid, 'SIGKILL');
});
send({ kind: 'ready' });
