import { formatCost } from '../../number-format/format-values.js';
import type { RunResult, RunStatus } from '../index.js';
import { STATUS_MARK } from '../run-status.js';
import { failedChecks } from './run-recap.js';

export interface ProgressOptions {
  out: NodeJS.WritableStream;
  /** A terminal gets one progress line rewritten in place; pipes and CI get plain lines. */
  interactive: boolean;
  total: number;
  /** Said when the suite starts: "Running 6 runs: 3 tests × 2 models, 4 at a time." */
  plan?: { tests: number; models: number; repeat: number; threads: number };
  color: boolean;
  /** Print prompt, response, tool calls and extraction SQL of each run. */
  verbose: boolean;
  now?: () => number;
  /** How often a terminal's progress line is redrawn between runs (elapsed time, ETA). */
  redrawMs?: number;
}

const DEFAULT_REDRAW_MS = 1000;

const COLORS: Record<RunStatus, string> = {
  passed: '\x1b[32m',
  failed: '\x1b[31m',
  error: '\x1b[33m',
  unverified: '\x1b[33m',
  skipped: '\x1b[90m',
};

/**
 * Says the suite started, then prints each finished run as it lands, with counts, the cost so
 * far (agent + extraction + judge, as the final line counts it), elapsed time and ETA.
 */
export class LiveProgress {
  private readonly options: ProgressOptions;
  private readonly now: () => number;
  private started: number;
  private ticker: ReturnType<typeof setInterval> | undefined;
  private done = 0;
  private readonly counts: Record<RunStatus, number> = {
    passed: 0,
    failed: 0,
    error: 0,
    unverified: 0,
    skipped: 0,
  };
  private spent = 0;
  private lineShown = false;

  constructor(options: ProgressOptions) {
    this.options = options;
    this.now = options.now ?? Date.now;
    this.started = this.now();
  }

  /**
   * Call as the first runs start, so a suite whose first run takes a minute does not look
   * stuck: a terminal gets its progress line (redrawn every second), a pipe one line.
   */
  start(): void {
    this.started = this.now();
    const { plan, total } = this.options;
    // An empty shard runs nothing: nothing to announce.
    if (total === 0) return;
    if (!this.options.interactive) {
      this.options.out.write(`${startLine(total, plan)}\n`);
      return;
    }
    this.drawLine();
    this.ticker = setInterval(() => {
      this.clearLine();
      this.drawLine();
    }, this.options.redrawMs ?? DEFAULT_REDRAW_MS);
    // The line is cosmetic: it must never keep the process alive.
    this.ticker.unref?.();
  }

  /** Call when a run finishes (any order). */
  finish(result: RunResult, spentUsd: number | null): void {
    this.done++;
    this.counts[result.status]++;
    this.spent += spentUsd ?? 0;
    this.clearLine();
    this.options.out.write(`${this.runLine(result, spentUsd)}\n`);
    if (this.options.verbose) this.options.out.write(verboseBlock(result));
    this.drawLine();
  }

  /** Removes the progress line before the final tables are printed. */
  end(): void {
    if (this.ticker !== undefined) clearInterval(this.ticker);
    this.ticker = undefined;
    this.clearLine();
  }

  private runLine(result: RunResult, spentUsd: number | null): string {
    const width = String(this.options.total).length;
    const symbol = this.paint(result.status, `${STATUS_MARK[result.status]} ${result.status.padEnd(10)}`);
    const cost = spentUsd === null ? '' : `  ${formatCost(spentUsd)}`;
    const why =
      result.status === 'failed' || result.status === 'error'
        ? failedChecks(result).join('; ')
        : (result.message.split('\n')[0] ?? '');
    const attempt = result.attempt > 1 ? ` #${result.attempt}` : '';
    const replayed = result.details.replayed ? '  (replayed)' : result.details.mock ? '  (mock)' : '';
    const judge = result.details.judge;
    const judged = result.details.judged === true && judge ? `  (judged by ${judge.model})` : '';
    return (
      `[${String(this.done).padStart(width)}/${this.options.total}] ${symbol} ${result.name}${attempt}  ` +
      `${result.model}  ${why}  ${(result.duration_ms / 1000).toFixed(1)}s${cost}${judged}${replayed}`
    );
  }

  private drawLine(): void {
    if (!this.options.interactive || this.done >= this.options.total) return;
    const elapsed = (this.now() - this.started) / 1000;
    const eta =
      this.done === 0 ? '…' : `${((elapsed / this.done) * (this.options.total - this.done)).toFixed(0)}s`;
    const { passed, failed, error } = this.counts;
    this.options.out.write(
      `${this.done}/${this.options.total} done · ${passed} passed · ${failed} failed · ${error} errors · ` +
        `${formatCost(this.spent)} · ${elapsed.toFixed(1)}s elapsed · ETA ${eta}`,
    );
    this.lineShown = true;
  }

  private clearLine(): void {
    if (!this.lineShown) return;
    this.options.out.write('\r\x1b[2K');
    this.lineShown = false;
  }

  private paint(status: RunStatus, text: string): string {
    return this.options.color ? `${COLORS[status]}${text}\x1b[0m` : text;
  }
}

function startLine(total: number, plan: ProgressOptions['plan']): string {
  const runs = `${total} ${total === 1 ? 'run' : 'runs'}`;
  if (plan === undefined) return `Running ${runs}…`;
  const shape = [
    `${plan.tests} ${plan.tests === 1 ? 'test' : 'tests'}`,
    `${plan.models} ${plan.models === 1 ? 'model' : 'models'}`,
    ...(plan.repeat > 1 ? [`${plan.repeat} attempts`] : []),
  ].join(' × ');
  return `Running ${runs} (${shape}), ${Math.min(plan.threads, total)} at a time…`;
}

function verboseBlock(result: RunResult): string {
  const details = result.details;
  const lines = [`  prompt: ${details.prompt}`];
  if (details.response_text !== null) lines.push(`  response: ${indentRest(details.response_text)}`);
  for (const call of details.tool_calls) {
    const args = call.args as { sql_query?: unknown } | null;
    const shown =
      typeof args?.sql_query === 'string' ? indentRest(args.sql_query) : JSON.stringify(call.args);
    lines.push(`  tool ${call.tool_name}: ${shown}`);
  }
  if (details.extraction_sql !== null) lines.push(`  extraction SQL: ${indentRest(details.extraction_sql)}`);
  if (details.expected_answer != null)
    lines.push(`  expected answer: ${indentRest(details.expected_answer)}`);
  const judge = details.judge;
  if (judge != null) {
    const said =
      judge.verdict === null
        ? `no verdict (${judge.error ?? 'unreadable'})`
        : `${judge.verdict}: ${judge.reason}`;
    lines.push(`  judge ${judge.model}: ${indentRest(said)}`);
  }
  if (details.clarification != null) lines.push(`  clarification asked: ${details.clarification.question}`);
  if (details.diff !== null) lines.push(`  diff:\n${indentAll(details.diff.text)}`);
  if (details.error !== null) lines.push(`  error: ${details.error}`);
  return `${lines.join('\n')}\n`;
}

function indentRest(text: string): string {
  return text.trim().split('\n').join('\n    ');
}

function indentAll(text: string): string {
  return text
    .trimEnd()
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');
}
