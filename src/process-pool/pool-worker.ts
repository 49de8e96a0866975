/**
 * A worker of the pool (process-pool.ts): runs one job at a time, by the module it names.
 * Started with a folder of its own (removed by the pool once it ended) and the job modules to
 * load before it says it is ready: loading one takes seconds under tsx, which would otherwise
 * count against the first job that needs it.
 */
import { pathToFileURL } from 'node:url';
import { messageOf } from '../errors/index.js';

/** What a job's module exports: the work, run in a worker, one job at a time. */
export interface JobModule {
  runJob(input: unknown, context: JobContext): Promise<unknown>;
}

export interface JobContext {
  /** The worker's own folder, removed by the pool when the worker ends. */
  folder: string;
}

/** The messages between the pool (process-pool.ts) and a worker: a job, and its reply. */
export type ToWorker = { module: string; input: unknown };

export type FromWorker =
  | { kind: 'done'; value: unknown }
  | { kind: 'failed'; code: string | undefined; message: string };

const [folder = '', ...preload] = process.argv.slice(2);

const modules = new Map<string, Promise<JobModule>>();

/** Each job's module, imported once: asking Node's loader again cost about 1 ms per job under tsx. */
function load(module: string): Promise<JobModule> {
  let loading = modules.get(module);
  if (loading === undefined) {
    loading = import(pathToFileURL(module).href) as Promise<JobModule>;
    modules.set(module, loading);
  }
  return loading;
}

function send(message: FromWorker): void {
  process.send?.(message);
}

process.on('message', async (job: ToWorker) => {
  try {
    const module = await load(job.module);
    send({ kind: 'done', value: await module.runJob(job.input, { folder }) });
  } catch (error) {
    // A typed error keeps its code across: nao's own, or better-sqlite3's (SQLITE_READONLY…).
    const code = (error as { code?: unknown } | null)?.code;
    send({ kind: 'failed', code: typeof code === 'string' ? code : undefined, message: messageOf(error) });
  }
});
// The pool decides when this process ends: a Ctrl-C in the terminal reaches the whole
// process group, and nao still needs its workers while it saves what finished.
process.on('SIGINT', () => undefined);
// Gone with nao, however it ended; at once, since an exit that runs DuckDB's destructors
// would wait for work that ignores its interrupt.
process.on('disconnect', () => process.kill(process.pid, 'SIGKILL'));
// A module that fails to load fails the job that needs it, with the reason.
await Promise.allSettled(preload.map(load));
// Ready: the pool's first reply, to no job.
send({ kind: 'done', value: null });
