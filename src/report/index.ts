export {
  type BoxTable,
  type CellColor,
  renderBoxTable,
  type ShrinkStep,
  type TableCell,
  type TableColumn,
} from '../reporters/box-table.js';
export {
  type ConsoleOptions,
  DEFAULT_WIDTH,
  finalLine,
  renderModelPerformanceTable,
  renderPassFailGrid,
  renderRepeatTable,
  renderReport,
  renderTestResultsTable,
} from '../reporters/console-tables.js';
export { formatSummary } from '../reporters/format-summary.js';
export { escapeXmlAttribute, escapeXmlText, MAX_SYSTEM_OUT_CHARS, toJUnitXml } from '../reporters/junit.js';
export { displayWidth, toCellText, truncateToWidth } from '../reporters/terminal-text.js';
export { buildResultsFile } from './build-results-file.js';
export {
  type ComparedPair,
  compareRunFiles,
  formatRunComparison,
  type ModelPassRates,
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
  MismatchRecord,
  ModelSummary,
  RepeatStats,
  ResultsFile,
  RunDetails,
  RunResult,
  RunStatus,
  Summary,
  ToolCallRecord,
  UsageRecord,
} from './results-file.js';
export { RUN_STATUSES, STATUS_MARK, statusOf } from './run-status.js';
export {
  compareModelSummaries,
  ensureByModel,
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
} from './write-results.js';
