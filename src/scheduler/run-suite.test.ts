import { describe, expect, it } from 'vitest';
import { planRuns } from './plan.js';
import { type RunOutcome, RunTimeoutError, runSuite, type SuiteEvent } from './run-suite.js';

interface FakeResult extends RunOutcome {
  key: string;
  message: string;
  spentUsd: number | null;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });

function baseOptions(tests: string[], models: string[], repeat = 1) {
  return {
    runs: planRuns({ tests, models, repeat }),
    spentUsd: (result: FakeResult) => result.spentUsd,
    skipped: (run: { test: string; model: string }, reason: string): FakeResult => ({
      key: `${run.test}@${run.model}`,
      status: 'skipped',
      spentUsd: null,
      message: reason,
    }),
    crashed: (run: { test: string; model: string }, error: unknown): FakeResult => ({
      key: `${run.test}@${run.model}`,
      status: 'error',
      spentUsd: null,
      message: String((error as Error).message),
    }),
  };
}

describe('planRuns', () => {
  it('orders models, then tests, then attempts', () => {
    const runs = planRuns({ tests: ['a', 'b'], models: ['m1', 'm2'], repeat: 2 });
    expect(runs.map((run) => `${run.model}/${run.test}/${run.attempt}`)).toEqual([
      'm1/a/1',
      'm1/a/2',
      'm1/b/1',
      'm1/b/2',
      'm2/a/1',
      'm2/a/2',
      'm2/b/1',
      'm2/b/2',
    ]);
    expect(runs.map((run) => run.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });
});

describe('runSuite', () => {
  it('keeps plan order when runs finish out of order, with at most N at once', async () => {
    const tests = Array.from({ length: 20 }, (_, i) => `t${i}`);
    let running = 0;
    let peak = 0;
    const outcome = await runSuite({
      ...baseOptions(tests, ['m']),
      concurrency: 8,
      execute: async (run) => {
        running++;
        peak = Math.max(peak, running);
        await sleep(((run.index * 7) % 5) * 3);
        running--;
        return { key: `${run.test}@${run.model}`, status: 'passed', spentUsd: 0.01, message: 'match' };
      },
    });
    expect(outcome.results.map((result) => result.key)).toEqual(tests.map((test) => `${test}@m`));
    expect(peak).toBe(8);
    expect(outcome.stoppedBy).toBeNull();
    expect(outcome.spentUsd).toBeCloseTo(0.2);
  });

  it('turns a throwing run into an error and goes on', async () => {
    const outcome = await runSuite({
      ...baseOptions(['a', 'b', 'c'], ['m']),
      concurrency: 1,
      execute: async (run) => {
        if (run.test === 'b') throw new Error('boom');
        return { key: run.test, status: 'passed', spentUsd: 0, message: 'match' };
      },
    });
    expect(outcome.results.map((result) => [result.status, result.message])).toEqual([
      ['passed', 'match'],
      ['error', 'boom'],
      ['passed', 'match'],
    ]);
  });

  it('aborts a run past its timeout with a RunTimeoutError and runs the others', async () => {
    const outcome = await runSuite({
      ...baseOptions(['slow', 'fast'], ['m']),
      concurrency: 2,
      timeoutMs: 50,
      execute: async (run, signal) => {
        try {
          await sleep(run.test === 'slow' ? 5_000 : 1, signal);
          return { key: run.test, status: 'passed', spentUsd: 0, message: 'match' };
        } catch (error) {
          expect(error).toBeInstanceOf(RunTimeoutError);
          return { key: run.test, status: 'error', spentUsd: 0, message: (error as Error).message };
        }
      },
    });
    expect(outcome.results[0]).toMatchObject({ status: 'error', message: 'timed out after 50 ms' });
    expect(outcome.results[1]!.status).toBe('passed');
  });

  it('stops scheduling when the budget is reached and records the rest as skipped', async () => {
    const events: SuiteEvent<string, FakeResult>[] = [];
    const outcome = await runSuite({
      ...baseOptions(['a', 'b', 'c', 'd', 'e'], ['m']),
      concurrency: 1,
      maxCostUsd: 0.25,
      onEvent: (event) => events.push(event),
      execute: async (run) => ({ key: run.test, status: 'passed', spentUsd: 0.1, message: 'match' }),
    });
    expect(outcome.results.map((result) => result.status)).toEqual([
      'passed',
      'passed',
      'passed',
      'skipped',
      'skipped',
    ]);
    expect(outcome.results[3]!.message).toBe('budget');
    expect(outcome.stoppedBy).toBe('budget');
    expect(events.filter((event) => event.type === 'stop')).toEqual([{ type: 'stop', reason: 'budget' }]);
  });

  it('fail-fast stops after the first failure', async () => {
    const outcome = await runSuite({
      ...baseOptions(['a', 'b', 'c'], ['m']),
      concurrency: 1,
      failFast: true,
      execute: async (run) => ({
        key: run.test,
        status: run.test === 'b' ? 'failed' : 'passed',
        spentUsd: 0,
        message: '',
      }),
    });
    expect(outcome.results.map((result) => result.status)).toEqual(['passed', 'failed', 'skipped']);
    expect(outcome.stoppedBy).toBe('fail-fast');
  });

  it('an interrupt cancels the runs in flight, which come back as their executor made them, and skips the rest', async () => {
    const controller = new AbortController();
    const outcome = await runSuite({
      ...baseOptions(['quick', 'stuck1', 'stuck2', 'third', 'never'], ['m']),
      concurrency: 3,
      signal: controller.signal,
      execute: async (run, signal) => {
        if (run.test === 'quick') {
          setTimeout(() => controller.abort(new Error('interrupted')), 20);
          return { key: run.test, status: 'passed', spentUsd: 0, message: 'match' };
        }
        await sleep(10_000, signal).catch(() => undefined);
        // What it spent before the interrupt is in its row, like a timed-out run's.
        return { key: run.test, status: 'error', spentUsd: 0.01, message: (signal.reason as Error).message };
      },
    });
    expect(outcome.stoppedBy).toBe('interrupted');
    expect(outcome.results.map((result) => [result.key, result.status, result.message])).toEqual([
      ['quick', 'passed', 'match'],
      ['stuck1', 'error', 'interrupted'],
      ['stuck2', 'error', 'interrupted'],
      ['third', 'error', 'interrupted'],
      ['never@m', 'skipped', 'interrupted'],
    ]);
    expect(outcome.spentUsd).toBeCloseTo(0.03, 10);
  });

  it('spaces the starts of the first runs by startSpacingMs, then starts each as a slot frees', async () => {
    const started: number[] = [];
    const t0 = performance.now();
    const outcome = await runSuite({
      ...baseOptions(['a', 'b', 'c', 'd'], ['m']),
      concurrency: 3,
      // Wide enough that timers late by a loaded CI machine keep the order.
      startSpacingMs: 150,
      execute: async (run) => {
        started.push(performance.now() - t0);
        await sleep(run.test === 'a' ? 10 : 400);
        return { key: run.test, status: 'passed', spentUsd: 0, message: 'match' };
      },
    });
    expect(outcome.results.map((result) => result.status)).toEqual(['passed', 'passed', 'passed', 'passed']);
    // The first worker starts a at once and, a done, b; the second and third workers start
    // 150 and 300 ms in, whatever the first one does.
    expect(started[0]).toBeLessThan(100);
    expect(started[1]).toBeLessThan(150);
    expect(started[2]).toBeGreaterThanOrEqual(148);
    expect(started[3]).toBeGreaterThanOrEqual(298);
  });

  it('an interrupt during the spaced start does not wait for the spacing', async () => {
    const controller = new AbortController();
    const t0 = performance.now();
    setTimeout(() => controller.abort(), 20);
    const outcome = await runSuite({
      ...baseOptions(['a', 'b', 'c'], ['m']),
      concurrency: 3,
      startSpacingMs: 5_000,
      signal: controller.signal,
      execute: async (run, signal) => {
        await sleep(10_000, signal).catch(() => undefined);
        return { key: run.test, status: 'error', spentUsd: 0, message: 'aborted' };
      },
    });
    expect(performance.now() - t0).toBeLessThan(2_000);
    // The first run had started: it is the executor's error; the others never did.
    expect(outcome.results.map((result) => result.status)).toEqual(['error', 'skipped', 'skipped']);
  });
});
