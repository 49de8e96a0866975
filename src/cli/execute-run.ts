import type { ComparisonOptions } from '../config/index.js';
import { type AssertionReport, checkAssertions } from '../judge/assertions/index.js';
import { type ComparisonResult, compareResults, formatDiff } from '../judge/compare/index.js';
import { decideVerdict } from '../judge/index.js';
import type { Cost, TokenUsage } from '../llm/usage.js';
import type { TableData, TestRunResponse } from '../pipeline/index.js';
import type { CostRecord, DataRow, DiffRecord, RunDetails, RunResult, UsageRecord } from '../report/index.js';
import type { PlannedRun } from '../scheduler/plan.js';
import type { StopReason } from '../scheduler/run-suite.js';
import type { TestRunClient } from '../scheduler/test-run-client.js';
import type { TestCase } from '../test-files/index.js';

/** Rows of each data set saved per run; the comparison always sees every row. */
export const SAVED_ROWS_LIMIT = 1000;

export interface ExecuteRunOptions {
  run: PlannedRun<TestCase>;
  client: TestRunClient;
  /** `test.comparison` of nao_config.yaml; a test's own `comparison` overrides it key by key. */
  comparison: ComparisonOptions;
  signal: AbortSignal;
  now?: () => number;
}

/**
 * Runs one test against one model through the client (local or backend) and judges it:
 * data comparison and tool-call assertions by deterministic code, never by a model.
 * Failures of the run itself come back as `error` results, never as exceptions.
 */
export async function executeRun(options: ExecuteRunOptions): Promise<RunResult> {
  const { run, client, signal } = options;
  const now = options.now ?? Date.now;
  const test = run.test;
  const started = now();
  let response: TestRunResponse;
  try {
    response = await client.runTest({
      request: testRunRequest(test, run.model),
      signal,
      run: { test: test.name, file: test.relativePath, model: run.model, attempt: run.attempt },
    });
  } catch (error) {
    const message = signal.aborted ? abortMessage(signal) : errorMessage(error);
    return errorResult({ run, message, durationMs: now() - started });
  }

  const verification = response.verification;
  let comparison: ComparisonResult | null = null;
  let error: string | null = null;
  if (test.sql !== null) {
    if (verification === null) error = 'the answer was not verified: the backend returned no verification';
    else if (verification.referenceError !== null)
      error = `reference SQL failed: ${verification.referenceError}`;
    else if (verification.data === null && verification.errorKind === 'extraction-failed')
      error = `answer extraction failed: ${verification.error ?? 'no data'}`;
    else {
      comparison = compareResults({
        actual: verification.data,
        actualError: verification.error,
        expected: verification.expectedData ?? { columns: verification.expectedColumns, rows: [] },
        tolerances: { ...options.comparison, ...(test.comparison ?? {}) },
        ordered: test.ordered,
      });
    }
  }
  const assertions: AssertionReport | null =
    test.assertions.length > 0
      ? checkAssertions({ assertions: test.assertions, toolCalls: response.toolCalls })
      : null;
  const verdict = decideVerdict({ test, comparison, assertions, error });

  const extractionCost = verification?.cost?.totalCost ?? null;
  return {
    name: test.name,
    model: run.model,
    passed: verdict.passed,
    message: verdict.message,
    tokens: response.usage.totalTokens,
    cost: response.cost?.totalCost ?? null,
    duration_ms: Math.round(now() - started),
    tool_call_count: response.toolCalls.length,
    status: verdict.status,
    attempt: run.attempt,
    file: test.relativePath,
    details: {
      ...emptyDetails(test),
      response_text: response.text,
      actual_data: savedRows(verification?.data ?? null),
      actual_columns: verification?.data?.columns ?? null,
      actual_row_count: verification?.data?.rows.length ?? null,
      expected_data: savedRows(verification?.expectedData ?? null),
      expected_columns: verification?.expectedData?.columns ?? verification?.expectedColumns ?? null,
      expected_row_count: verification?.expectedData?.rows.length ?? null,
      tool_calls: response.toolCalls.map((call) => ({
        tool_name: call.toolName,
        tool_call_id: call.toolCallId,
        args: call.args,
        result: call.result,
      })),
      extraction_sql: verification?.sql ?? null,
      extraction_error: verification?.error ?? null,
      extraction_attempts: verification?.attempts ?? 0,
      diff: comparison === null ? null : diffRecord(comparison),
      assertions:
        assertions?.results.map((result) => ({ passed: result.passed, message: result.message })) ?? [],
      error,
      finish_reason: response.finishReason,
      usage: usageRecord(response.usage),
      cost_breakdown: costRecord(response.cost),
      extraction_usage: verification ? usageRecord(verification.usage) : null,
      extraction_cost: extractionCost,
      snapshot_consistent: verification?.snapshotConsistent ?? null,
      replayed: response.replayed ?? false,
    },
  };
}

/** Every USD a run spent (agent and extraction), for budgets; null when nothing is priced. */
export function spentUsd(result: RunResult): number | null {
  const parts = [result.cost, result.details.extraction_cost].filter((part): part is number => part !== null);
  return parts.length === 0 ? null : parts.reduce((sum, part) => sum + part, 0);
}

export function testRunRequest(test: TestCase, model: string) {
  const colon = model.indexOf(':');
  return {
    prompt: test.prompt,
    model: { provider: model.slice(0, colon), modelId: model.slice(colon + 1) },
    sql: test.sql,
    databaseId: test.database,
  };
}

/** The result of a run that could not be judged (provider down, timeout, transport). */
export function errorResult(options: {
  run: PlannedRun<TestCase>;
  message: string;
  durationMs: number;
}): RunResult {
  return {
    ...baseResult(options.run),
    status: 'error',
    message: options.message,
    duration_ms: Math.round(options.durationMs),
    details: { ...emptyDetails(options.run.test), error: options.message },
  };
}

/** The result of a run that never ran (budget, fail-fast) or was cut short by Ctrl-C. */
export function skippedResult(run: PlannedRun<TestCase>, reason: StopReason): RunResult {
  const messages: Record<StopReason, string> = {
    budget: 'skipped: --max-cost reached',
    'fail-fast': 'skipped: --fail-fast after a failure',
    interrupted: 'skipped: interrupted',
  };
  return {
    ...baseResult(run),
    status: 'skipped',
    message: messages[reason],
    details: emptyDetails(run.test),
  };
}

function baseResult(run: PlannedRun<TestCase>): Omit<RunResult, 'status' | 'message' | 'details'> {
  return {
    name: run.test.name,
    model: run.model,
    passed: false,
    tokens: 0,
    cost: null,
    duration_ms: 0,
    tool_call_count: 0,
    attempt: run.attempt,
    file: run.test.relativePath,
  };
}

function emptyDetails(test: TestCase): RunDetails {
  return {
    prompt: test.prompt,
    response_text: null,
    actual_data: null,
    expected_data: null,
    actual_columns: null,
    expected_columns: null,
    actual_row_count: null,
    expected_row_count: null,
    reference_sql: test.sql,
    tool_calls: [],
    extraction_sql: null,
    extraction_error: null,
    extraction_attempts: 0,
    diff: null,
    assertions: [],
    error: null,
    finish_reason: null,
    usage: null,
    cost_breakdown: null,
    extraction_usage: null,
    extraction_cost: null,
    snapshot_consistent: null,
    replayed: false,
  };
}

function savedRows(table: TableData | null): DataRow[] | null {
  if (table === null) return null;
  return table.rows.slice(0, SAVED_ROWS_LIMIT).map((row) => {
    const record: DataRow = {};
    table.columns.forEach((column, index) => {
      record[column] = row[index] ?? null;
    });
    return record;
  });
}

function diffRecord(comparison: ComparisonResult): DiffRecord | null {
  if (comparison.diff === null) return null;
  return { ...comparison.diff, text: formatDiff(comparison.diff) } as DiffRecord;
}

function usageRecord(usage: TokenUsage): UsageRecord {
  return {
    input_total_tokens: usage.inputTotalTokens,
    input_no_cache_tokens: usage.inputNoCacheTokens,
    input_cache_read_tokens: usage.inputCacheReadTokens,
    input_cache_write_tokens: usage.inputCacheWriteTokens,
    output_total_tokens: usage.outputTotalTokens,
    output_text_tokens: usage.outputTextTokens,
    output_reasoning_tokens: usage.outputReasoningTokens,
    total_tokens: usage.totalTokens,
  };
}

function costRecord(cost: Cost | null): CostRecord | null {
  if (cost === null) return null;
  return {
    input_no_cache: cost.inputNoCache,
    input_cache_read: cost.inputCacheRead,
    input_cache_write: cost.inputCacheWrite,
    output: cost.output,
    total_cost: cost.totalCost,
  };
}

function abortMessage(signal: AbortSignal): string {
  const reason = signal.reason;
  return reason instanceof Error ? reason.message : 'cancelled';
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
