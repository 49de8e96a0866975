/** Builders of results for the report tests: only what a test sets differs from a plain passed run. */
import type {
  JudgeRecord,
  ResultsFile,
  RunDetails,
  RunResult,
  RunStatus,
} from '../../src/results/results-file.js';
import { summarize, summarizeByModel } from '../../src/results/summarize.js';

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

/** The details of a run graded by the judge model (a test with `expected_answer`). */
export function judgedDetails(judge: Partial<JudgeRecord> = {}): Partial<RunDetails> {
  return {
    reference_sql: null,
    actual_data: null,
    expected_data: null,
    actual_columns: null,
    expected_columns: null,
    actual_row_count: null,
    expected_row_count: null,
    extraction_sql: null,
    extraction_attempts: 0,
    expected_answer: 'Acme Corp is the biggest customer.',
    judged: true,
    judge: {
      model: 'openai:gpt-4.1',
      verdict: 'pass',
      reason: 'Names Acme Corp, as expected.',
      error: null,
      attempts: 1,
      usage: {
        input_total_tokens: 400,
        input_no_cache_tokens: 400,
        input_cache_read_tokens: 0,
        input_cache_write_tokens: 0,
        output_total_tokens: 30,
        output_text_tokens: 30,
        output_reasoning_tokens: 0,
        total_tokens: 430,
      },
      cost: 0.001,
      ...judge,
    },
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
