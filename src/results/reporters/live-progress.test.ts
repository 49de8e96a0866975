import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { judgedDetails, run } from '../../../test-support/results/run-fixture.js';
import { LiveProgress } from './live-progress.js';

function progress(
  options: { verbose?: boolean; interactive?: boolean; redrawMs?: number; total?: number } = {},
) {
  const out = new PassThrough();
  let text = '';
  out.on('data', (chunk) => {
    text += chunk;
  });
  const live = new LiveProgress({
    out,
    interactive: options.interactive ?? false,
    total: options.total ?? 2,
    plan: { tests: 1, models: 2, repeat: 1, threads: 4 },
    color: false,
    verbose: options.verbose ?? false,
    now: () => 0,
    ...(options.redrawMs === undefined ? {} : { redrawMs: options.redrawMs }),
  });
  return { live, output: () => text };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('LiveProgress', () => {
  it('says which runs a judge model graded, and by which model', () => {
    const { live, output } = progress();
    live.finish(
      run({ name: 'biggest_customer', message: 'Names Acme Corp.', details: judgedDetails() }),
      0.011,
    );
    live.finish(run({ name: 'total_revenue', message: 'match' }), 0.01);
    // The cost of a run is everything it spent (here the judge's $0.001 too), as the totals count it.
    expect(output().split('\n')).toEqual([
      '[1/2] ✓ passed     biggest_customer  openai:gpt-4.1  Names Acme Corp.  1.0s  $0.011  (judged by openai:gpt-4.1)',
      '[2/2] ✓ passed     total_revenue  openai:gpt-4.1  match  1.0s  $0.01',
      '',
    ]);
  });

  it('announces nothing for a suite without runs (an empty shard)', () => {
    for (const interactive of [false, true]) {
      const { live, output } = progress({ interactive, total: 0 });
      live.start();
      live.end();
      expect(output()).toBe('');
    }
  });

  it('says the suite started before any run finished, on a pipe', () => {
    const { live, output } = progress();
    live.start();
    expect(output()).toBe('Running 2 runs (1 test × 2 models), 2 at a time…\n');
  });

  it('draws the progress line in a terminal as the suite starts, redraws it while runs are in flight, and removes it', async () => {
    vi.useFakeTimers();
    const { live, output } = progress({ interactive: true, redrawMs: 5 });
    live.start();
    expect(output()).toBe('0/2 done · 0 passed · 0 failed · 0 errors · $0 · 0.0s elapsed · ETA …');
    await vi.advanceTimersByTimeAsync(30);
    expect(output().split('\r\x1b[2K').length).toBeGreaterThan(2);
    live.finish(
      run({
        status: 'failed',
        cost: 0.0056,
        details: {
          diff: null,
          reference_sql: null,
          assertions: [{ type: 'no_error', passed: false, message: 'no_error: 1 tool call failed' }],
        },
        message: 'no_error: 1 tool call failed',
      }),
      0.0056,
    );
    expect(output()).toContain(
      '[1/2] ✗ failed     total_revenue  openai:gpt-4.1  no_error: 1 tool call failed  1.0s  $0.0056\n',
    );
    expect(
      output().endsWith('1/2 done · 0 passed · 1 failed · 0 errors · $0.0056 · 0.0s elapsed · ETA 0s'),
    ).toBe(true);
    live.end();
    const ended = output();
    expect(ended.endsWith('\r\x1b[2K')).toBe(true);
    await vi.advanceTimersByTimeAsync(30);
    expect(output()).toBe(ended);
  });

  it('prints the expected answer and the judge verdict with --verbose', () => {
    const { live, output } = progress({ verbose: true });
    live.finish(run({ name: 'biggest_customer', details: judgedDetails() }), null);
    expect(output()).toContain('  expected answer: Acme Corp is the biggest customer.\n');
    expect(output()).toContain('  judge openai:gpt-4.1: pass: Names Acme Corp, as expected.\n');
  });
});
