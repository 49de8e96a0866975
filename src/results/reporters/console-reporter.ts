import { elapsedMs } from '../../number-format/format-values.js';
import type { StopReason } from '../../scheduler/index.js';
import { spentUsd } from '../index.js';
import { renderReport } from './console-tables.js';
import { LiveProgress } from './live-progress.js';
import type { Reporter } from './reporter.js';

const STOP_MESSAGES: Record<StopReason, string> = {
  budget: 'Budget reached (--max-cost): no new runs are started; the rest are recorded as skipped.',
  'fail-fast': 'A run failed (--fail-fast): no new runs are started.',
  interrupted: 'Interrupted: cancelling runs in flight and saving what finished…',
};

/**
 * The terminal: that the suite started and each run as it lands (unless quiet), why the suite
 * stopped early, then the tables of the reference (results, performance by model, pass/fail
 * grid, repeats), the recap of the runs that did not pass and the final line.
 */
export function consoleReporter(options: {
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stderr: NodeJS.WritableStream;
  total: number;
  /** The configured models, in the order the tables list them. */
  models: readonly string[];
  /** Said as the suite starts; without it, only the number of runs is. */
  plan?: { tests: number; repeat: number; threads: number };
  color: boolean;
  verbose: boolean;
  /** Only the recap of the runs that did not pass and the final line: no progress, no tables. */
  quiet: boolean;
}): Reporter & { close(): void } {
  const { plan } = options;
  const progress = options.quiet
    ? null
    : new LiveProgress({
        out: options.stdout,
        interactive: options.stdout.isTTY === true,
        total: options.total,
        ...(plan === undefined ? {} : { plan: { ...plan, models: options.models.length } }),
        color: options.color,
        verbose: options.verbose,
      });
  return {
    onSuiteStart() {
      progress?.start();
    },
    onRunFinished(result) {
      progress?.finish(result, spentUsd(result));
    },
    onSuiteStopped(reason) {
      if (!options.quiet) options.stderr.write(`${STOP_MESSAGES[reason]}\n`);
    },
    onSuiteEnd(file) {
      progress?.end();
      const tables = renderReport({
        results: file.results,
        modelOrder: options.models,
        // The file's, so the intervals follow `test.stats.cluster`.
        byModel: file.by_model,
        comparisons: file.comparisons ?? [],
        width: options.stdout.columns ?? 120,
        color: options.color,
        wallClockMs: elapsedMs(file.started_at ?? null, file.finished_at ?? null),
        quiet: options.quiet,
      });
      options.stdout.write(options.quiet ? `${tables}\n` : `\n${tables}\n`);
      const replayed = file.results.filter((result) => result.details.replayed).length;
      if (replayed > 0 && !options.quiet) {
        options.stdout.write(
          `${replayed} run(s) replayed from tests/recordings/: no model was called; tokens and cost are the recorded ones.\n`,
        );
      }
      const mock = file.results.filter((result) => result.details.mock).length;
      if (mock > 0) {
        options.stdout.write(
          `${mock} run(s) answered by mock:reference with each test's own reference SQL: no model was called, ` +
            'so these passes say nothing of a model.\n',
        );
      }
      return undefined;
    },
    /** Removes the progress line, also when the suite ends with an error. */
    close() {
      progress?.end();
    },
  };
}
