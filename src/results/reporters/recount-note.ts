/**
 * Where nao shows a number that an original nao results file says otherwise (issue #34: it
 * counts unverified runs as passed), the number is marked and one footnote gives the file's own
 * number and why; `nao test diff` and `nao test summary` mark them the same way.
 */
import { formatPercent } from '../../number-format/format-values.js';
import type { ModelSummary, Recount } from '../results-file.js';
import { passRate } from '../summarize.js';

export const RECOUNT_MARK = '*';

/** `*` beside a model's numbers that differ from its file's: it has unverified runs the file counted as passed. */
export function recountMark(summary: ModelSummary | null, recount: Recount | undefined): string {
  return recount !== undefined && summary !== null && summary.unverified > 0 ? RECOUNT_MARK : '';
}

/**
 * The footnote under marked numbers: what the file says (per marked model when the file has
 * several), what nao counts, and the recount's reason. `side` names the file in a diff.
 */
export function recountFootnote(options: {
  recount: Recount;
  /** The marked models' summaries (nao's counts). */
  marked: readonly ModelSummary[];
  side?: string;
}): string {
  const { recount } = options;
  const said = (passed: number, total: number) =>
    `${passed}/${total} passed (${formatPercent(passRate(passed, total))})`;
  const written = new Map((recount.by_model ?? []).map((entry) => [entry.model, entry]));
  // Per model only where nao's row covers the same runs as the file's (a diff with -t covers fewer).
  const perModel = options.marked.map((summary) => {
    const entry = written.get(summary.model);
    return entry !== undefined && entry.written_total === summary.total
      ? `${said(entry.written_passed, entry.written_total)} for ${summary.model}, nao ${summary.passed}/${summary.total}`
      : undefined;
  });
  const says =
    written.size > 1 && perModel.length > 0 && perModel.every((text) => text !== undefined)
      ? perModel.join('; ')
      : `${said(recount.written_passed, recount.written_total)}, nao ${recount.passed}/${recount.written_total}`;
  const prefix = options.side === undefined ? '' : `${options.side}: `;
  return `${RECOUNT_MARK} ${prefix}recounted by nao; the file says ${says}: ${recount.reason}`;
}
