/**
 * A worker of the pool (process-pool.ts): runs one job at a time, by the module it names.
 * Started with a folder of its own (removed by the pool once it ended) and the job modules to
 * load before it says it is ready: loading one takes seconds under tsx, which would otherwise
 * count against the first job that needs it.
 */
import { pathToFileURL } from 'node:url';
import { messageOf, NaoError } from '../errors/index.js';
import type { FromWorker, JobModule, ToWorker } from './pool-protocol.js';

const [folder = '', ...preload] = process.argv.slice(2);
const modules = new Map<string, Promise<JobModule>>();
let interrupt: (() => void) | null = null;

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

async function run(job: Extract<ToWorker, { kind: 'job' }>): Promise<unknown> {
  const module = await load(job.module);
  try {
    return await module.runJob(job.input, {
      folder,
      onInterrupt: (stop) => (interrupt = stop),
      armDeadline: () => send({ kind: 'armed', id: job.id }),
    });
  } finally {
    interrupt = null;
  }
}

process.on('message', (message: ToWorker) => {
  if (message.kind === 'interrupt') {
    interrupt?.();
    return;
  }
  run(message).then(
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
// The pool decides when this process ends: a Ctrl-C in the terminal reaches the whole
// process group, and nao still needs its workers while it saves what finished.
process.on('SIGINT', () => undefined);
// Gone with nao, however it ended; at once, since an exit that runs DuckDB's destructors
// would wait for work that ignores its interrupt.
process.on('disconnect', () => process.kill(process.pid, 'SIGKILL'));
// A module that fails to load fails the job that needs it, with the reason.
await Promise.allSettled(preload.map(load));
send({ kind: 'ready' });
