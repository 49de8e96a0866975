import { runAgent } from '../agent/index.js';
import { NaoError } from '../errors/index.js';
import { extractAnswer } from '../extract/index.js';
import { type AnswerJudgement, judgeAnswer } from '../grader/index.js';
import {
  addUsage,
  costOf,
  EMPTY_USAGE,
  type ModelPrices,
  meteredModel,
  type ResolvedModel,
  type TokenUsage,
} from '../llm/index.js';
import { captureDataSnapshots, unchangedSince } from './data-snapshot.js';
import type { ProjectRuntime } from './project-runtime.js';
import { runReferenceQuery, unavailableReferenceDatabase } from './reference-rows.js';
import type {
  RunSpending,
  TableData,
  TestRunRequest,
  TestRunResponse,
  Verification,
} from './test-run-types.js';

/** The model with the caller's prices, bucket by bucket, when the request brings some. */
function withCallerPrices(model: ResolvedModel, request: TestRunRequest): ResolvedModel {
  const given = request.costs;
  if (given === undefined) return model;
  const inputNoCache = given.inputNoCache ?? model.prices?.inputNoCache;
  const output = given.output ?? model.prices?.output;
  if (inputNoCache === undefined || output === undefined) return model;
  const prices: ModelPrices = { inputNoCache, output };
  const read = given.inputCacheRead ?? model.prices?.inputCacheRead;
  const write = given.inputCacheWrite ?? model.prices?.inputCacheWrite;
  if (read !== undefined) prices.inputCacheRead = read;
  if (write !== undefined) prices.inputCacheWrite = write;
  return { ...model, prices };
}

/**
 * One test run as the backend performs it: the agent answers in test mode (no clarification
 * unless the test allows it, no sight of the reference), then the reference SQL runs and the
 * answer's data is extracted from the agent's own query results, and a test with an expected
 * answer has it graded by the judge model. The verdict is left to the caller's deterministic
 * code. Model and provider failures reject; reference and extraction problems are data.
 */
export async function runTestRequest(options: {
  runtime: ProjectRuntime;
  request: TestRunRequest;
  signal?: AbortSignal;
  /** Names the agent's query results; record/replay passes a deterministic one. */
  generateQueryId?: () => string;
  /** Told, as each model call completes, what the run's completed calls used and cost so far. */
  onSpending?: (spending: RunSpending) => void;
}): Promise<TestRunResponse> {
  const { runtime, request, signal } = options;
  const named = runtime.model(`${request.model.provider}:${request.model.modelId}`);
  // Only the built-in mock is told the reference SQL (it answers with it); real models never are.
  const resolved = withCallerPrices(
    named.withReference === undefined
      ? named
      : {
          ...named,
          model: named.withReference({ sql: request.sql ?? null, databaseId: request.databaseId ?? null }),
        },
    request,
  );
  const spent = spendingMeter(resolved, options.onSpending);
  const model = spent?.agent ?? resolved;
  const sql = request.sql ?? null;
  const unavailable =
    sql === null
      ? undefined
      : unavailableReferenceDatabase({
          databaseName: request.databaseId ?? null,
          databases: runtime.databases,
          unavailable: runtime.config.unavailableDatabases,
        });
  if (unavailable !== undefined) {
    throw new NaoError({ code: 'DATABASE_UNAVAILABLE', message: unavailable.reason });
  }
  // Taken before the agent's first query, so the reference can tell whether it saw the same data.
  const snapshots =
    sql === null
      ? undefined
      : captureDataSnapshots(runtime.config.databases, { projectDir: runtime.config.projectDir });
  // The reference runs while the agent works (it is inside the same snapshot), so its query
  // does not add to the run's time. If the agent fails, its outcome is simply not used.
  const pendingReference =
    sql === null
      ? null
      : runReferenceQuery({
          sql,
          databaseName: request.databaseId ?? null,
          databases: runtime.databases,
          unavailable: runtime.config.unavailableDatabases,
          maxRows: runtime.config.agent.maxResultRows,
          timeoutMs: runtime.agentContext.limits.queryTimeoutMs,
          snapshots,
          signal,
        });
  pendingReference?.catch(() => undefined);
  const agent = await runAgent({
    prompt: request.prompt,
    model,
    mode: request.allowClarification === true ? 'test-with-clarification' : 'test',
    context: runtime.agentContext,
    maxSteps: runtime.config.agent.maxSteps,
    signal,
    generateQueryId: options.generateQueryId,
  });

  /** Extracts the answer's data, compared with `expected` (the reference's rows) when there is one. */
  const verify = async (
    expected: (TableData & { snapshotConsistent: boolean }) | null,
  ): Promise<Verification> => {
    const expectedColumns = expected?.columns ?? [];
    const extraction = await extractAnswer({
      model: spent?.extraction ?? resolved,
      question: request.prompt,
      responseMessages: agent.responseMessages,
      queryResults: agent.queryResults,
      expectedColumns,
      queryTimeoutMs: runtime.agentContext.limits.queryTimeoutMs,
      signal,
    });
    return {
      data: extraction.data,
      sql: extraction.sql,
      error: extraction.error,
      errorKind: extraction.errorKind,
      expectedData: expected === null ? null : { columns: expectedColumns, rows: expected.rows },
      expectedColumns,
      referenceError: null,
      snapshotConsistent: expected?.snapshotConsistent ?? null,
      attempts: extraction.attempts,
      usage: extraction.usage,
      cost: extraction.cost,
    };
  };

  let verification: Verification | null = null;
  if (pendingReference === null) {
    // No reference: the answer's data is extracted for the assertions that read it, with its own columns.
    if (request.extractAnswer === true) verification = await verify(null);
  } else {
    const reference = await pendingReference;
    if (!reference.success) {
      verification = {
        data: null,
        sql: null,
        error: null,
        errorKind: null,
        expectedData: null,
        expectedColumns: [],
        referenceError: reference.error,
        snapshotConsistent: null,
        attempts: 0,
        usage: { ...EMPTY_USAGE },
        cost: null,
      };
    } else {
      // Checked when the reference finished, which may have been before the agent's last query.
      const snapshot = snapshots?.get(reference.databaseName);
      const snapshotConsistent =
        reference.snapshotConsistent && snapshot !== undefined && unchangedSince(snapshot);
      verification = await verify({ columns: reference.columns, rows: reference.rows, snapshotConsistent });
    }
  }

  // After the extraction, never beside it: recordings number a run's model calls in order.
  let judgement: AnswerJudgement | null = null;
  const expectedAnswer = request.expectedAnswer ?? null;
  if (expectedAnswer !== null) {
    const judge = request.judgeModel ?? request.model;
    judgement = await judgeAnswer({
      model: runtime.model(`${judge.provider}:${judge.modelId}`),
      question: request.prompt,
      expectedAnswer,
      answer: agent.text,
      signal,
    });
  }

  return {
    text: agent.text,
    toolCalls: agent.toolCalls,
    usage: agent.usage,
    cost: agent.cost,
    finishReason: agent.finishReason,
    durationMs: agent.durationMs,
    verification,
    clarification: agent.clarification,
    judgement,
  };
}

/**
 * The run's model metered twice (the agent's calls, the extraction's), each completed call
 * reported to `onSpending` with the totals so far; undefined without a listener.
 */
function spendingMeter(
  model: ResolvedModel,
  onSpending: ((spending: RunSpending) => void) | undefined,
): { agent: ResolvedModel; extraction: ResolvedModel } | undefined {
  if (onSpending === undefined) return undefined;
  const used: Record<'agent' | 'extraction', TokenUsage> = { agent: EMPTY_USAGE, extraction: EMPTY_USAGE };
  const metered = (part: 'agent' | 'extraction'): ResolvedModel => ({
    ...model,
    model: meteredModel(model.model, (usage) => {
      used[part] = addUsage(used[part], usage);
      onSpending({
        usage: used.agent,
        cost: costOf(used.agent, model.prices),
        extractionUsage: used.extraction,
        extractionCost: costOf(used.extraction, model.prices),
      });
    }),
  });
  return { agent: metered('agent'), extraction: metered('extraction') };
}
