import { afterEach, describe, expect, it, vi } from 'vitest';
import type { QueryOptions } from './database.js';
import { startQuery, stoppedError, stopRace, watchQuery } from './query-control.js';
import { WarehouseError } from './warehouse-error.js';

const context = { database: 'wh', dialect: 'duckdb' as const };

describe('startQuery', () => {
  it.each<[QueryOptions, number]>([
    [{}, Number.POSITIVE_INFINITY],
    [{ maxRows: 0 }, 0],
    [{ maxRows: 1000 }, 1000],
    [{ maxRows: Number.POSITIVE_INFINITY }, Number.POSITIVE_INFINITY],
  ])('accepts %j', (query, maxRows) => {
    expect(startQuery({ ...context, sql: 'SELECT 1', query }).maxRows).toBe(maxRows);
  });

  it.each<[QueryOptions, string]>([
    [{ maxRows: -1 }, 'maxRows must be a non-negative integer, got -1'],
    [{ maxRows: 1.5 }, 'maxRows must be a non-negative integer, got 1.5'],
    [{ maxRows: Number.NaN }, 'maxRows must be a non-negative integer, got NaN'],
    [{ timeoutMs: 0 }, 'timeoutMs must be a positive number of milliseconds, got 0'],
    [{ timeoutMs: -5 }, 'timeoutMs must be a positive number of milliseconds, got -5'],
    [
      { timeoutMs: Number.POSITIVE_INFINITY },
      'timeoutMs must be a positive number of milliseconds, got Infinity',
    ],
  ])('refuses %j', (query, message) => {
    const attempt = () => startQuery({ ...context, sql: 'SELECT 1', query });
    expect(attempt).toThrow(WarehouseError);
    expect(attempt).toThrow(message);
  });

  it.each(['', '   ', '\n\t'])('refuses the empty query %j', (sql) => {
    expect(() => startQuery({ ...context, sql, query: undefined })).toThrow('the query is empty');
  });

  it('rejects at once with the reason of an already aborted signal', () => {
    const reason = new Error('gone');
    expect(() =>
      startQuery({ ...context, sql: 'SELECT 1', query: { signal: AbortSignal.abort(reason) } }),
    ).toThrow(reason);
  });
});

describe('watchQuery', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('cancels once when the limit plus the grace passes, and reports a timeout', () => {
    vi.useFakeTimers();
    const cancel = vi.fn();
    const limits = startQuery({ ...context, sql: 'SELECT 1', query: { timeoutMs: 100 } });
    const watch = watchQuery({ limits, cancel, graceMs: 50 });
    vi.advanceTimersByTime(149);
    expect(cancel).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(cancel).toHaveBeenCalledWith('timeout');
    expect(watch.reason).toBe('timeout');
    const error = stoppedError({ ...context, reason: watch.reason, limits });
    expect(error).toBeInstanceOf(WarehouseError);
    expect((error as WarehouseError).code).toBe('QUERY_TIMEOUT');
    expect((error as WarehouseError).message).toContain('100 ms');
    watch.dispose();
  });

  it('cancels on abort and hands back the signal reason, ignoring the timer afterwards', () => {
    vi.useFakeTimers();
    const controller = new AbortController();
    const cancel = vi.fn();
    const limits = startQuery({
      ...context,
      sql: 'SELECT 1',
      query: { timeoutMs: 100, signal: controller.signal },
    });
    const watch = watchQuery({ limits, cancel });
    const reason = new Error('user pressed ctrl-c');
    controller.abort(reason);
    vi.advanceTimersByTime(1000);
    expect(cancel).toHaveBeenCalledTimes(1);
    expect(cancel).toHaveBeenCalledWith('abort');
    expect(stoppedError({ ...context, reason: watch.reason, limits })).toBe(reason);
    watch.dispose();
  });

  it('does nothing once disposed, and nothing is stopped without a reason', () => {
    vi.useFakeTimers();
    const controller = new AbortController();
    const cancel = vi.fn();
    const limits = startQuery({
      ...context,
      sql: 'SELECT 1',
      query: { timeoutMs: 100, signal: controller.signal },
    });
    const watch = watchQuery({ limits, cancel });
    watch.dispose();
    controller.abort();
    vi.advanceTimersByTime(1000);
    expect(cancel).not.toHaveBeenCalled();
    expect(stoppedError({ ...context, reason: watch.reason, limits })).toBeUndefined();
  });
});

describe('stopRace', () => {
  it('ends a race with the first error it is given', async () => {
    const stop = stopRace();
    const work = new Promise<string>(() => {});
    const first = new Error('first');
    stop.reject(first);
    stop.reject(new Error('second'));
    await expect(Promise.race([work, stop.promise])).rejects.toBe(first);
  });
});
