import type { RunStatus } from '../../../src/report/index.js';
// The console's marks, so the viewer reads like `nao test` output (imported from its own file:
// report/index.ts also carries Node-only writers that must stay out of the bundle).
import { STATUS_MARK } from '../../../src/report/run-status.js';

export { STATUS_MARK };

export function StatusBadge(props: { status: RunStatus; compact?: boolean }) {
  return (
    <span class={`status status-${props.status}`} title={props.status}>
      <span class="status-mark" aria-hidden="true">
        {STATUS_MARK[props.status]}
      </span>
      {props.compact ? null : <span class="status-label">{props.status}</span>}
    </span>
  );
}
