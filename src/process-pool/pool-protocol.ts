/** Messages between the pool (process-pool.ts) and a worker (pool-worker.ts). */

/** What a job's module exports: the work, run in a worker, one job at a time. */
export interface JobModule {
  runJob(input: unknown, context: JobContext): Promise<unknown>;
}

export interface JobContext {
  /** The worker's own folder, removed by the pool when the worker ends. */
  folder: string;
  /** `stop` is called when the job is interrupted (its caller aborted); it has a grace period to end. */
  onInterrupt(stop: () => void): void;
  /**
   * Starts the job's deadline: its preparation (loading tables nao handed it) does not count,
   * its model-written SQL does.
   */
  armDeadline(): void;
}

export type ToWorker =
  | { kind: 'job'; id: number; module: string; input: unknown }
  /** Sent without a reply: the job in flight should stop. */
  | { kind: 'interrupt'; id: number };

export type FromWorker =
  | { kind: 'ready' }
  | { kind: 'armed'; id: number }
  | { kind: 'done'; id: number; value: unknown }
  | { kind: 'failed'; id: number; code: string | undefined; message: string };
