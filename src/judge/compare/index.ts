export { type CompareOptions, type ComparisonResult, compareResults } from './compare-results.js';
export {
  type CellMismatch,
  type DataDiff,
  DEFAULT_DIFF_LIMIT,
  type DiffKind,
  type DiffRow,
  type RowMismatch,
} from './data-diff.js';
export { formatDiff, formatValue } from './format-diff.js';
export {
  type NormalizedValue,
  type NormalizeValueOptions,
  normalizeValue,
  valuesEqual,
} from './normalize-value.js';
export type { ArrayRows, RecordRows, ResultData } from './table-input.js';
