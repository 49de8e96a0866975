export { type ComparisonResult, decideVerdict, type Verdict, type VerdictStatus } from './decide-verdict.js';
