export { discoverTests } from './discover-tests.js';
export { parseTestFile } from './parse-test-file.js';
export { selectTests } from './select-tests.js';
export type { TestCase } from './test-case.js';
export { chooseTestDatabase, testDatabaseProblems } from './test-database.js';
export {
  countProblems,
  formatProblemLines,
  formatProblems,
  type TestFileProblem,
} from './test-file-problem.js';
