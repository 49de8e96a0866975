/** Timing and peak-memory helpers shared by the benchmarks. */
import { Worker } from 'node:worker_threads';

export interface PeakMemory {
  /** Stops sampling and returns the peak resident set size in bytes. */
  stop(): number;
}

// Runs in a worker thread: sampling on the main thread cost the throughput benchmark about
// 0.7 s of the very thread it measures. RSS is per process, so the worker sees all of it.
const SAMPLER = `
const { workerData } = require('node:worker_threads');
const peak = new BigInt64Array(workerData.peak);
setInterval(() => {
  const rss = BigInt(process.memoryUsage.rss());
  if (rss > Atomics.load(peak, 0)) Atomics.store(peak, 0, rss);
}, workerData.intervalMs);
`;

/** Samples RSS every few milliseconds from a worker thread, off the thread being measured. */
export function samplePeakMemory(intervalMs = 5): PeakMemory {
  const peak = new BigInt64Array(new SharedArrayBuffer(8));
  peak[0] = BigInt(process.memoryUsage.rss());
  const worker = new Worker(SAMPLER, { eval: true, workerData: { peak: peak.buffer, intervalMs } });
  worker.unref();
  return {
    stop() {
      void worker.terminate();
      return Math.max(Number(Atomics.load(peak, 0)), process.memoryUsage.rss());
    },
  };
}

export async function timed<T>(work: () => Promise<T> | T): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await work();
  return { value, ms: performance.now() - start };
}

export function formatBytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(0)} MB`;
}

export function formatMs(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`;
}
