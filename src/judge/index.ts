export { type Assertion, assertionsSchema } from './assertions/index.js';
export { type ComparisonResult, formatDiff } from './compare/index.js';
export { type Judgement, judgeRun } from './judge-run.js';
export type { Verdict, VerdictStatus } from './verdict.js';
