import type { RunResult, RunStatus } from './results-file.js';

export const RUN_STATUSES: readonly RunStatus[] = ['passed', 'failed', 'error', 'unverified', 'skipped'];

function isRunStatus(value: unknown): value is RunStatus {
  return typeof value === 'string' && (RUN_STATUSES as readonly string[]).includes(value);
}

/**
 * The status of a run, also for files written before `status` existed: those only say
 * `passed`, and marked "error" and "no verification" runs by their message. A run without
 * verification is unverified even where an old file called it passed: it was never judged.
 */
export function statusOf(result: Pick<RunResult, 'passed' | 'message'> & { status?: unknown }): RunStatus {
  if (isRunStatus(result.status)) return result.status;
  if (result.message === 'no verification') return 'unverified';
  if (result.passed === true) return 'passed';
  if (result.message === 'error') return 'error';
  return 'failed';
}

/** The one-character mark of a status, used by the grid and the status column. */
export const STATUS_MARK: Record<RunStatus, string> = {
  passed: '✓',
  failed: '✗',
  error: '!',
  unverified: '?',
  skipped: '–',
};
