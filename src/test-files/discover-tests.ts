import { closeSync, type Dirent, fstatSync, openSync, readFileSync } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { messageOf, UsageError } from '../errors/index.js';
import { parseTestFile } from './parse-test-file.js';
import { isTestFileName, type TestCase } from './test-case.js';
import { quoteExcerpt, type TestFileProblem } from './test-file-problem.js';

/** Folders under tests/ that hold what nao writes, never tests. */
export const SKIPPED_FOLDERS: readonly string[] = ['outputs', 'recordings'];

export interface DiscoveredTests {
  /** Valid tests, sorted by relative path. */
  tests: TestCase[];
  /** Every problem of every file; the CLI runs nothing when there is one. */
  problems: TestFileProblem[];
  /** Non-fatal remarks (unknown keys, YAML warnings) for the CLI to print. */
  warnings: string[];
}

interface Listing {
  /** Paths relative to tests/, forward slashes. */
  files: string[];
  problems: TestFileProblem[];
}

/**
 * A link out of tests/ is refused, not followed: on CI a pull request could otherwise link
 * `tests/x.yml` to any readable file and have its validation error print the file.
 */
const LINK_OUT_MESSAGE =
  'is a symbolic link out of tests/, which nao does not follow; put the test file itself in tests/ (links may point only inside it)';

async function listTestFiles(testsDir: string): Promise<Listing> {
  const files: string[] = [];
  const problems: TestFileProblem[] = [];
  // Real paths of the folders entered, so a symlink loop is walked once.
  const visited = new Set<string>();
  const root = await realpath(testsDir);
  const inside = (target: string) => target === root || target.startsWith(`${root}${path.sep}`);

  async function walk(relativeDir: string): Promise<void> {
    const absoluteDir = path.join(testsDir, ...relativeDir.split('/').filter(Boolean));
    let real: string;
    let entries: Dirent[];
    try {
      real = await realpath(absoluteDir);
      if (visited.has(real)) return;
      visited.add(real);
      entries = await readdir(absoluteDir, { withFileTypes: true });
    } catch (error) {
      problems.push({
        file: relativeDir || '.',
        field: null,
        message: `cannot read folder: ${errorText(error)}`,
      });
      return;
    }
    for (const entry of entries) {
      const relative = relativeDir === '' ? entry.name : `${relativeDir}/${entry.name}`;
      let isDirectory = entry.isDirectory();
      let isFile = entry.isFile();
      let leavesTests = false;
      if (entry.isSymbolicLink()) {
        try {
          const link = path.join(absoluteDir, entry.name);
          const target = await stat(link);
          isDirectory = target.isDirectory();
          isFile = target.isFile();
          leavesTests = !inside(await realpath(link));
        } catch {
          // A dangling link is not a test; a link named like one is reported when read.
          isFile = isTestFileName(entry.name);
        }
      }
      if (leavesTests) {
        const couldHoldTests = isDirectory
          ? !SKIPPED_FOLDERS.includes(entry.name)
          : isTestFileName(entry.name);
        if (couldHoldTests) problems.push({ file: relative, field: null, message: LINK_OUT_MESSAGE });
      } else if (isDirectory) {
        if (!SKIPPED_FOLDERS.includes(entry.name)) await walk(relative);
      } else if (isFile && isTestFileName(entry.name)) {
        files.push(relative);
      }
    }
  }

  await walk('');
  // Code-unit order (sort's default for strings): the same on every machine, whatever the locale.
  files.sort();
  return { files, problems };
}

/**
 * A test file is a prompt, a query and a few settings: kilobytes. One over this is refused
 * unread, since the YAML parser takes seconds and gigabytes on tens of megabytes.
 */
export const MAX_TEST_FILE_BYTES = 1_000_000;

/**
 * The file's text, or why it is refused: its size is checked on the open file (not the name,
 * which could be swapped in between) before any of it is read.
 */
function readTestFile(
  filePath: string,
): { success: true; text: string } | { success: false; message: string } {
  // Synchronously: test files are small, and an asynchronous read costs four thread-pool round trips.
  const fd = openSync(filePath, 'r');
  try {
    const { size } = fstatSync(fd);
    if (size > MAX_TEST_FILE_BYTES) {
      return {
        success: false,
        message: `is ${(size / 1_000_000).toFixed(1)} MB (${size.toLocaleString('en-US')} bytes), over the ${MAX_TEST_FILE_BYTES / 1_000_000} MB a test file may have; a test holds a prompt and a query, not data`,
      };
    }
    return { success: true, text: readFileSync(fd, 'utf8') };
  } finally {
    closeSync(fd);
  }
}

function errorText(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  const message = messageOf(error);
  return code === undefined ? message : `${code} (${message})`;
}

/**
 * Finds every `*.yml` / `*.yaml` under `testsDir` at any depth (skipping `outputs/` and
 * `recordings/` folders), validates each, and returns the valid tests sorted by relative path
 * together with every problem found. A missing tests folder is a setup error.
 */
export async function discoverTests(options: {
  testsDir: string;
  /** Names of the configured databases; when given, a test's `database` must be one of them. */
  databaseNames?: readonly string[];
}): Promise<DiscoveredTests> {
  const testsDir = path.resolve(options.testsDir);
  let folder: Awaited<ReturnType<typeof stat>>;
  try {
    folder = await stat(testsDir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new UsageError({
        code: 'TESTS_DIR_NOT_FOUND',
        message: `Tests folder not found: ${testsDir}. Create it and add one YAML file per test (prompt and sql), or run nao from the project folder.`,
      });
    }
    throw new UsageError({
      code: 'TESTS_DIR_UNREADABLE',
      message: `Cannot read the tests folder ${testsDir}: ${errorText(error)}`,
      cause: error,
    });
  }
  if (!folder.isDirectory()) {
    throw new UsageError({
      code: 'TESTS_DIR_NOT_A_DIRECTORY',
      message: `${testsDir} is not a folder; tests must live in a tests/ folder, one YAML file per test.`,
    });
  }

  const listing = await listTestFiles(testsDir);
  const tests: TestCase[] = [];
  const problems: TestFileProblem[] = [...listing.problems];
  const warnings: string[] = [];
  for (const relativePath of listing.files) {
    const filePath = path.join(testsDir, ...relativePath.split('/'));
    let text: string;
    try {
      const read = readTestFile(filePath);
      if (!read.success) {
        problems.push({ file: relativePath, field: null, message: read.message });
        continue;
      }
      text = read.text;
    } catch (error) {
      problems.push({ file: relativePath, field: null, message: `cannot read file: ${errorText(error)}` });
      continue;
    }
    const parsed = parseTestFile({ text, filePath, relativePath, databaseNames: options.databaseNames });
    warnings.push(...parsed.warnings);
    if (parsed.success) tests.push(parsed.test);
    else problems.push(...parsed.problems);
  }
  problems.push(...duplicateNameProblems(tests));
  return { tests, problems, warnings };
}

/** One problem per name used by more than one file, listing all of them. */
function duplicateNameProblems(tests: readonly TestCase[]): TestFileProblem[] {
  const filesByName = new Map<string, string[]>();
  for (const test of tests) {
    const files = filesByName.get(test.name);
    if (files === undefined) filesByName.set(test.name, [test.relativePath]);
    else files.push(test.relativePath);
  }
  return [...filesByName]
    .filter(([, files]) => files.length > 1)
    .map(([name, files]) => ({
      file: files[0]!,
      field: 'name',
      message: `duplicate test name ${quoteExcerpt(name)}, used by ${files.join(', ')}; give each test a unique \`name\``,
    }));
}
