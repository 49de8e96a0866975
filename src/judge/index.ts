export { type ComparisonResult, decideVerdict, type Verdict, type VerdictStatus } from './verdict.js';
