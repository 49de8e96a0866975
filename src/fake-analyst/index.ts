export { type ScriptedAnswer, scriptedAnalyst } from './scripted-analyst.js';
