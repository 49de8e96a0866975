import { describe, expect, it } from 'vitest';
import type { RunStatus } from './results-file.js';
import { statusOf } from './run-status.js';

describe('statusOf', () => {
  it.each<[string, { passed: boolean; message: string; status?: unknown }, RunStatus]>([
    ['the recorded status wins', { passed: false, message: 'x', status: 'skipped' }, 'skipped'],
    ['old passed run', { passed: true, message: 'match' }, 'passed'],
    ['old failed run', { passed: false, message: 'values differ' }, 'failed'],
    ['old error run', { passed: false, message: 'error' }, 'error'],
    ['old unverified run, even marked passed', { passed: true, message: 'no verification' }, 'unverified'],
    [
      'an unknown status string falls back to the old rules',
      { passed: true, message: 'match', status: 'ok' },
      'passed',
    ],
  ])('%s', (_label, result, expected) => {
    expect(statusOf(result)).toBe(expected);
  });
});
