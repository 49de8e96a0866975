import type { PlannedRun } from './plan.js';

/** What the scheduler needs to know of a finished run. */
export interface RunOutcome {
  status: 'passed' | 'failed' | 'error' | 'unverified' | 'skipped';
}

export type StopReason = 'budget' | 'fail-fast' | 'interrupted';

export type SuiteEvent<Test, Result> =
  | { type: 'start'; run: PlannedRun<Test> }
  | { type: 'finish'; run: PlannedRun<Test>; result: Result }
  | { type: 'stop'; reason: StopReason };

export interface RunSuiteOptions<Test, Result extends RunOutcome> {
  runs: readonly PlannedRun<Test>[];
  /** Runs one planned run. It must resolve (turn failures into error results) and honour `signal`. */
  execute: (run: PlannedRun<Test>, signal: AbortSignal) => Promise<Result>;
  /** Builds the result of a run that never started (budget, fail-fast, Ctrl-C). */
  skipped: (run: PlannedRun<Test>, reason: StopReason) => Result;
  /** Builds the error result of a run whose executor threw, so one run never takes the suite down. */
  crashed: (run: PlannedRun<Test>, error: unknown) => Result;
  /** Runs at once (≥ 1). */
  concurrency: number;
  /**
   * Delay between the starts of the first `concurrency` runs (default 0). Starting dozens of
   * runs in the same instant makes them all wait on one another (provider, engines, cold
   * code); a few milliseconds apart, the first ones finish sooner and the rest follow.
   */
  startSpacingMs?: number;
  /** Per-run wall-clock limit; a run past it is aborted and must come back as an error. */
  timeoutMs?: number;
  /** Stop scheduling new runs once the spent cost reaches this many USD. */
  maxCostUsd?: number;
  /** Everything a finished run cost (agent + extraction), in USD; null when unknown. */
  spentUsd?: (result: Result) => number | null;
  failFast?: boolean;
  /** Aborting it (Ctrl-C) stops scheduling and cancels the runs in flight. */
  signal?: AbortSignal;
  onEvent?: (event: SuiteEvent<Test, Result>) => void;
}

export interface SuiteOutcome<Result> {
  /** One result per planned run, in plan order, whatever order they finished in. */
  results: Result[];
  stoppedBy: StopReason | null;
  spentUsd: number;
}

/**
 * Runs the plan with bounded concurrency, stopping early for a budget, fail-fast or Ctrl-C.
 * Results keep plan order so reports are stable whatever order runs finish in.
 */
export async function runSuite<Test, Result extends RunOutcome>(
  options: RunSuiteOptions<Test, Result>,
): Promise<SuiteOutcome<Result>> {
  const results: (Result | undefined)[] = new Array(options.runs.length);
  const inFlight = new Set<AbortController>();
  let next = 0;
  let spentUsd = 0;
  let stoppedBy: StopReason | null = null;

  /** Releases the workers still waiting for their first start. */
  const waiting = new Set<() => void>();
  const stop = (reason: StopReason) => {
    if (stoppedBy !== null) return;
    stoppedBy = reason;
    for (const release of waiting) release();
    options.onEvent?.({ type: 'stop', reason });
    if (reason === 'interrupted')
      for (const controller of inFlight) controller.abort(new Error('interrupted'));
  };
  const onAbort = () => stop('interrupted');
  if (options.signal?.aborted) stop('interrupted');
  options.signal?.addEventListener('abort', onAbort, { once: true });

  const worker = async () => {
    while (stoppedBy === null && next < options.runs.length) {
      const run = options.runs[next++]!;
      const controller = new AbortController();
      inFlight.add(controller);
      const timer =
        options.timeoutMs === undefined
          ? undefined
          : setTimeout(() => controller.abort(new RunTimeoutError(options.timeoutMs!)), options.timeoutMs);
      options.onEvent?.({ type: 'start', run });
      let result: Result;
      try {
        result = await options.execute(run, controller.signal);
      } catch (error) {
        result = options.crashed(run, error);
      } finally {
        clearTimeout(timer);
        inFlight.delete(controller);
      }
      // A run cancelled by Ctrl-C comes back as the executor made it (an error row that keeps
      // what its model calls spent); only the runs that never started are skipped.
      results[run.index] = result;
      spentUsd += options.spentUsd?.(result) ?? 0;
      options.onEvent?.({ type: 'finish', run, result });
      if (options.failFast && (result.status === 'failed' || result.status === 'error')) stop('fail-fast');
      if (options.maxCostUsd !== undefined && spentUsd >= options.maxCostUsd) stop('budget');
    }
  };

  try {
    const workers = Math.max(1, Math.min(options.concurrency, options.runs.length));
    const spacing = options.startSpacingMs ?? 0;
    const turn = (k: number) =>
      k === 0 || spacing <= 0
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            const release = () => {
              clearTimeout(timer);
              waiting.delete(release);
              resolve();
            };
            const timer = setTimeout(release, k * spacing);
            waiting.add(release);
          });
    await Promise.all(Array.from({ length: workers }, (_, k) => turn(k).then(worker)));
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
  }

  const reason: StopReason = stoppedBy ?? 'interrupted';
  return {
    results: options.runs.map((run) => results[run.index] ?? options.skipped(run, reason)),
    stoppedBy,
    spentUsd,
  };
}

/** The abort reason of a run that passed its time limit. */
export class RunTimeoutError extends Error {
  readonly timeoutMs: number;

  constructor(timeoutMs: number) {
    super(`timed out after ${formatSeconds(timeoutMs)}`);
    this.name = 'RunTimeoutError';
    this.timeoutMs = timeoutMs;
  }
}

function formatSeconds(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  const seconds = ms / 1000;
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`;
}
