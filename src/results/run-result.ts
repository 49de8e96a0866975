/**
 * The results-file row of one run, built from what the pipeline answered and what the judge
 * found: the one place that turns camelCase pipeline data into the snake_case fields of the
 * results file.
 */

import { type Cost, isMockModel, type TokenUsage } from '../llm/index.js';
import type { StopReason } from '../scheduler/index.js';
import type { TestCase } from '../test-files/index.js';
import type { RunSpending, TableData, TestRunResponse } from '../test-run/index.js';
import { formatDiff, type Judgement } from '../verdict/index.js';
import type {
  CostRecord,
  DataRow,
  DiffRecord,
  JudgeRecord,
  RunDetails,
  RunResult,
  UsageRecord,
} from './results-file.js';

/** Rows of each data set saved per run; the comparison always sees every row. */
export const SAVED_ROWS_LIMIT = 1000;

/** Which run a row is about: a test, against a model, for one attempt. */
export interface RunSubject {
  test: TestCase;
  model: string;
  /** 1-based. */
  attempt: number;
}

/** The row of a run that answered and was judged (passed, failed, error or unverified). */
export function judgedResult(options: {
  run: RunSubject;
  response: TestRunResponse;
  judgement: Judgement;
  durationMs: number;
}): RunResult {
  const { run, response, judgement } = options;
  const verification = response.verification;
  return {
    ...baseResult(run),
    passed: judgement.verdict.passed,
    message: judgement.verdict.message,
    tokens: response.usage.totalTokens,
    cost: response.cost?.totalCost ?? null,
    duration_ms: Math.round(options.durationMs),
    tool_call_count: response.toolCalls.length,
    status: judgement.verdict.status,
    error: judgement.error,
    details: {
      ...emptyDetails(run.test),
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
        toolName: call.toolName,
        toolCallId: call.toolCallId,
        args: call.args,
        result: call.result,
      })),
      extraction_sql: verification?.sql ?? null,
      verification_sql: verification?.sql ?? null,
      extraction_error: verification?.error ?? null,
      extraction_attempts: verification?.attempts ?? 0,
      diff: diffRecord(judgement),
      comparison: diffRecord(judgement)?.text ?? null,
      assertions:
        judgement.assertions?.results.map((result) => ({
          type: result.assertion.type,
          passed: result.passed,
          message: result.message,
        })) ?? [],
      error: judgement.error,
      finish_reason: response.finishReason,
      usage: usageRecord(response.usage),
      cost_breakdown: costRecord(response.cost),
      extraction_usage: verification ? usageRecord(verification.usage) : null,
      extraction_cost: verification?.cost?.totalCost ?? null,
      snapshot_consistent: verification?.snapshotConsistent ?? null,
      replayed: response.replayed ?? false,
      ...mockMark(run.model),
      judged: judgement.judged,
      judge: judgeRecord(judgement),
      clarification: response.clarification ?? null,
    },
  };
}

/** `mock: true` on the runs of the built-in mock model, so no reader takes them for a model's. */
function mockMark(model: string): { mock?: true } {
  return isMockModel(model) ? { mock: true } : {};
}

function judgeRecord(judgement: Judgement): JudgeRecord | null {
  const judge = judgement.judge;
  if (judge === null) return null;
  return {
    model: judge.model,
    verdict: judge.verdict,
    reason: judge.reason,
    error: judge.error,
    attempts: judge.attempts,
    usage: usageRecord(judge.usage),
    cost: judge.cost?.totalCost ?? null,
  };
}

/**
 * The row of a run that could not be judged (provider down, timeout, transport, Ctrl-C).
 * `spending`: what its completed model calls used and cost, which were paid for all the same.
 */
export function errorResult(options: {
  run: RunSubject;
  message: string;
  durationMs: number;
  spending?: RunSpending;
}): RunResult {
  const { spending } = options;
  return {
    ...baseResult(options.run),
    status: 'error',
    message: options.message,
    error: options.message,
    duration_ms: Math.round(options.durationMs),
    ...(spending === undefined
      ? {}
      : { tokens: spending.usage.totalTokens, cost: spending.cost?.totalCost ?? null }),
    details: {
      ...emptyDetails(options.run.test),
      ...mockMark(options.run.model),
      error: options.message,
      ...(spending === undefined
        ? {}
        : {
            usage: usageRecord(spending.usage),
            cost_breakdown: costRecord(spending.cost),
            // Left null, as for a run without extraction, when no extraction call completed.
            ...(spending.extractionUsage.totalTokens === 0
              ? {}
              : {
                  extraction_usage: usageRecord(spending.extractionUsage),
                  extraction_cost: spending.extractionCost?.totalCost ?? null,
                }),
          }),
    },
  };
}

const SKIP_MESSAGES: Record<StopReason, string> = {
  budget: 'skipped: --max-cost reached',
  'fail-fast': 'skipped: --fail-fast after a failure',
  interrupted: 'skipped: interrupted',
};

/** The row of a run that never ran (budget, fail-fast) or was cut short by Ctrl-C. */
export function skippedResult(run: RunSubject, reason: StopReason): RunResult {
  return {
    ...baseResult(run),
    status: 'skipped',
    message: SKIP_MESSAGES[reason],
    details: emptyDetails(run.test),
  };
}

/**
 * The skipped row of a run known only by test, file, model and attempt: the runs of a shard
 * that `nao test merge --allow-partial` did not get.
 */
export function notRunResult(options: {
  name: string;
  file: string;
  model: string;
  attempt: number;
  message: string;
}): RunResult {
  return {
    ...emptyRow(options),
    status: 'skipped',
    message: options.message,
    details: emptyDetails({ prompt: '', sql: null, expectedAnswer: null }),
  };
}

/** Every USD a run spent (agent, extraction and judge), for budgets; null when nothing is priced. */
export function spentUsd(result: RunResult): number | null {
  const parts = [result.cost, result.details.extraction_cost, result.details.judge?.cost ?? null].filter(
    (part): part is number => part !== null,
  );
  return parts.length === 0 ? null : parts.reduce((sum, part) => sum + part, 0);
}

function baseResult(run: RunSubject): Omit<RunResult, 'status' | 'message' | 'details'> {
  return emptyRow({
    name: run.test.name,
    file: run.test.relativePath,
    model: run.model,
    attempt: run.attempt,
  });
}

/** The top-level fields of a row with nothing spent, in the order the file writes them. */
function emptyRow(options: {
  name: string;
  file: string;
  model: string;
  attempt: number;
}): Omit<RunResult, 'status' | 'message' | 'details'> {
  return {
    name: options.name,
    model: options.model,
    passed: false,
    tokens: 0,
    cost: null,
    duration_ms: 0,
    tool_call_count: 0,
    error: null,
    attempt: options.attempt,
    file: options.file,
  };
}

function emptyDetails(test: Pick<TestCase, 'prompt' | 'sql' | 'expectedAnswer'>): RunDetails {
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
    comparison: null,
    verification_sql: null,
    assertions: [],
    error: null,
    finish_reason: null,
    usage: null,
    cost_breakdown: null,
    extraction_usage: null,
    extraction_cost: null,
    snapshot_consistent: null,
    replayed: false,
    expected_answer: test.expectedAnswer,
    judged: false,
    judge: null,
    clarification: null,
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

function diffRecord(judgement: Judgement): DiffRecord | null {
  const diff = judgement.comparison?.diff ?? null;
  if (diff === null) return null;
  return { ...diff, text: formatDiff(diff) } as DiffRecord;
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
