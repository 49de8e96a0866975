import type { TestCase } from './test-case.js';
import { quoteExcerpt, type TestFileProblem } from './test-file-problem.js';

export type TestDatabaseChoice =
  | {
      success: true;
      /** The configured database the reference SQL runs on; null when the test has no SQL and names none. */
      name: string | null;
    }
  | {
      success: false;
      code: 'UNKNOWN_DATABASE' | 'AMBIGUOUS_DATABASE' | 'NO_DATABASE';
      /** The test-file key to fix. */
      field: 'database' | 'sql';
      message: string;
    };

/**
 * Which configured database a test runs on: the one it names in `database:`, else the only one
 * configured. Several configured and none named, or none configured for a test with `sql`, is
 * a problem of the test. `nao test validate`, the run's loading of the test files and the
 * reference query all decide with this, so they never disagree (one rejecting what the other
 * starts and pays for).
 */
export function chooseTestDatabase(options: {
  /** The test's `database:`, null when it names none. */
  database: string | null;
  /** Whether the test has reference SQL (a test without it needs a database only when it names one). */
  hasSql: boolean;
  /** Every configured database, openable or not. */
  configured: readonly string[];
}): TestDatabaseChoice {
  const { configured } = options;
  const wanted = options.database?.trim() ?? '';
  if (wanted !== '') {
    if (configured.includes(wanted)) return { success: true, name: wanted };
    const list =
      configured.length === 0
        ? 'no databases are configured in nao_config.yaml'
        : `configured: ${configured.join(', ')}`;
    return {
      success: false,
      code: 'UNKNOWN_DATABASE',
      field: 'database',
      message: `unknown database ${quoteExcerpt(wanted)} (${list})`,
    };
  }
  if (!options.hasSql) return { success: true, name: null };
  if (configured.length === 1) return { success: true, name: configured[0]! };
  if (configured.length === 0) {
    return {
      success: false,
      code: 'NO_DATABASE',
      field: 'sql',
      message: 'no database is configured in nao_config.yaml to run the reference SQL on',
    };
  }
  return {
    success: false,
    code: 'AMBIGUOUS_DATABASE',
    field: 'database',
    message: `several databases are configured (${configured.join(', ')}); name the one the reference SQL runs on`,
  };
}

/**
 * The tests whose database cannot be decided, as test-file problems: what `nao test validate`
 * reports and what stops `nao test` before any run.
 */
export function testDatabaseProblems(options: {
  tests: readonly Pick<TestCase, 'relativePath' | 'sql' | 'database'>[];
  configured: readonly string[];
}): TestFileProblem[] {
  const problems: TestFileProblem[] = [];
  for (const test of options.tests) {
    const choice = chooseTestDatabase({
      database: test.database,
      hasSql: test.sql !== null,
      configured: options.configured,
    });
    if (!choice.success)
      problems.push({ file: test.relativePath, field: choice.field, message: choice.message });
  }
  return problems;
}
