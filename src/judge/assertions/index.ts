export { argsMatch } from './args-match.js';
export {
  ASSERTION_TYPES,
  type Assertion,
  type AssertionOutcome,
  type AssertionType,
  assertionSchema,
  assertionsSchema,
  checkAssertion,
  describeAssertion,
  readsAnswerData,
} from './assertion.js';
export { type AssertionReport, type AssertionResult, checkAssertions } from './check-assertions.js';
export type { AnswerFacts, RunFacts } from './run-facts.js';
export {
  checkToolCallAssertion,
  TOOL_CALL_FIELDS,
  type ToolCallAssertion,
  type ToolCallRecord,
  toolCallAssertionSchema,
} from './tool-call-assertion.js';
