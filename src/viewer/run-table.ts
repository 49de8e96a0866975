/**
 * Filtering and sorting of the runs table. Pure, so the web UI can redo it on every
 * keystroke over 20,000 runs and the rules are tested here.
 */
import type { RunStatus } from '../results/index.js';
import type { RunRow } from './api-types.js';

const RUN_COLUMNS = [
  'status',
  'name',
  'model',
  'message',
  'tokens',
  'cost',
  'duration_ms',
  'tool_call_count',
  'attempt',
] as const;

export type RunColumn = (typeof RUN_COLUMNS)[number];

export interface RunSort {
  column: RunColumn;
  direction: 'asc' | 'desc';
}

export interface RunFilter {
  model: string | null;
  status: RunStatus | null;
  /** Case-insensitive part of the test name; blank matches every run. */
  search: string;
}

/** Ascending status order: the worst outcomes first, so a sort by status shows them at the top. */
const STATUS_ORDER: Record<RunStatus, number> = { failed: 0, error: 1, unverified: 2, passed: 3, skipped: 4 };

export function isRunColumn(value: unknown): value is RunColumn {
  return typeof value === 'string' && (RUN_COLUMNS as readonly string[]).includes(value);
}

export function filterRuns(rows: readonly RunRow[], filter: RunFilter): RunRow[] {
  const search = filter.search.trim().toLowerCase();
  return rows.filter(
    (row) =>
      (filter.model === null || row.model === filter.model) &&
      (filter.status === null || row.status === filter.status) &&
      (search === '' || row.name.toLowerCase().includes(search)),
  );
}

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

function compareColumn(a: RunRow, b: RunRow, column: RunColumn): number {
  switch (column) {
    case 'status':
      return STATUS_ORDER[a.status] - STATUS_ORDER[b.status];
    case 'name':
    case 'model':
    case 'message':
      return collator.compare(a[column], b[column]);
    case 'cost':
      // Reached only when both costs are known (see sortRuns).
      return (a.cost ?? 0) - (b.cost ?? 0);
    default:
      return a[column] - b[column];
  }
}

/**
 * Sorted copy of `rows`. Unknown costs go last in both directions (they are not cheap, they
 * are unknown); ties keep the file order, so runs of one test stay in attempt order.
 */
export function sortRuns(rows: readonly RunRow[], sort: RunSort): RunRow[] {
  const sign = sort.direction === 'asc' ? 1 : -1;
  return [...rows].sort((a, b) => {
    if (sort.column === 'cost' && (a.cost === null) !== (b.cost === null)) return a.cost === null ? 1 : -1;
    const order = sort.column === 'cost' && a.cost === null ? 0 : compareColumn(a, b, sort.column);
    return order !== 0 ? sign * order : a.index - b.index;
  });
}
