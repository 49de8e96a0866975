/** Builders of results for the report tests: only what a test sets differs from a plain passed run. */
import type { ResultsFile, RunDetails, RunResult, RunStatus } from '../../src/report/results-file.js';
import { summarize, summarizeByModel } from '../../src/report/summarize.js';

export function details(overrides: Partial<RunDetails> = {}): RunDetails {
  return {
    prompt: 'What is the total revenue?',
    response_text: 'The total revenue is 42.',
    actual_data: [{ total: 42 }],
    expected_data: [{ total: 42 }],
    actual_columns: ['total'],
    expected_columns: ['total'],
    actual_row_count: 1,
    expected_row_count: 1,
    reference_sql: 'SELECT SUM(amount) AS total FROM orders',
    tool_calls: [],
    extraction_sql: 'SELECT total FROM q1',
    extraction_error: null,
    extraction_attempts: 1,
    diff: null,
    comparison: null,
    verification_sql: 'SELECT total FROM q1',
    assertions: [],
    error: null,
    finish_reason: 'stop',
    usage: null,
    cost_breakdown: null,
    extraction_usage: null,
    extraction_cost: null,
    snapshot_consistent: true,
    replayed: false,
    ...overrides,
  };
}

const MESSAGES: Record<RunStatus, string> = {
  passed: 'match',
  failed: 'values differ',
  error: 'provider error: 500',
  unverified: 'no verification',
  skipped: 'skipped: budget reached',
};

export function run(
  overrides: Partial<Omit<RunResult, 'details'>> & { details?: Partial<RunDetails> } = {},
): RunResult {
  const status = overrides.status ?? 'passed';
  const skipped = status === 'skipped';
  const { details: detailOverrides, ...rest } = overrides;
  return {
    name: 'total_revenue',
    model: 'openai:gpt-4.1',
    passed: status === 'passed',
    message: MESSAGES[status],
    tokens: skipped ? 0 : 1000,
    cost: skipped ? null : 0.01,
    duration_ms: skipped ? 0 : 1000,
    tool_call_count: skipped ? 0 : 1,
    error: status === 'error' ? MESSAGES.error : null,
    status,
    attempt: 1,
    file: 'total_revenue.yml',
    details: details(detailOverrides),
    ...rest,
  };
}

export function resultsFile(results: RunResult[], extra: Partial<ResultsFile> = {}): ResultsFile {
  return {
    timestamp: '2025-02-09T14:30:22.123000',
    results,
    summary: summarize(results),
    by_model: summarizeByModel(results),
    ...extra,
  };
}
