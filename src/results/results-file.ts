/**
 * The shape of `tests/outputs/results_<timestamp>.json` — the one definition that the runner,
 * the reporters and the viewer import. It holds every field the reference documents; anything
 * nao adds is a new field, never a renamed or removed one, so older files stay readable.
 */
import type { CellValue } from '../warehouse/database.js';

/**
 * passed / failed: judged (by data, assertions, or a judge model: see `details.judged`).
 * error: could not be judged (provider, transport, reference SQL, extraction, judge, timeout).
 * unverified: a test with no `sql`, `expected_answer` or assertions (never a pass).
 * skipped: not run (budget reached, fail-fast, interrupted).
 */
export type RunStatus = 'passed' | 'failed' | 'error' | 'unverified' | 'skipped';

export type DataRow = Record<string, CellValue>;

export interface ToolCallRecord {
  tool_name: string;
  tool_call_id: string;
  /** The same two, as the original nao writes and its viewer reads them. */
  toolName: string;
  toolCallId: string;
  args: unknown;
  result: unknown;
}

export interface UsageRecord {
  input_total_tokens: number;
  input_no_cache_tokens: number;
  input_cache_read_tokens: number;
  input_cache_write_tokens: number;
  output_total_tokens: number;
  output_text_tokens: number;
  output_reasoning_tokens: number;
  total_tokens: number;
}

export interface CostRecord {
  input_no_cache: number;
  input_cache_read: number;
  input_cache_write: number;
  output: number;
  total_cost: number;
}

/** The comparison's diff as saved; the viewer highlights cells from it. */
export interface DiffRecord {
  kind: string;
  text: string;
  [key: string]: unknown;
}

export interface AssertionRecord {
  /** The assertion's `type` (files written before it existed lack it). */
  type?: string;
  passed: boolean;
  message: string;
}

/** What the judge model said of a test with `expected_answer`, with what it cost (not in `cost`). */
export interface JudgeRecord {
  /** `provider:model_id` of the judge. */
  model: string;
  /** null when its reply could not be read (the run is then an error). */
  verdict: 'pass' | 'fail' | null;
  reason: string;
  error: string | null;
  attempts: number;
  usage: UsageRecord;
  cost: number | null;
}

export interface RunDetails {
  prompt: string;
  response_text: string | null;
  actual_data: DataRow[] | null;
  expected_data: DataRow[] | null;
  /** The columns in order (object keys of rows do not keep a reliable order for every reader). */
  actual_columns: string[] | null;
  expected_columns: string[] | null;
  /** Rows of each data set; the saved `*_data` keep the first 1,000 (the comparison saw all). */
  actual_row_count: number | null;
  expected_row_count: number | null;
  /** The test's `sql`, also for runs that errored. */
  reference_sql: string | null;
  tool_calls: ToolCallRecord[];
  extraction_sql: string | null;
  extraction_error: string | null;
  extraction_attempts: number;
  diff: DiffRecord | null;
  /** `diff.text`, under the name the original nao writes and its viewer shows. */
  comparison: string | null;
  /** `extraction_sql`, under the original nao's name (its verification query). */
  verification_sql: string | null;
  assertions: AssertionRecord[];
  /** Why the run could not be judged, for `error` runs. */
  error: string | null;
  finish_reason: string | null;
  usage: UsageRecord | null;
  cost_breakdown: CostRecord | null;
  extraction_usage: UsageRecord | null;
  extraction_cost: number | null;
  /** false when the reference query may have seen other data than the agent (see docs/results-file.md). */
  snapshot_consistent: boolean | null;
  /** Answered from recordings (`--replay`) instead of a live model. */
  replayed: boolean;
  /**
   * Answered by nao's built-in `mock:reference`, which runs the test's own reference SQL: no
   * model was called, so its pass says nothing of a model (absent: a real model's run).
   */
  mock?: boolean;
  /** The test's `expected_answer` (absent from files written before it existed). */
  expected_answer?: string | null;
  /**
   * True when the verdict rests on a judge model's grading of the answer text against
   * `expected_answer`, not on data: a judged pass is not a data-verified pass.
   */
  judged?: boolean;
  /** The judge model's grading; null for tests without `expected_answer`. */
  judge?: JudgeRecord | null;
  /** The question the agent asked instead of answering (tests with `allow_clarification: true`). */
  clarification?: { question: string; options: string[] } | null;
}

export interface RunResult {
  name: string;
  model: string;
  passed: boolean;
  message: string;
  /** Agent tokens (the extraction's and the judge's are in details.extraction_usage, details.judge). */
  tokens: number;
  /** Agent cost in USD; null when the model has no price anywhere. */
  cost: number | null;
  duration_ms: number;
  tool_call_count: number;
  /** `details.error` at the top level, where the original nao writes and reads it. */
  error: string | null;
  status: RunStatus;
  /** 1-based attempt number with --repeat. */
  attempt: number;
  /** The test file, relative to tests/. */
  file: string;
  details: RunDetails;
}

/** How related runs are grouped for intervals (`test.stats.cluster` in nao_config.yaml). */
export type StatsCluster = 'test' | 'folder';

/** The 95% interval of a pass rate, in percent like `pass_rate` (see docs/running-tests.md, "How sure is a pass rate?"). */
export interface PassRateInterval {
  /** [low, high] in percent, one decimal. */
  pass_rate_ci95: [number, number];
  /** wilson: each test ran once; clustered: repeats or folders, clustered on the test (or folder). */
  pass_rate_ci_method: 'wilson' | 'clustered';
}

export interface Summary extends PassRateInterval {
  /** Runs that ran (skipped ones are only in `skipped`). */
  total: number;
  passed: number;
  /**
   * `total - passed`, as the original nao counts it: errors and unverified runs are in it;
   * `errors` and `unverified` say how many, and the rest were judged wrong (`failedRuns`).
   */
  failed: number;
  errors: number;
  unverified: number;
  skipped: number;
  total_tokens: number;
  /**
   * Sum of the known costs; null when no run has a known cost. The file holds 0 then (the
   * original nao's viewer prints it as a number); `runs_without_cost` tells the two apart.
   */
  total_cost: number | null;
  /** Runs whose cost is unknown (no price for their model). */
  runs_without_cost: number;
  total_extraction_cost: number | null;
  /** Runs whose verdict rests on a judge model (`details.judged`), passed or failed; counted in `passed`/`failed` too. */
  judged: number;
  /** The judged runs among `passed`: `passed - judged_passed` passed on data or assertions. */
  judged_passed: number;
  /** What the judge model calls cost, apart from `total_cost` like the extraction's. */
  total_judge_cost: number | null;
  total_duration_ms: number;
  total_duration_s: number;
  total_tool_calls: number;
  avg_duration_ms: number;
  avg_tool_calls: number;
}

export interface ModelSummary extends Summary {
  model: string;
  /** Percent of the model's runs that passed, 0–100 with one decimal. */
  pass_rate: number;
}

/** Per (test, model) statistics when each test ran several times (`--repeat K`). */
export interface RepeatStats {
  name: string;
  model: string;
  /** Attempts that ran (skipped attempts are not counted). */
  runs: number;
  passes: number;
  /** The k of pass@k and pass^k: the number of attempts that ran. */
  k: number;
  /** Unbiased estimator of the chance that at least one of k runs passes. */
  pass_at_k: number;
  /** Chance that all k runs pass, estimated from the observed pass rate. */
  pass_hat_k: number;
  flaky: boolean;
}

/**
 * Set by the reader (never written) when a file's own summary counted more runs as passed
 * than nao does: the original nao counts a run without verification as passed.
 */
export interface Recount {
  written_passed: number;
  written_total: number;
  passed: number;
  unverified: number;
  /** One sentence for the viewer and `nao test summary`. */
  reason: string;
  /** Per model, what the file's runs say (`passed` flags), in the order the runs come. */
  by_model?: { model: string; written_passed: number; written_total: number }[];
}

/** A test of a sharded suite: its name, its file under tests/ and the SHA-256 of that file. */
export interface SuiteTestRecord {
  name: string;
  file: string;
  sha256: string;
}

/**
 * What makes two shard files parts of one suite: the same tests (by content), the same
 * nao_config.yaml, models and repeat count. `sha256` digests everything else in it.
 */
export interface SuiteFingerprint {
  sha256: string;
  /** Of nao_config.yaml as written: `{{ env() }}` placeholders, not their values. */
  config_sha256: string;
  models: string[];
  repeat: number;
  /** Every test of the suite (all shards), in run order. */
  tests: SuiteTestRecord[];
}

/** `nao test --shard i/n`: this file holds slice `index` of `count` of the suite. */
export interface ShardRecord {
  /** 1-based. */
  index: number;
  count: number;
  suite: SuiteFingerprint;
}

/** `nao test merge`: the shard files this file was made from. */
export interface MergedRecord {
  shard_count: number;
  suite: SuiteFingerprint;
  shards: { index: number; source: string; command?: string; started_at?: string; finished_at?: string }[];
  /** Shards left out with --allow-partial; their runs are in `results` as skipped. */
  missing: number[];
}

/**
 * Which tests a run covered when it was not the whole suite (`-s`, `--last-failed`); absent
 * for a run of every test. Together with `shard`, `interrupted`, `stopped_by` and
 * `merged.missing` it tells a partial run from a complete one (see `partialReasons`).
 */
export interface SelectionRecord {
  /** The `-s/--select` values, as given. */
  select: string[];
  /** `--last-failed`: the results file whose failed and errored (test, model) pairs were rerun. */
  last_failed?: string;
}

/** Two models of one run compared on the tests both ran (see `pairedDifference`). */
export interface ModelComparison {
  /** The better-ranked model (the Performance by Model order) and the one compared with it. */
  model_a: string;
  model_b: string;
  /** Tests both ran. */
  tests: number;
  /** pass rate of A − B in points, with its 95% interval. */
  difference: number;
  difference_ci95: [number, number];
  /** McNemar's exact p-value when each test ran once, else null. */
  p_value: number | null;
  verdict: 'significant' | 'within noise' | 'too few tests';
}

export interface ResultsFile {
  timestamp: string;
  results: RunResult[];
  summary: Summary;
  recounted?: Recount;
  by_model: ModelSummary[];
  /** Each model against the best-ranked one, when several models ran (computed on read when absent). */
  comparisons?: ModelComparison[];
  /** Present when the run used --repeat > 1. */
  repeats?: RepeatStats[];
  /**
   * `test.stats.cluster: folder` of the run: its intervals and comparisons cluster on the test's
   * folder. Absent: on the test. Read by `nao test merge` and when intervals are computed on read.
   */
  stats_cluster?: 'folder';
  nao_version?: string;
  price_table_version?: string;
  /** The command line, with secrets removed. */
  command?: string;
  models?: string[];
  repeat?: number;
  interrupted?: boolean;
  /** The run stopped starting runs early (`--fail-fast`, `--max-cost`): the rest are skipped. */
  stopped_by?: 'fail-fast' | 'budget';
  /** Present when only some tests were selected (`-s`, `--last-failed`). */
  selection?: SelectionRecord;
  started_at?: string;
  finished_at?: string;
  shard?: ShardRecord;
  merged?: MergedRecord;
  /** Started from an app (the viewer's Run again, the chat's Save as test) rather than the CLI. */
  started_from?: 'viewer' | 'chat';
}
