/**
 * How the web UI words a pass rate's interval, a paired comparison's verdict and a number nao
 * recounted. Kept apart from the server-side modules so the browser bundle takes only these
 * words; the numbers themselves come from the shared results/stats code, never recomputed here.
 */
import { formatInterval, formatPercent, formatPointsWithInterval } from '../number-format/format-values.js';
import type { PairedDifference } from '../stats/paired-difference.js';
import type { FileSays } from './api-types.js';

/** `44.6–73.7%`, as the terminal's table prints a 95% interval. */
export function intervalText(ci95: readonly [number, number]): string {
  return `${formatInterval(ci95)}%`;
}

/** A paired difference as the comparisons show it: its interval and verdict, or why there is none. */
export interface VerdictText {
  /** `+35.0 points (95% CI +15.2 to +54.8)` (the CLI's own wording), or null with too few tests. */
  difference: string | null;
  /** `significant`, `within noise` or `fewer than 10 shared tests`. */
  verdict: string;
  tone: 'good' | 'bad' | 'plain';
}

/** The difference, its interval and the verdict of `pairedDifference`, in the words of `nao test diff`. */
export function verdictText(
  change: Pick<PairedDifference, 'difference' | 'ci95' | 'verdict' | 'tests'>,
): VerdictText {
  if (change.verdict === 'too few tests') {
    return { difference: null, verdict: `fewer than 10 shared tests (${change.tests})`, tone: 'plain' };
  }
  const significant = change.verdict === 'significant';
  return {
    difference: formatPointsWithInterval(change.difference, change.ci95),
    verdict: change.verdict,
    tone: significant ? (change.difference < 0 ? 'bad' : 'good') : 'plain',
  };
}

/** "file says 50.0%, nao counts 25.0%": the words beside every recounted number. */
export function recountText(options: { fileSays: FileSays | null; naoRate: number }): string {
  const nao = `nao counts ${formatPercent(options.naoRate)}`;
  return options.fileSays === null
    ? `recounted: the file counts unverified runs as passed; ${nao}`
    : `file says ${formatPercent(options.fileSays.pass_rate)}, ${nao}`;
}
