import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../test-support/cli/example-project.js';
import type { TestJob } from '../../test-support/process-pool/jobs.js';
import { JobLost, ProcessPool } from './process-pool.js';

const JOBS = path.join(REPO_ROOT, 'test-support', 'process-pool', 'jobs.ts');
const EXITS_ON_LOAD = path.join(REPO_ROOT, 'test-support', 'process-pool', 'exits-on-load.ts');

function run(pool: ProcessPool, job: TestJob, options: { deadlineMs?: number; signal?: AbortSignal } = {}) {
  return pool.run<{ pid: number }>({ module: JOBS, input: job, ...options });
}

describe('the process pool', () => {
  it('runs one job at a time per worker, never more workers than its size', async () => {
    const pool = new ProcessPool(2);
    await pool.prepare();
    const started = performance.now();
    const answers = await Promise.all([1, 2, 3, 4].map(() => run(pool, { kind: 'sleep', ms: 300 })));
    // Four jobs of 300 ms on two workers: two rounds, not one, and not four.
    expect(performance.now() - started).toBeGreaterThanOrEqual(590);
    expect(performance.now() - started).toBeLessThan(1_150);
    expect(new Set(answers.map((answer) => answer.pid)).size).toBe(2);
  });

  it('kills a job past its deadline with its worker, replaces the worker, and no other job notices', async () => {
    const pool = new ProcessPool(2);
    await pool.prepare();
    const neighbour = run(pool, { kind: 'sleep', ms: 800 });
    const started = performance.now();
    const lost = await run(pool, { kind: 'spin' }, { deadlineMs: 300 }).catch((error: unknown) => error);
    expect(lost).toBeInstanceOf(JobLost);
    expect(lost).toMatchObject({ reason: 'deadline' });
    expect(performance.now() - started).toBeLessThan(1_000);
    const kept = await neighbour;
    // Two workers again: the neighbour's, and a new one in the killed one's place.
    await pool.prepare();
    const next = await Promise.all([
      run(pool, { kind: 'sleep', ms: 200 }),
      run(pool, { kind: 'sleep', ms: 200 }),
    ]);
    expect(next.map((answer) => answer.pid)).toContain(kept.pid);
    expect(new Set(next.map((answer) => answer.pid)).size).toBe(2);
  });

  it('kills a running job with its worker on abort, and replaces the worker', async () => {
    const pool = new ProcessPool(2);
    // Started, so that the abort below reaches a running job, not a waiting one.
    await pool.prepare();
    const controller = new AbortController();
    const started = performance.now();
    const spinning = run(pool, { kind: 'spin' }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 300);
    await expect(spinning).rejects.toMatchObject({ reason: 'aborted' });
    expect(performance.now() - started).toBeLessThan(1_000);
    // Two workers again: the other, and a new one in the killed one's place.
    await pool.prepare();
    const pids = await Promise.all([
      run(pool, { kind: 'sleep', ms: 200 }),
      run(pool, { kind: 'sleep', ms: 200 }),
    ]);
    expect(new Set(pids.map((answer) => answer.pid)).size).toBe(2);
  });

  it('never starts a job aborted while it waits for a worker', async () => {
    const pool = new ProcessPool(2);
    const busy = [run(pool, { kind: 'sleep', ms: 500 }), run(pool, { kind: 'sleep', ms: 500 })];
    const controller = new AbortController();
    const waiting = run(pool, { kind: 'sleep', ms: 0 }, { signal: controller.signal });
    controller.abort(new Error('run cancelled'));
    await expect(waiting).rejects.toThrow('run cancelled');
    await Promise.all(busy);
  });

  it("keeps a job's typed error, and reports a crash with how the worker ended", async () => {
    const pool = new ProcessPool(2);
    await expect(run(pool, { kind: 'throw', code: 'SOME_CODE' })).rejects.toMatchObject({
      code: 'SOME_CODE',
      message: 'job refused (SOME_CODE)',
    });
    await expect(run(pool, { kind: 'crash' })).rejects.toMatchObject({
      reason: 'crashed',
      message: expect.stringContaining('exit code 3'),
    });
    expect(await run(pool, { kind: 'sleep', ms: 0 })).toMatchObject({ pid: expect.any(Number) });
  });

  it('fails the job that waits for a worker ending as it starts, with what the worker said', async () => {
    const pool = new ProcessPool(1);
    await expect(pool.run({ module: EXITS_ON_LOAD, input: null })).rejects.toThrow(
      'a pool worker ended as it started: this module ends its process',
    );
  });
});
