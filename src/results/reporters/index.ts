export { consoleReporter } from './console-reporter.js';
export { formatRunComparison } from './format-run-comparison.js';
export { formatSummary } from './format-summary.js';
export { jsonReporter } from './json-reporter.js';
export { junitReporter } from './junit-reporter.js';
export { endSuite, type Reporter } from './reporter.js';
