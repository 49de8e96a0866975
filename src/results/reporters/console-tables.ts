/**
 * The console report of `nao test`: the reference's "Test Results", "Performance by Model" and
 * "Pass / Fail by Test and Model" tables, and the final line. Plain text unless `color`.
 */

import {
  formatCost,
  formatCostTotal,
  formatInteger,
  formatOneDecimal,
  formatPercentWithInterval,
  formatPointsWithInterval,
  formatSeconds,
  splitModel,
} from '../../number-format/format-values.js';
import { compareModels } from '../model-comparisons.js';
import { repeatStats } from '../pass-at-k.js';
import type {
  ModelComparison,
  ModelSummary,
  Recount,
  RunResult,
  RunStatus,
  Summary,
} from '../results-file.js';
import { groupByPair, hasRepeats } from '../run-pairs.js';
import { spentUsd } from '../run-result.js';
import { STATUS_MARK, statusOf } from '../run-status.js';
import { failedRuns, orderedModels, summarize, summarizeByModel } from '../summarize.js';
import { type BoxTable, type CellColor, paint, renderBoxTable, type TableCell } from './box-table.js';
import { recountFootnote, recountMark } from './recount-note.js';
import { failedChecks, renderRecap } from './run-recap.js';

export interface ConsoleOptions {
  /** Terminal columns; wide content (messages first) is cut to fit. Default 120. */
  width?: number;
  /** ANSI colors: green pass, red fail, yellow error/unverified. Default false. */
  color?: boolean;
  /**
   * From the suite's start to its end: the time of the Total row and the final line (the runs'
   * own times overlap). Unknown (null) for files that do not say when they started.
   */
  wallClockMs?: number | null;
}

export const DEFAULT_WIDTH = 120;

const STATUS_COLOR: Record<RunStatus, CellColor | undefined> = {
  passed: 'green',
  failed: 'red',
  error: 'yellow',
  unverified: 'yellow',
  skipped: undefined,
};

function text(...lines: string[]): TableCell {
  return { lines };
}

/** One line in the status's color (a skipped run has none). */
function statusText(line: string, status: RunStatus): TableCell {
  const color = STATUS_COLOR[status];
  return color ? { lines: [line], color } : text(line);
}

/** Marks a verdict that rests on a judge model's grading, not on data, wherever a status is shown. */
export const JUDGED_MARK = '*';
const JUDGED_NOTE = `${JUDGED_MARK} judged: graded by a judge model against expected_answer, not verified against data`;

function isJudged(result: RunResult): boolean {
  return result.details?.judged === true;
}

function resolve(options: ConsoleOptions): { width: number; color: boolean } {
  const width = options.width !== undefined && Number.isFinite(options.width) ? Math.floor(options.width) : 0;
  return { width: width > 0 ? width : DEFAULT_WIDTH, color: options.color ?? false };
}

/**
 * Everything a run spent (agent + extraction + judge), as the live line, the Total row and
 * the final line count it; "≥" when the agent's model had no price.
 */
function runCost(result: RunResult): string {
  const spent = spentUsd(result);
  return formatCostTotal({ total: spent, unknownRuns: result.cost === null && spent !== null ? 1 : 0 });
}

/** Sums of floats are rounded to 1e-10 USD, as the results file's are. */
function roundUsd(value: number): number {
  return Math.round(value * 1e10) / 1e10;
}

/** The one total cost of runs: the agent's, the extraction's and the judge's; null when none is known. */
function totalSpent(summary: Summary): number | null {
  const parts = [summary.total_cost, summary.total_extraction_cost, summary.total_judge_cost ?? null].filter(
    (part): part is number => part !== null,
  );
  return parts.length === 0 ? null : roundUsd(parts.reduce((sum, part) => sum + part, 0));
}

/**
 * One row per run in the order given, with a totals row (the cost of everything, the wall
 * clock as time); messages are cut first to fit `width`.
 */
export function renderTestResultsTable(results: readonly RunResult[], options: ConsoleOptions = {}): string {
  const { width, color } = resolve(options);
  const wallClockMs = options.wallClockMs ?? null;
  const repeated = hasRepeats(results);
  const rows = results.map((result): TableCell[] => {
    const status = statusOf(result);
    const name = repeated ? `${result.name} #${result.attempt}` : result.name;
    const judged = isJudged(result) ? JUDGED_MARK : '';
    return [
      text(name),
      text(result.model),
      statusText(`${STATUS_MARK[status]} ${status}${judged}`, status),
      // A run that did not pass shows why first: the check that failed, not the first check.
      text(status === 'failed' || status === 'error' ? failedChecks(result).join('; ') : result.message),
      // A run that never ran has no tokens, cost or time: blank, not a misleading 0 or "—".
      ...(status === 'skipped'
        ? [text(), text(), text(), text()]
        : [
            text(formatInteger(result.tokens)),
            text(runCost(result)),
            text(formatSeconds(result.duration_ms)),
            text(formatInteger(result.tool_call_count)),
          ]),
    ];
  });
  const summary = summarize(results);
  const table: BoxTable = {
    title: 'Test Results',
    columns: [
      { header: ['Test'], align: 'left' },
      { header: ['Model'], align: 'left' },
      { header: ['Status'], align: 'left' },
      { header: ['Message'], align: 'left' },
      { header: ['Tokens'], align: 'right' },
      { header: ['Cost'], align: 'right' },
      { header: ['Time (s)'], align: 'right' },
      { header: ['Tools'], align: 'right' },
    ],
    rows,
    footer: [
      text('Total'),
      text(),
      text(),
      text(),
      text(formatInteger(summary.total_tokens)),
      text(formatCostTotal({ total: totalSpent(summary), unknownRuns: summary.runs_without_cost })),
      text(wallClockMs === null ? '' : formatSeconds(wallClockMs)),
      text(formatInteger(summary.total_tool_calls)),
    ],
  };
  const rendered = renderBoxTable(table, {
    width,
    color,
    shrink: [
      { column: 3, kind: 'truncate', minWidth: 12 },
      { column: 1, kind: 'reflow', reflow: splitModel },
      { column: 0, kind: 'truncate', minWidth: 12 },
      // The mark alone still tells the status (and `*` a judged one); the word goes before names are cut further.
      {
        column: 2,
        kind: 'reflow',
        reflow: (line) => [`${[...line][0] ?? ''}${line.endsWith(JUDGED_MARK) ? JUDGED_MARK : ''}`],
      },
      { column: 3, kind: 'truncate', minWidth: 6 },
      { column: 0, kind: 'truncate', minWidth: 8 },
      { column: 1, kind: 'truncate', minWidth: 8 },
      { column: 3, kind: 'truncate', minWidth: 3 },
      { column: 0, kind: 'truncate', minWidth: 4 },
      { column: 1, kind: 'truncate', minWidth: 4 },
    ],
  });
  return results.some(isJudged) ? `${rendered}\n${JUDGED_NOTE}` : rendered;
}

/**
 * One row per model, in the order given (pass `by_model`, which is already ranked). With
 * `recounted` (an original nao file), a model's numbers that its file says otherwise are marked,
 * with the footnote under the table.
 */
export function renderModelPerformanceTable(
  byModel: readonly ModelSummary[],
  options: ConsoleOptions & { recounted?: Recount } = {},
): string {
  const { width, color } = resolve(options);
  const marked = byModel.filter((summary) => recountMark(summary, options.recounted) !== '');
  const table: BoxTable = {
    title: 'Performance by Model',
    columns: [
      { header: ['Model'], align: 'left' },
      { header: ['Pass Rate', '(95% CI)'], align: 'right' },
      { header: ['Passed'], align: 'right' },
      { header: ['Tokens'], align: 'right' },
      { header: ['Cost'], align: 'right' },
      { header: ['Avg', 'Time (s)'], align: 'right' },
      { header: ['Avg', 'Tools'], align: 'right' },
    ],
    rows: byModel.map((summary) => {
      const ran = summary.total > 0;
      const mark = recountMark(summary, options.recounted);
      return [
        text(summary.model),
        text(ran ? formatPercentWithInterval(summary.pass_rate, summary.pass_rate_ci95, { mark }) : '—'),
        text(`${summary.passed}/${summary.total}${mark}`),
        text(formatInteger(summary.total_tokens)),
        text(formatCostTotal({ total: totalSpent(summary), unknownRuns: summary.runs_without_cost })),
        text(ran ? formatSeconds(summary.avg_duration_ms) : '—'),
        text(ran ? formatOneDecimal(summary.avg_tool_calls) : '—'),
      ];
    }),
  };
  // provider:model on one line while it fits; over two lines ("openai" over "gpt-4.1") before it is cut.
  const rendered = renderBoxTable(table, {
    width,
    color,
    shrink: [
      // The interval goes under the rate before a model name is split.
      { column: 1, kind: 'reflow', reflow: (line) => line.split(' ') },
      { column: 0, kind: 'reflow', reflow: splitModel },
      // Only then is the interval left out (the results file keeps it), before names are cut.
      { column: 1, kind: 'reflow', reflow: (line) => (line.startsWith('(') ? [] : [line]) },
      { column: 0, kind: 'truncate', minWidth: 8 },
    ],
  });
  return options.recounted === undefined || marked.length === 0
    ? rendered
    : `${rendered}\n${recountFootnote({ recount: options.recounted, marked })}`;
}

function gridCell(attempts: readonly RunResult[], repeated: boolean): TableCell {
  if (attempts.length === 0) return text();
  const statuses = attempts.map(statusOf);
  const judged = attempts.some(isJudged) ? JUDGED_MARK : '';
  if (!repeated) {
    const status = statuses[0] ?? 'skipped';
    return statusText(`${STATUS_MARK[status]}${judged}`, status);
  }
  const ran = statuses.filter((status) => status !== 'skipped');
  if (ran.length === 0) return text(STATUS_MARK.skipped);
  const passes = ran.filter((status) => status === 'passed').length;
  const color: CellColor = passes === ran.length ? 'green' : passes === 0 ? 'red' : 'yellow';
  return { lines: [`${passes}/${ran.length}${judged}`], color };
}

/**
 * One row per test (in the order tests first appear), one column per model in `modelOrder`
 * (then any other model): ✓ pass, ✗ fail, ! error, ? unverified, – skipped, `*` after the mark
 * when a judge model graded it; with repeats, passes/attempts that ran (skipped not counted).
 */
export function renderPassFailGrid(
  results: readonly RunResult[],
  options: ConsoleOptions & { modelOrder?: readonly string[] } = {},
): string {
  const { width, color } = resolve(options);
  const models = orderedModels(results, options.modelOrder);
  const tests = new Set(results.map((result) => result.name));
  const byKey = groupByPair(results);
  const repeated = hasRepeats(results);
  const table: BoxTable = {
    title: 'Pass / Fail by Test and Model',
    columns: [
      { header: ['Test'], align: 'left' },
      ...models.map((model) => ({ header: splitModel(model), align: 'center' as const })),
    ],
    rows: [...tests].map((test) => [
      text(test),
      ...models.map((model) => gridCell(byKey.get(JSON.stringify([test, model])) ?? [], repeated)),
    ]),
  };
  const rendered = renderBoxTable(table, {
    width,
    color,
    shrink: [
      { column: 0, kind: 'truncate', minWidth: 8 },
      ...models.map((_, index) => ({ column: index + 1, kind: 'truncate' as const, minWidth: 5 })),
    ],
  });
  return results.some(isJudged) ? `${rendered}\n${JUDGED_NOTE}` : rendered;
}

function formatProbability(value: number): string {
  return value.toFixed(2);
}

/** With --repeat: per test and model, passes of the attempts that ran, pass@k, pass^k and flakiness. */
export function renderRepeatTable(results: readonly RunResult[], options: ConsoleOptions = {}): string {
  const { width, color } = resolve(options);
  const table: BoxTable = {
    title: 'Repeated Runs',
    columns: [
      { header: ['Test'], align: 'left' },
      { header: ['Model'], align: 'left' },
      { header: ['Passed'], align: 'right' },
      { header: ['pass@k'], align: 'right' },
      { header: ['pass^k'], align: 'right' },
      { header: ['Flaky'], align: 'left' },
    ],
    rows: repeatStats(results).map((stats) => [
      text(stats.name),
      text(stats.model),
      text(`${stats.passes}/${stats.runs}`),
      text(formatProbability(stats.pass_at_k)),
      text(formatProbability(stats.pass_hat_k)),
      stats.flaky ? { lines: ['flaky'], color: 'yellow' } : text(),
    ]),
  };
  return renderBoxTable(table, {
    width,
    color,
    shrink: [
      { column: 1, kind: 'reflow', reflow: splitModel },
      { column: 0, kind: 'truncate', minWidth: 8 },
    ],
  });
}

export function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

/**
 * "All N test(s) passed" when every run that ran passed, else
 * "P passed, F failed, E errors, U unverified, T total"; ", S skipped" is added when any, and
 * " (J judged)" after the passes that a judge model graded.
 */
export function finalLine(summary: Summary, options: { color?: boolean } = {}): string {
  const color = options.color ?? false;
  const skipped = summary.skipped > 0 ? `, ${summary.skipped} skipped` : '';
  const judged = summary.judged_passed > 0 ? ` (${summary.judged_passed} judged)` : '';
  if (summary.total === 0) return `No test ran${skipped}`;
  if (summary.passed === summary.total) {
    return paint(`All ${summary.total} test(s) passed${judged}`, 'green', color) + skipped;
  }
  return [
    paint(`${summary.passed} passed${judged}`, 'green', color && summary.passed > 0),
    paint(`${failedRuns(summary)} failed`, 'red', color && failedRuns(summary) > 0),
    paint(plural(summary.errors, 'error', 'errors'), 'yellow', color && summary.errors > 0),
    paint(`${summary.unverified} unverified`, 'yellow', color && summary.unverified > 0),
    `${summary.total} total${skipped}`,
  ].join(', ');
}

/**
 * What the suite cost and took, for the end of the final line: the one total cost with its
 * split (agent, extraction, judge) when there is more than the agent's, and the wall clock
 * with the runs' summed time, labelled as such.
 */
function totalsText(summary: Summary, options: { wallClockMs?: number | null } = {}): string {
  const total = totalSpent(summary);
  const parts: string[] = [];
  if (total === null) parts.push('cost unknown (no price for the models)');
  else {
    const cost = `${formatCostTotal({ total, unknownRuns: summary.runs_without_cost })} in all`;
    const split = [
      summary.total_cost === null ? null : `agent ${formatCost(summary.total_cost)}`,
      summary.total_extraction_cost === null
        ? null
        : `extraction ${formatCost(summary.total_extraction_cost)}`,
      summary.total_judge_cost == null ? null : `judge ${formatCost(summary.total_judge_cost)}`,
    ].filter((part): part is string => part !== null);
    parts.push(split.length > 1 ? `${cost} (${split.join(' + ')})` : cost);
  }
  const summed = `${formatSeconds(summary.total_duration_ms)} s summed over runs`;
  const wallClockMs = options.wallClockMs ?? null;
  parts.push(wallClockMs === null ? summed : `${formatSeconds(wallClockMs)} s wall clock (${summed})`);
  return parts.join(' · ');
}

/**
 * Under Performance by Model: is the best model really ahead of each other one, on the same
 * tests? The verdict reads `significant` only when the paired interval excludes 0.
 */
export function comparisonLines(comparisons: readonly ModelComparison[]): string[] {
  return comparisons.map((comparison) => {
    const pair = `${comparison.model_a} vs ${comparison.model_b}`;
    if (comparison.verdict === 'too few tests') {
      return `${pair}: ${comparison.tests} shared ${comparison.tests === 1 ? 'test' : 'tests'}, too few to tell (10 needed)`;
    }
    return `${pair}: ${formatPointsWithInterval(comparison.difference, comparison.difference_ci95)} on ${comparison.tests} tests, ${comparison.verdict}`;
  });
}

/**
 * The whole console report: Test Results; Performance by Model and the Pass / Fail grid when
 * more than one model ran; the repeated-runs table with --repeat; the recap of the runs that
 * did not pass; then the final line with the counts, the total cost and the time. `quiet`:
 * only the recap and the final line.
 */
export function renderReport(
  options: ConsoleOptions & {
    results: readonly RunResult[];
    modelOrder?: readonly string[];
    /** The results file's by_model and comparisons; default: computed from `results`. */
    byModel?: readonly ModelSummary[];
    comparisons?: readonly ModelComparison[];
    /** The file's own counts, when it is an original nao file that nao recounts. */
    recounted?: Recount;
    quiet?: boolean;
  },
): string {
  const { results } = options;
  const modelOrder = options.modelOrder ?? [];
  const sections: string[] = [];
  if (options.quiet !== true) {
    sections.push(renderTestResultsTable(results, options));
    if (orderedModels(results, modelOrder).length > 1) {
      const byModel = options.byModel ?? summarizeByModel(results, { modelOrder });
      const comparisons = options.comparisons ?? compareModels({ results, byModel });
      sections.push(
        [renderModelPerformanceTable(byModel, options), ...comparisonLines(comparisons)].join('\n'),
      );
      sections.push(renderPassFailGrid(results, { ...options, modelOrder }));
    }
    if (hasRepeats(results)) sections.push(renderRepeatTable(results, options));
  }
  const recap = renderRecap(results, resolve(options));
  if (recap !== null) sections.push(recap);
  const summary = summarize(results);
  const final = finalLine(summary, options);
  sections.push(summary.total === 0 ? final : `${final} · ${totalsText(summary, options)}`);
  return sections.join('\n\n');
}
