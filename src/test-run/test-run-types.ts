import type { AgentToolCall, Clarification } from '../agent/index.js';
import type { AnswerJudgement } from '../grader/index.js';
import type { Cost, TokenUsage } from '../llm/usage.js';
import type { CellValue } from '../warehouse/database.js';

/**
 * The body of `POST /api/test/run` and of a local run: one test prompt for one model. The
 * agent never receives `sql`; only the verification step after it does.
 */
export interface TestRunRequest {
  prompt: string;
  model: { provider: string; modelId: string };
  /** The test's reference SQL; without it the run is not verified against data. */
  sql?: string | null;
  /** The configured database the reference runs on (`database:` of the test). */
  databaseId?: string | null;
  /**
   * Extract the answer's data also without `sql` (for `row_count` / `columns` assertions), with
   * the answer's own column names. Absent or false: only a test with `sql` is extracted.
   */
  extractAnswer?: boolean;
  /** The test's `expected_answer`: a judge model grades the final answer against it. */
  expectedAnswer?: string | null;
  /** The judge model; default the model under test. */
  judgeModel?: { provider: string; modelId: string } | null;
  /** `allow_clarification: true`: the agent keeps its `clarification` tool. */
  allowClarification?: boolean;
  /**
   * Prices the caller gives for the model, USD per million tokens (the original nao's CLI
   * sends its config's `costs` as `meta.costs`): each bucket given wins over the backend's.
   */
  costs?: { inputNoCache?: number; inputCacheRead?: number; inputCacheWrite?: number; output?: number };
}

/** Rows with their column names in order (kept as arrays: a million rows as objects is slow). */
export interface TableData {
  columns: string[];
  rows: CellValue[][];
}

export interface Verification {
  /** The extracted answer data; null when extraction failed or the agent ran no SQL. */
  data: TableData | null;
  /** The last extraction SQL the model wrote. */
  sql: string | null;
  /** Why there is no data (extraction error, no SQL run, model could not answer). */
  error: string | null;
  /** What kind of problem `error` is: the agent's (a failed answer) or the harness's (cannot judge). */
  errorKind: 'no-queries' | 'cannot-answer' | 'extraction-failed' | null;
  expectedData: TableData | null;
  expectedColumns: string[];
  /** The reference query failed: the run cannot be judged. */
  referenceError: string | null;
  snapshotConsistent: boolean | null;
  attempts: number;
  usage: TokenUsage;
  cost: Cost | null;
}

/**
 * What the model calls of a run that completed so far used and cost, the agent's and the
 * extraction's apart: a run cut short (timeout, Ctrl-C) keeps them in its row.
 */
export interface RunSpending {
  usage: TokenUsage;
  cost: Cost | null;
  extractionUsage: TokenUsage;
  extractionCost: Cost | null;
}

export interface TestRunResponse {
  text: string;
  toolCalls: AgentToolCall[];
  /** The agent's usage and cost, summed over all its steps (extraction's are in verification). */
  usage: TokenUsage;
  cost: Cost | null;
  finishReason: string;
  durationMs: number;
  verification: Verification | null;
  /** Answered from recordings instead of a live model. */
  replayed?: boolean;
  /** The question the agent asked instead of answering; null when it asked none. Absent from older backends. */
  clarification?: Clarification | null;
  /**
   * The judge model's grading, for requests with `expectedAnswer`; null otherwise. Absent from
   * backends that predate judged answers, so such a run is not judged (an error, never a pass).
   */
  judgement?: AnswerJudgement | null;
}
