export { type Assertion, assertionsSchema, describeAssertion, readsAnswerData } from './assertion.js';
export { type AssertionReport, checkAssertions } from './check-assertions.js';
export type { AnswerFacts, RunFacts } from './run-facts.js';
