/**
 * Whether a results file is a complete run of its selection, or a partial one: a shard, a
 * rerun of the failures, an interrupted run, a run stopped by --fail-fast or --max-cost, a
 * merge with missing shards. Files that say none of this (older nao, the original nao) are
 * complete. `nao test diff`, `--last-failed` and the viewer's history rely on it.
 */
import type { ResultsFile } from './results-file.js';

type ScopeFields = Pick<ResultsFile, 'shard' | 'interrupted' | 'stopped_by' | 'selection' | 'merged'>;

/** Why the file is not a complete run of its selection, one short phrase each; empty when it is. */
export function partialReasons(file: ScopeFields): string[] {
  const reasons: string[] = [];
  if (file.shard !== undefined) reasons.push(`shard ${file.shard.index}/${file.shard.count}`);
  if (file.selection?.last_failed !== undefined)
    reasons.push(`rerun of the failures of ${file.selection.last_failed}`);
  if (file.interrupted === true) reasons.push('interrupted');
  if (file.stopped_by === 'fail-fast') reasons.push('stopped by --fail-fast');
  if (file.stopped_by === 'budget') reasons.push('stopped at --max-cost');
  const missing = file.merged?.missing ?? [];
  if (missing.length > 0)
    reasons.push(`merged without shard${missing.length === 1 ? '' : 's'} ${missing.join(', ')}`);
  return reasons;
}

/**
 * The tests the run was asked for, as a comparable key: `-s` values sorted, or `all`. A
 * `--last-failed` run has its own key (its tests depend on an earlier file).
 */
export function selectionKey(file: Pick<ResultsFile, 'selection'>): string {
  const selection = file.selection;
  if (selection === undefined) return 'all';
  if (selection.last_failed !== undefined) return `last-failed:${selection.last_failed}`;
  return selection.select.length === 0 ? 'all' : `select:${[...selection.select].sort().join(',')}`;
}

/** How the selection reads in messages: `every test`, or the `-s` values. */
export function selectionText(file: Pick<ResultsFile, 'selection'>): string {
  const selection = file.selection;
  if (selection === undefined || (selection.select.length === 0 && selection.last_failed === undefined))
    return 'every test';
  if (selection.last_failed !== undefined) return `the failures of ${selection.last_failed}`;
  return `-s ${selection.select.join(',')}`;
}
