/** The text of `nao test diff`: the run-to-run comparison of two results files, for the terminal. */

import { formatPercent, formatPointsWithInterval } from '../../number-format/format-values.js';
import type { PairedDifference } from '../../stats/index.js';
import type { ComparedPair, PairOutcome, RunComparison } from '../compare-runs.js';
import type { ModelSummary, Recount } from '../results-file.js';
import { paint } from './box-table.js';
import { plural } from './console-tables.js';
import { recountFootnote, recountMark } from './recount-note.js';
import { toCellText } from './terminal-text.js';

function describe(outcome: PairOutcome): string {
  if (outcome.attempts > 1) return `${outcome.passes}/${outcome.runs} passed`;
  return outcome.status;
}

function detail(outcome: PairOutcome | null): string {
  return outcome && !outcome.passed && outcome.message !== '' ? ` (${toCellText(outcome.message)})` : '';
}

function rateText(summary: ModelSummary | null): string {
  return summary && summary.total > 0 ? formatPercent(summary.pass_rate) : '—';
}

/** Paired on the tests both sides ran: the change with its interval and whether it is real. */
function changeText(change: PairedDifference, color: boolean): string {
  const tests = `${change.tests} shared ${change.tests === 1 ? 'test' : 'tests'}`;
  if (change.verdict === 'too few tests')
    return `${tests}: too few to tell a real change from noise (10 needed)`;
  const verdict =
    change.verdict === 'significant'
      ? paint('significant', change.difference < 0 ? 'red' : 'green', color)
      : 'within noise';
  return `${formatPointsWithInterval(change.difference, change.ci95)} on ${tests}: ${verdict}`;
}

/**
 * The diff as text for the terminal: each category with its pairs (unchanged passing pairs
 * only counted), the pass rate per model before → after, and a one-line tally at the end.
 */
export function formatRunComparison(
  comparison: RunComparison,
  options: {
    color?: boolean;
    beforeLabel?: string;
    afterLabel?: string;
    /**
     * The side(s) whose file (one of the original nao's) counted unverified runs as passed:
     * their rates are marked and the file's own number is given below, never changed silently.
     */
    recounted?: { before?: Recount | undefined; after?: Recount | undefined };
  } = {},
): string {
  const color = options.color ?? false;
  const lines: string[] = [
    `Comparing ${options.beforeLabel ?? comparison.before.timestamp} → ${options.afterLabel ?? comparison.after.timestamp}`,
  ];
  // One line per pair, whatever a test name or message holds.
  const pairLabel = (pair: ComparedPair) => toCellText(`${pair.name} · ${pair.model}`);
  const change = (pair: ComparedPair) =>
    `${pair.before ? describe(pair.before) : '—'} → ${pair.after ? describe(pair.after) : '—'}`;
  const section = (
    title: string,
    pairs: readonly ComparedPair[],
    line: (pair: ComparedPair) => string,
    style?: 'green' | 'red' | 'yellow',
  ) => {
    if (pairs.length === 0) return;
    lines.push('', paint(`${title} (${pairs.length})`, style ?? 'bold', color));
    for (const pair of pairs) lines.push(`  ${line(pair)}`);
  };

  const stillFailing = comparison.unchanged.filter((pair) => !pair.after?.passed);
  section(
    'Regressions',
    comparison.regressions,
    (p) => `✗ ${pairLabel(p)}: ${change(p)}${detail(p.after)}`,
    'red',
  );
  section('Fixes', comparison.fixes, (p) => `✓ ${pairLabel(p)}: ${change(p)}`, 'green');
  section(
    'Still not passing',
    stillFailing,
    (p) => `• ${pairLabel(p)}: ${change(p)}${detail(p.after)}`,
    'yellow',
  );
  section('Added', comparison.added, (p) => `+ ${pairLabel(p)}: ${p.after ? describe(p.after) : ''}`);
  section(
    'Removed',
    comparison.removed,
    (p) => `- ${pairLabel(p)}: was ${p.before ? describe(p.before) : ''}`,
  );
  section('Not run on one side', comparison.notRun, (p) => `– ${pairLabel(p)}: ${change(p)}`);

  if (comparison.models.length > 0) {
    lines.push('', paint('Pass rate by model', 'bold', color));
    const width = Math.max(...comparison.models.map((entry) => toCellText(entry.model).length));
    for (const entry of comparison.models) {
      let delta = '';
      if (entry.before && entry.after && entry.before.total > 0 && entry.after.total > 0) {
        const points = Math.round((entry.after.pass_rate - entry.before.pass_rate) * 10) / 10;
        delta = points === 0 ? ' (±0.0)' : ` (${points > 0 ? '+' : '−'}${Math.abs(points).toFixed(1)})`;
      }
      const before = `${rateText(entry.before)}${recountMark(entry.before, options.recounted?.before)}`;
      const after = `${rateText(entry.after)}${recountMark(entry.after, options.recounted?.after)}`;
      lines.push(`  ${entry.model.padEnd(width)}  ${before} → ${after}${delta}`);
      if (entry.change !== null) lines.push(`  ${' '.repeat(width)}  ${changeText(entry.change, color)}`);
    }
    for (const [side, recount] of [
      ['before', options.recounted?.before],
      ['after', options.recounted?.after],
    ] as const) {
      if (recount === undefined) continue;
      const marked = comparison.models
        .map((entry) => entry[side])
        .filter((summary): summary is ModelSummary => recountMark(summary, recount) !== '');
      lines.push(`  ${recountFootnote({ recount, marked, side })}`);
    }
  }

  const unchangedPassing = comparison.unchanged.length - stillFailing.length;
  const tally = [
    paint(
      plural(comparison.regressions.length, 'regression', 'regressions'),
      'red',
      color && comparison.regressions.length > 0,
    ),
    paint(plural(comparison.fixes.length, 'fix', 'fixes'), 'green', color && comparison.fixes.length > 0),
    `${comparison.unchanged.length} unchanged (${unchangedPassing} passing, ${stillFailing.length} not passing)`,
    `${comparison.added.length} added`,
    `${comparison.removed.length} removed`,
    `${comparison.notRun.length} not run`,
  ];
  lines.push('', tally.join(', '));
  return lines.join('\n');
}
