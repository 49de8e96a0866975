/**
 * One pool of killable worker processes (pool-worker.ts) for work nao cannot stop from inside
 * its own process: model-written SQL in the extraction sandbox, and SQLite queries. Each
 * worker runs one job at a time; a job past its deadline is killed with its worker, which
 * another replaces, and no other job notices. Jobs wait in call order for a free worker.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { NaoError } from '../errors/index.js';
import { childModule, holdOpen } from './child-module.js';
import { naoTempFolder } from './owned-folders.js';
import type { FromWorker, ToWorker } from './pool-worker.js';

const WORKER = childModule(import.meta.url, 'pool-worker');

/**
 * The JavaScript heap of a worker, in MiB: room for the largest answers nao accepts (a
 * million rows of a few columns), and a bound on memory that DuckDB's own limit does not see.
 */
const WORKER_HEAP_MIB = 2048;

export interface JobOptions {
  /** The module that runs the job, as `childModule(import.meta.url, name).entry` names it. */
  module: string;
  input: unknown;
  /**
   * From the moment a worker takes the job: past it, the worker is killed. None: the caller
   * aborts the job when it must stop.
   */
  deadlineMs?: number;
  /** Aborted while waiting, the job never starts; while running, it is killed with its worker. */
  signal?: AbortSignal | undefined;
}

/** Why a job has no answer: `deadline` and `aborted` killed its worker; `crashed`, it ended by itself. */
export class JobLost extends NaoError {
  constructor(
    readonly reason: 'deadline' | 'aborted' | 'crashed',
    message: string,
  ) {
    super({ code: 'POOL_JOB_LOST', message });
  }
}

interface Job extends JobOptions {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  /** Stops listening for an abort while waiting: once running, the worker listens. */
  started: () => void;
}

const live = new Set<ChildProcess>();

/** One worker process, running at most one job; its replies are in the order of its jobs. */
class Worker {
  private stderr = '';
  /** Why the job in flight has no answer, should the worker end under it. */
  private lost: JobLost['reason'] = 'crashed';
  /** Takes the worker's next reply: null when it ended first. */
  private settle: ((reply: FromWorker | null) => void) | null = null;

  private constructor(
    readonly child: ChildProcess,
    folder: string,
  ) {
    live.add(child);
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (text: string) => {
      // Only the tail matters: it holds the reason of a crash.
      this.stderr = (this.stderr + text).slice(-2000);
    });
    child.on('message', (reply: FromWorker) => this.settle?.(reply));
    child.once('exit', () => {
      live.delete(child);
      rmSync(folder, { recursive: true, force: true });
      this.settle?.(null);
    });
    // A process that could not be spawned says so here, and never exits.
    child.on('error', (error) => {
      this.stderr = error.message;
      if (!this.alive) this.settle?.(null);
    });
  }

  static async start(preload: readonly string[]): Promise<Worker> {
    const folder = mkdtempSync(path.join(naoTempFolder(), 'worker-'));
    const child = fork(WORKER.entry, [folder, ...preload], {
      execArgv: [`--max-old-space-size=${WORKER_HEAP_MIB}`, ...WORKER.execArgv],
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'advanced',
    });
    const worker = new Worker(child, folder);
    // Its first reply, to no job, says that it is ready.
    if ((await worker.reply()) === null) {
      child.kill('SIGKILL');
      throw new Error(`a pool worker ended as it started: ${worker.stderr}`);
    }
    holdOpen(child, false);
    return worker;
  }

  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Runs `job` to its answer; rejects with its error, or with `JobLost` when the worker ended under it. */
  async run(job: JobOptions): Promise<unknown> {
    holdOpen(this.child, true);
    this.lost = 'crashed';
    const kill = (reason: JobLost['reason']) => {
      this.lost = reason;
      this.child.kill('SIGKILL');
    };
    // Its answer is no longer wanted: killed rather than asked to stop, which a query in
    // native code may not hear; another worker takes its place.
    const abort = () => kill('aborted');
    job.signal?.addEventListener('abort', abort, { once: true });
    const deadline =
      job.deadlineMs === undefined ? undefined : setTimeout(() => kill('deadline'), job.deadlineMs);
    const replied = this.reply();
    const message: ToWorker = { module: job.module, input: job.input };
    if (this.child.connected) this.child.send(message, () => undefined);
    const reply = await replied;
    clearTimeout(deadline);
    job.signal?.removeEventListener('abort', abort);
    if (this.alive) holdOpen(this.child, false);
    if (reply === null) throw new JobLost(this.lost, this.lostMessage());
    if (reply.kind === 'done') return reply.value;
    throw reply.code === undefined
      ? new Error(reply.message)
      : new NaoError({ code: reply.code, message: reply.message });
  }

  private reply(): Promise<FromWorker | null> {
    return new Promise((resolve) => {
      this.settle = (reply) => {
        this.settle = null;
        resolve(reply);
      };
    });
  }

  private lostMessage(): string {
    const reason = this.lost;
    const { exitCode, signalCode } = this.child;
    const how = signalCode === null ? `exit code ${exitCode}` : `signal ${signalCode}`;
    const tail = this.stderr.trim().split('\n').slice(-3).join(' ');
    if (reason === 'crashed') return `the worker process ended (${how})${tail === '' ? '' : `: ${tail}`}`;
    return `the job was killed with its worker process (${reason === 'deadline' ? 'past its deadline' : 'aborted'})`;
  }
}

export class ProcessPool {
  private readonly idle: Worker[] = [];
  private readonly queue: Job[] = [];
  /** Alive or starting. */
  private workers = 0;
  private readonly starting = new Set<Promise<void>>();
  /** The modules of the jobs run so far, loaded by every worker started from now on. */
  private readonly modules = new Set<string>();

  constructor(private readonly size: number) {}

  /** Runs one job in a worker of its own; see `JobOptions`. Rejects with `JobLost` when its worker died under it. */
  run<Output>(options: JobOptions): Promise<Output> {
    options.signal?.throwIfAborted();
    this.modules.add(options.module);
    return new Promise<Output>((resolve, reject) => {
      const { signal } = options;
      const abort = () => {
        this.queue.splice(this.queue.indexOf(job), 1);
        reject(signal?.reason);
      };
      const started = () => signal?.removeEventListener('abort', abort);
      const job: Job = { ...options, resolve: resolve as (value: unknown) => void, reject, started };
      this.queue.push(job);
      signal?.addEventListener('abort', abort, { once: true });
      this.dispatch();
    });
  }

  /**
   * Starts every worker ahead of the first job, with `modules` loaded: otherwise the first
   * jobs all wait for them.
   */
  async prepare(modules: readonly string[] = []): Promise<void> {
    for (const module of modules) this.modules.add(module);
    while (this.workers < this.size) void this.grow();
    await Promise.all(this.starting);
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const worker = this.idle.pop();
      if (worker === undefined) {
        if (this.workers < this.size) void this.grow();
        return;
      }
      if (!worker.alive) {
        this.workers--;
        continue;
      }
      const job = this.queue.shift()!;
      job.started();
      void worker
        .run(job)
        .then(job.resolve, job.reject)
        .then(() => {
          if (worker.alive) this.idle.push(worker);
          else {
            // Replaced at once: the next job should not wait for a worker to start.
            this.workers--;
            void this.grow();
          }
          this.dispatch();
        });
    }
  }

  private grow(): Promise<void> {
    this.workers++;
    const started = Worker.start([...this.modules]).then(
      (worker) => {
        this.idle.push(worker);
      },
      (error: unknown) => {
        this.workers--;
        // A worker that cannot start fails the job that waited for it, not every later one.
        const job = this.queue.shift();
        job?.started();
        job?.reject(error as Error);
      },
    );
    this.starting.add(started);
    return started.finally(() => {
      this.starting.delete(started);
      this.dispatch();
    });
  }
}

/** The pool's size: one worker per core, and at least two, so that one killed job never stalls the rest. */
const POOL_SIZE = Math.max(2, availableParallelism());

let shared: ProcessPool | null = null;

/** The pool of this nao, created on first use; its workers are killed as nao exits. */
export function processPool(): ProcessPool {
  if (shared === null) {
    shared = new ProcessPool(POOL_SIZE);
    // A worker stuck in native code would outlive nao otherwise.
    process.once('exit', () => {
      for (const child of live) child.kill('SIGKILL');
    });
  }
  return shared;
}
