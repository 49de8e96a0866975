export { type DiscoveredTests, discoverTests, SKIPPED_FOLDERS } from './discover-tests.js';
export { type ParsedTestFile, parseTestFile } from './parse-test-file.js';
export { parseSelection, type Selection, selectTests } from './select-tests.js';
export { COMPARISON_KEYS, fileStem, isTestFileName, TEST_FILE_KEYS, type TestCase } from './test-case.js';
export { formatFieldPath, formatProblems, type TestFileProblem } from './test-file-problem.js';
