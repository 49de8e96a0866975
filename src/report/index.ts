export { buildResultsFile } from './build-results-file.js';
export {
  type ComparedPair,
  compareRunFiles,
  type PairOutcome,
  type RunComparison,
} from './compare-runs.js';
export { formatCost, formatSeconds, UNKNOWN } from './format-values.js';
export { passAtK, passHatK, repeatStats } from './pass-at-k.js';
export { parseResultsFile, readResultsFile } from './read-results.js';
export type {
  AssertionRecord,
  CostRecord,
  DataRow,
  DiffRecord,
  JudgeRecord,
  MergedRecord,
  MismatchRecord,
  ModelSummary,
  Recount,
  RepeatStats,
  ResultsFile,
  RunDetails,
  RunResult,
  RunStatus,
  ShardRecord,
  SuiteFingerprint,
  SuiteTestRecord,
  Summary,
  ToolCallRecord,
  UsageRecord,
} from './results-file.js';
export {
  errorResult,
  judgedResult,
  notRunResult,
  type RunSubject,
  SAVED_ROWS_LIMIT,
  skippedResult,
  spentUsd,
} from './run-result.js';
export { RUN_STATUSES, STATUS_MARK, statusOf } from './run-status.js';
export {
  compareModelSummaries,
  ensureByModel,
  failedRuns,
  orderedModels,
  passRate,
  summarize,
  summarizeByModel,
} from './summarize.js';
export {
  listResultsFiles,
  localIsoTimestamp,
  resultsFileName,
  resultsFileSortKey,
  writeResultsFile,
  writeResultsFileAt,
} from './write-results.js';
