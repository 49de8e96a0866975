export { formatDiff } from './compare/index.js';
export { type Judgement, judgeRun } from './judge-run.js';
