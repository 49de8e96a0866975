export { type AnswerJudgement, judgeAnswer } from './judge-answer.js';
export { JUDGE_RUBRIC } from './judge-prompt.js';
