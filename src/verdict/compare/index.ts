export { type ComparisonResult, compareResults } from './compare-results.js';
export { formatDiff } from './format-diff.js';
