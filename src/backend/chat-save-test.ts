import path from 'node:path';
import { stringify } from 'yaml';
import { UsageError } from '../errors/index.js';
import { removeStaleTempFiles, writeFileAtomic } from '../files/index.js';
import { discoverTests, formatProblems, parseTestFile } from '../test-files/index.js';
import { savedTestSql } from './chat-test-sql.js';

export const TEST_NAME_PATTERN = /^[a-z0-9_][a-z0-9_-]*$/;

export type SaveTestResult =
  | { success: true; relativePath: string }
  | { success: false; status: 400 | 409; error: string };

/**
 * Writes `tests/<name>.yml` from a chat answer. Never overwrites: a file of that name is the
 * user's own test, so an existing one is refused (409), and so is a name that any test of the
 * suite already has (a `name:` or a file stem in a subfolder), which would stop the next
 * `nao test` with a duplicate name. The file is parsed with the suite's own parser first and
 * not written when `nao test` would refuse it; it is written whole (a kill leaves no empty test).
 */
export async function saveChatTest(options: {
  projectDir: string;
  name: string;
  prompt: string;
  sql: string;
  /** The database the SQL ran on (`database_id` of the `execute_sql` call); needed when several are configured. */
  database?: string | undefined;
  databaseNames: readonly string[];
}): Promise<SaveTestResult> {
  const name = options.name.trim();
  const prompt = options.prompt.trim();
  const sql = savedTestSql(options.sql);
  if (!TEST_NAME_PATTERN.test(name) || name.length > 100) {
    return refused(
      400,
      `Invalid test name "${name}": use lower-case letters, digits, "_" and "-" (not first), at most 100 characters.`,
    );
  }
  if (prompt === '') return refused(400, 'The question (prompt) is empty.');
  if (sql === '') return refused(400, 'The SQL is empty; pick or write the reference query.');

  const database = options.database?.trim() || undefined;
  if (database === undefined && options.databaseNames.length > 1) {
    return refused(
      400,
      `Several databases are configured (${options.databaseNames.join(', ')}); name the one the SQL runs on.`,
    );
  }

  const testsDir = path.join(options.projectDir, 'tests');
  const existing = await testNamed(testsDir, name);
  if (existing !== undefined) {
    return refused(
      409,
      `A test named "${name}" already exists in tests/${existing}; pick another name (test names are unique in a suite).`,
    );
  }
  const filePath = path.join(testsDir, `${name}.yml`);
  const relativePath = `${name}.yml`;
  // yaml leaves out a key whose value is undefined.
  const text = stringify({ name, prompt, database, sql }, { lineWidth: 0, blockQuote: 'literal' });
  // Checked before it is written: a test `nao test` would refuse never appears in tests/.
  const parsed = parseTestFile({ text, filePath, relativePath, databaseNames: options.databaseNames });
  if (!parsed.success) {
    return refused(
      400,
      `The test would not be valid, so it was not saved: ${formatProblems(parsed.problems)}`,
    );
  }
  // What an earlier save killed while writing left (never a test: hidden, named .tmp).
  await removeStaleTempFiles({ folder: testsDir });
  try {
    await writeFileAtomic({ path: filePath, data: text, ifExists: 'fail' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      return refused(
        409,
        `tests/${relativePath} already exists; pick another name (existing tests are never overwritten).`,
      );
    }
    throw error;
  }
  return { success: true, relativePath: `tests/${relativePath}` };
}

function refused(status: 400 | 409, error: string): SaveTestResult {
  return { success: false, status, error };
}

/** The file (relative to tests/) of the suite's test named `name`, if there is one. */
async function testNamed(testsDir: string, name: string): Promise<string | undefined> {
  let discovered: Awaited<ReturnType<typeof discoverTests>>;
  try {
    discovered = await discoverTests({ testsDir });
  } catch (error) {
    // No tests/ folder yet: no test has the name.
    if (error instanceof UsageError && error.code === 'TESTS_DIR_NOT_FOUND') return undefined;
    throw error;
  }
  return discovered.tests.find((test) => test.name === name)?.relativePath;
}
