export { buildResultsFile } from './build-results-file.js';
export {
  type ComparedPair,
  compareRunFiles,
  type PairOutcome,
  type RunComparison,
  significantDrops,
} from './compare-runs.js';
export { compareModels } from './model-comparisons.js';
export { repeatStats } from './pass-at-k.js';
export { readResultsFile } from './read-results.js';
export type {
  DataRow,
  DiffRecord,
  JudgeRecord,
  ModelComparison,
  ModelSummary,
  RepeatStats,
  ResultsFile,
  RunDetails,
  RunResult,
  RunStatus,
  SelectionRecord,
  ShardRecord,
  StatsCluster,
  SuiteFingerprint,
  SuiteTestRecord,
  Summary,
  ToolCallRecord,
  UsageRecord,
} from './results-file.js';
export { groupByPair, pairKey } from './run-pairs.js';
export { errorResult, judgedResult, notRunResult, skippedResult, spentUsd } from './run-result.js';
export { partialReasons, selectionKey, selectionText } from './run-scope.js';
export { statusOf } from './run-status.js';
export { planSuite } from './suite-plan.js';
export { ensureByModel, failedRuns, orderedModels, passRate, summarize } from './summarize.js';
export {
  listResultsFiles,
  resultsFileName,
  resultsFileSortKey,
  writeResultsFile,
  writeResultsFileAt,
} from './write-results.js';
