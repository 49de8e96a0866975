/** Timing and peak-memory helpers shared by the benchmarks. */
import { readFileSync, writeFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';

export interface PeakMemory {
  /** Stops sampling and returns the peak resident set size in bytes. */
  stop(): number;
}

// The fallback runs in a worker thread: sampling on the main thread cost the throughput
// benchmark about 0.7 s of the very thread it measures. RSS is per process, so the worker
// sees all of it.
const SAMPLER = `
const { workerData } = require('node:worker_threads');
const peak = new BigInt64Array(workerData.peak);
setInterval(() => {
  const rss = BigInt(process.memoryUsage.rss());
  if (rss > Atomics.load(peak, 0)) Atomics.store(peak, 0, rss);
}, workerData.intervalMs);
`;

/**
 * Tracks the peak resident set size from now on. On Linux the kernel keeps it (VmHWM), reset
 * here through /proc/self/clear_refs: exact, and nothing runs meanwhile (the sampling thread
 * had woken 200 times a second on the 2 cores being measured). Elsewhere RSS is sampled every
 * few milliseconds from a worker thread.
 */
export function samplePeakMemory(intervalMs = 5): PeakMemory {
  const kernelPeak = resetKernelPeak();
  if (kernelPeak !== null) return { stop: () => Math.max(kernelPeak(), process.memoryUsage.rss()) };
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

/** Resets the kernel's high-water mark and returns its reader, or null where there is none. */
function resetKernelPeak(): (() => number) | null {
  const read = (): number | null => {
    const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    return match === null ? null : Number(match[1]) * 1024;
  };
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    const now = read();
    // A kernel that ignored the reset would report the peak of everything before, fixture included.
    if (now === null || now > process.memoryUsage.rss() * 1.05) return null;
    return () => read() ?? 0;
  } catch {
    return null;
  }
}

/**
 * CPU time of this process's main thread so far, in ms, or null off Linux. A suite's event
 * loop is the harness's bottleneck: its CPU per run bounds throughput, whatever else the
 * machine does. Read from /proc (clock ticks, 10 ms apart at the usual 100 Hz).
 */
export function mainThreadCpuMs(): number | null {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may hold spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime
    return Number.isFinite(ticks) ? (ticks * 1000) / CLOCK_TICKS_PER_SECOND : null;
  } catch {
    return null;
  }
}

/**
 * CPU time the hypervisor took from this virtual machine so far (the `steal` column of
 * /proc/stat, summed over its CPUs), in ms, or null where the kernel does not report it. On a
 * shared host, a benchmark whose machine was preempted meanwhile measures the host, not nao.
 */
export function hostStealMs(): number | null {
  try {
    const cpu = /^cpu +(.*)$/m.exec(readFileSync('/proc/stat', 'utf8'));
    const ticks = Number(cpu?.[1]?.split(' ')[7]); // user nice system idle iowait irq softirq steal
    return Number.isFinite(ticks) ? (ticks * 1000) / CLOCK_TICKS_PER_SECOND : null;
  } catch {
    return null;
  }
}

/** USER_HZ: 100 on every Linux architecture Node runs on. */
const CLOCK_TICKS_PER_SECOND = 100;

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
