import { UsageError } from '../errors/index.js';
import { fileStem, isTestFileName, type TestCase, withoutTestExtension } from './test-case.js';

/** `-s` values as given: one string per flag, each possibly comma-separated. */
export type Selection = string | readonly string[] | undefined;

/** The selection items: split on commas, trimmed, empties and repeats dropped, order kept. */
export function parseSelection(select: Selection): string[] {
  const raw = select === undefined ? [] : typeof select === 'string' ? [select] : select;
  const items: string[] = [];
  for (const flag of raw) {
    for (const part of flag.split(',')) {
      const item = part.trim();
      if (item !== '' && !items.includes(item)) items.push(item);
    }
  }
  return items;
}

/** Path-like spelling of an item: forward slashes, no `./` prefix, no trailing slash. */
function normalizePath(item: string): string {
  let normalized = item.replaceAll('\\', '/').replace(/\/+/g, '/');
  while (normalized.startsWith('./')) normalized = normalized.slice(2);
  return normalized.replace(/\/$/, '');
}

/** A test with the spellings an item can match, computed once per selection. */
interface Candidate {
  test: TestCase;
  stem: string;
  pathWithoutExtension: string;
  folderPath: string;
}

/** Tests under a folder: a single component anywhere in the tree, or a path from tests/. */
function folderMatches(candidates: readonly Candidate[], item: string): TestCase[] {
  const folderPath = normalizePath(item);
  if (folderPath === '') return [];
  const inFolder = folderPath.includes('/')
    ? (candidate: Candidate) =>
        candidate.folderPath === folderPath || candidate.folderPath.startsWith(`${folderPath}/`)
    : (candidate: Candidate) => candidate.test.folders.includes(folderPath);
  return candidates.filter(inFolder).map((candidate) => candidate.test);
}

/**
 * Tests the item names by test name, file stem, or file path from tests/ (with or without
 * extension); an item with an extension and no folder also names that file in any folder.
 */
function testMatches(candidates: readonly Candidate[], item: string): TestCase[] {
  const itemPath = normalizePath(item);
  const hasExtension = isTestFileName(itemPath);
  const hasFolder = itemPath.includes('/');
  const isExactPath = (candidate: Candidate): boolean =>
    hasExtension
      ? candidate.test.relativePath === itemPath
      : hasFolder && candidate.pathWithoutExtension === itemPath;
  const matches = candidates.filter(
    (candidate) =>
      candidate.test.name === item ||
      candidate.stem === item ||
      isExactPath(candidate) ||
      (hasExtension && !hasFolder && candidate.test.relativePath.endsWith(`/${itemPath}`)),
  );
  // The full path is the most specific spelling: `orders.yml` is tests/orders.yml even when
  // tests/archive/orders.yml exists too.
  const exact = matches.filter(isExactPath);
  return (exact.length === 1 ? exact : matches).map((candidate) => candidate.test);
}

interface Resolution {
  matches: TestCase[];
  ambiguous: boolean;
}

function resolveItem(candidates: readonly Candidate[], item: string): Resolution {
  // A folder wins over a test of the same name: `-s contracts` means the whole folder.
  const inFolder = folderMatches(candidates, item);
  if (inFolder.length > 0) return { matches: inFolder, ambiguous: false };
  const named = testMatches(candidates, item);
  return { matches: named, ambiguous: named.length > 1 };
}

/**
 * Applies `-s/--select` to the discovered tests. Each item selects a folder (any folder name
 * under tests/, or a path from tests/), a test name, a file stem or a file path; the result
 * follows the order of the items, each item's tests in discovery order, without repeats.
 * No selection selects every test. Unknown or ambiguous items are setup errors, so a typo
 * never runs a smaller suite than intended.
 */
export function selectTests(options: { tests: readonly TestCase[]; select: Selection }): TestCase[] {
  const { tests } = options;
  const items = parseSelection(options.select);
  if (items.length === 0) return [...tests];

  const candidates = tests.map(
    (test): Candidate => ({
      test,
      stem: fileStem(test.relativePath),
      pathWithoutExtension: withoutTestExtension(test.relativePath),
      folderPath: test.folders.join('/'),
    }),
  );
  const missing: string[] = [];
  const ambiguous: Array<{ item: string; matches: TestCase[] }> = [];
  const selected: TestCase[] = [];
  const seen = new Set<TestCase>();
  for (const item of items) {
    let resolution = resolveItem(candidates, item);
    // `tests/contracts/orders.yml`, as a shell completes it from the project folder.
    if (resolution.matches.length === 0 && /^\.?\/?tests[\\/]/.test(item)) {
      resolution = resolveItem(candidates, normalizePath(item).replace(/^tests\//, ''));
    }
    if (resolution.matches.length === 0) missing.push(item);
    else if (resolution.ambiguous) ambiguous.push({ item, matches: resolution.matches });
    else {
      for (const test of resolution.matches) {
        if (seen.has(test)) continue;
        seen.add(test);
        selected.push(test);
      }
    }
  }

  if (missing.length > 0) {
    const available = tests.length === 0 ? '(none)' : tests.map((test) => test.name).join(', ');
    throw new UsageError({
      code: 'TEST_NOT_FOUND',
      message: `Test${missing.length === 1 ? '' : 's'} not found: ${missing.join(', ')}. Available tests: ${available}`,
    });
  }
  if (ambiguous.length > 0) {
    const details = ambiguous.map(
      ({ item, matches }) =>
        `"${item}" matches ${matches.length} tests: ${matches.map((test) => `${test.name} (${test.relativePath})`).join(', ')}`,
    );
    throw new UsageError({
      code: 'AMBIGUOUS_SELECTION',
      message: `Ambiguous selection: ${details.join('; ')}. Select one of them by its path, e.g. ${ambiguous[0]!.matches[0]!.relativePath}`,
    });
  }
  return selected;
}
