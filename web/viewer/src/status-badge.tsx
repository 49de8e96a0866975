import type { RunStatus } from '../../../src/results/index.js';
// The console's marks, so the viewer reads like `nao test` output (imported from its own file:
// results/index.ts also carries Node-only writers that must stay out of the bundle).
import { STATUS_MARK } from '../../../src/results/run-status.js';

const JUDGED_TITLE =
  'judged: a judge model graded the answer text against expected_answer; no data was compared';

/**
 * A run's status as the console marks it. A judged run (its verdict a judge model's grading,
 * not data) carries a `*` and the word "judged", as in the console tables.
 */
export function StatusBadge(props: { status: RunStatus; compact?: boolean; judged?: boolean }) {
  const judged = props.judged === true;
  return (
    <span
      class={`status status-${props.status}${judged ? ' status-judged' : ''}`}
      title={judged ? `${props.status} — ${JUDGED_TITLE}` : props.status}
      data-judged={judged ? 'true' : undefined}
    >
      <span class="status-mark" aria-hidden="true">
        {STATUS_MARK[props.status]}
        {judged ? '*' : null}
      </span>
      {props.compact ? null : <span class="status-label">{props.status}</span>}
      {judged && !props.compact ? <span class="judged-tag">judged</span> : null}
    </span>
  );
}
