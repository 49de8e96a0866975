/**
 * The JSON the viewer's API answers with; the server builds these and the web UI reads them,
 * so both import this one definition. The results file types themselves come from report/.
 */
import type {
  ComparedPair,
  ModelComparison,
  ModelSummary,
  RepeatStats,
  RunComparison,
  RunResult,
  RunStatus,
  Summary,
} from '../results/index.js';

export interface ResultsFileEntry {
  /** The file name inside tests/outputs/, as used in the API paths. */
  name: string;
  size: number;
  /** Last modification, ISO 8601. */
  modified: string;
}

/**
 * What a results file of the original nao says of a pass rate that nao recounts (it counted
 * runs without verification as passed; nao never does): shown beside nao's number.
 */
export interface FileSays {
  passed: number;
  total: number;
  /** Percent, one decimal, like `pass_rate`. */
  pass_rate: number;
}

/** A model whose pass rate nao recounted; `file_says` null when the file's own count cannot be told per model. */
export interface RecountedModel {
  model: string;
  file_says: FileSays | null;
}

/** GET /api/files: newest first. */
export interface FileListResponse {
  outputsDir: string;
  files: ResultsFileEntry[];
}

/** One run as the runs table and the grid need it; `index` is its position in `results`. */
export interface RunRow {
  index: number;
  name: string;
  model: string;
  status: RunStatus;
  message: string;
  tokens: number;
  cost: number | null;
  duration_ms: number;
  tool_call_count: number;
  attempt: number;
  file: string;
  /** The verdict rests on a judge model's grading of the text, not on data (`details.judged`). */
  judged: boolean;
}

/** GET /api/files/:name/overview: everything but the runs' details. */
export interface FileOverview {
  name: string;
  timestamp: string;
  started_at: string | null;
  finished_at: string | null;
  command: string | null;
  nao_version: string | null;
  interrupted: boolean;
  /** The --repeat of the run (1 when absent). */
  repeat: number;
  summary: Summary;
  /** Percent of the runs that ran and passed, 0–100 with one decimal. */
  pass_rate: number;
  /** Why the pass rate differs from the one the file itself holds (see `Recount`), or null. */
  recounted: string | null;
  /** Ranked like the Performance by Model table; computed when the file predates it. */
  by_model: ModelSummary[];
  /** The models of `by_model` whose pass rate differs from what the file says (#34). */
  recounted_models: RecountedModel[];
  /**
   * Each model against the best-ranked one on the tests both ran (#33); the file's own, or
   * computed on read by the code that writes them when a multi-model file lacks them.
   */
  comparisons: ModelComparison[];
  /** Models in configured order, then in order of appearance: the grid's columns. */
  models: string[];
  /** Tests in order of first appearance: the grid's rows. */
  tests: string[];
  repeats: RepeatStats[] | null;
  runs: RunRow[];
}

/** GET /api/files/:name/runs/:index */
export interface RunDetailResponse {
  file: string;
  index: number;
  /** Runs in the file, for previous/next links. */
  total: number;
  run: RunResult;
}

/** A compared pair with the position of a representative run on each side, to link to its detail. */
export interface ViewerComparedPair extends ComparedPair {
  beforeRun: number | null;
  afterRun: number | null;
}

/** The comparison's lists of pairs. */
export type PairCategory = 'regressions' | 'fixes' | 'unchanged' | 'added' | 'removed' | 'notRun';

/** GET /api/compare?before=&after= */
export interface CompareResponse
  extends Omit<RunComparison, PairCategory>,
    Record<PairCategory, ViewerComparedPair[]> {
  beforeFile: string;
  afterFile: string;
  /** Per side, the models whose before/after rate nao recounted from an original file (#34). */
  recounted: { before: RecountedModel[]; after: RecountedModel[] };
}

/** The numbers of one model (or of the whole file) that the history chart plots. */
export interface HistoryNumbers {
  total: number;
  passed: number;
  pass_rate: number;
  total_cost: number | null;
  runs_without_cost: number;
  /** 95% interval of `pass_rate` in percent (#33); null when nothing ran. */
  pass_rate_ci95: [number, number] | null;
  /** nao counts fewer passes than the file says (an original nao file, #34). */
  recounted: boolean;
  /** The file's own numbers when `recounted` and they are known; null otherwise. */
  file_says: FileSays | null;
}

/** A model's numbers in one file, with how its runs were answered. */
export interface HistoryModelNumbers extends HistoryNumbers {
  model: string;
  /** The built-in `mock:reference` answered (its reference SQL): no model's result. */
  mock: boolean;
  /** Some of its runs were replayed from recordings rather than live model calls. */
  replayed: boolean;
}

export interface HistoryPoint extends HistoryNumbers {
  name: string;
  timestamp: string;
  /**
   * Why the file is not a complete run of every test (a `-s` subset, a rerun of failures, a
   * shard, an interrupted or stopped run); empty when it is. The chart never joins it to a line.
   */
  partial: string[];
  by_model: HistoryModelNumbers[];
}

/** GET /api/history: oldest first; files that cannot be read are listed apart. */
export interface HistoryResponse {
  files: HistoryPoint[];
  unreadable: { name: string; error: string }[];
}

/** Every error answer of the API. */
export interface ApiError {
  error: string;
}
