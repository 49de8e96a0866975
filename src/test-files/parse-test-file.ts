import { z } from 'zod';
import { assertionsSchema } from '../assertions/index.js';
import { comparisonSchema } from '../config/schema.js';
import { parseYamlSource, type YamlIssue } from '../config/yaml-source.js';
import { didYouMean as suggestKey } from '../errors/index.js';
import { isMapping } from '../yaml-fields/mapping.js';
import { COMPARISON_KEYS, fileStem, TEST_FILE_KEYS, type TestCase } from './test-case.js';
import { chooseTestDatabase } from './test-database.js';
import {
  boundedMessage,
  EXCERPT_LENGTH,
  formatFieldPath,
  quoteExcerpt,
  type TestFileProblem,
} from './test-file-problem.js';
import { TEST_KEY_SYNONYMS } from './test-key-synonyms.js';

const didYouMean = (word: string, known: readonly string[]) =>
  suggestKey(word, known, { synonyms: TEST_KEY_SYNONYMS });

/**
 * The key an unknown top-level key misspells (`sqll`, `promt`, `asserts`), or null. Such a key
 * is an error: ignoring it would run the test without its SQL or prompt and pass CI. Only a
 * known synonym or at most 2 edits (1 for keys under 6 characters) counts, so the extension
 * keys of other nao versions (`tests`, `schema_output`, `description`) stay warnings.
 */
function misspeltTestKey(key: string): string | null {
  return suggestKey(key, TEST_FILE_KEYS, { synonyms: TEST_KEY_SYNONYMS, maxEdits: 2 });
}

export type ParsedTestFile =
  | { success: true; test: TestCase; warnings: string[] }
  | { success: false; problems: TestFileProblem[]; warnings: string[] };

function describeValue(value: unknown): string {
  if (value === null) return 'nothing';
  if (value instanceof Uint8Array) return 'binary data';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'string') return `the text ${quoteExcerpt(value)}`;
  return `${typeof value} ${quoteExcerpt(String(value)).slice(1, -1)}`;
}

/** A zod error callback: says what was expected and what the file holds instead. */
function expected(what: string) {
  return (issue: { input?: unknown }): string => {
    const quoteHint =
      what.includes('text') && (typeof issue.input === 'number' || typeof issue.input === 'boolean')
        ? ' (put it in quotes)'
        : '';
    return `must be ${what}, found ${describeValue(issue.input)}${quoteHint}`;
  };
}

function text(what: string, options: { empty: string }) {
  return z
    .string({ error: expected(what) })
    .trim()
    .min(1, options.empty);
}

// The same rules as `test.comparison` in nao_config.yaml, without its defaults: a test
// overrides only the keys it names.
const comparisonOverrideSchema = z
  .looseObject({
    rtol: comparisonSchema.shape.rtol.unwrap().optional(),
    atol: comparisonSchema.shape.atol.unwrap().optional(),
    decimals: comparisonSchema.shape.decimals.unwrap().optional(),
  })
  .transform((value) => {
    const override: Partial<z.output<typeof comparisonSchema>> = {};
    if (value.rtol !== undefined) override.rtol = value.rtol;
    if (value.atol !== undefined) override.atol = value.atol;
    if (value.decimals !== undefined) override.decimals = value.decimals;
    return Object.keys(override).length === 0 ? null : override;
  });

// Optional fields accept null: YAML `sql:` with nothing after it is the same as no `sql`.
const testFileSchema = z.looseObject({
  name: text('text', { empty: 'must not be empty (or leave `name` out to use the file name)' }).nullish(),
  prompt: z
    .string({
      error: (issue) =>
        issue.input === undefined
          ? 'is required: the question the agent must answer'
          : issue.input === null
            ? 'is empty: write the question the agent must answer'
            : expected('text')(issue),
    })
    .trim()
    .min(1, 'is empty: write the question the agent must answer'),
  sql: text('text (the reference SQL)', {
    empty:
      'is empty: write the reference SQL, or leave `sql` out to judge the run by its assertions or an `expected_answer`',
  }).nullish(),
  expected_answer: text('text (what a correct answer says)', {
    empty: 'is empty: write what a correct answer says, or leave `expected_answer` out',
  }).nullish(),
  allow_clarification: z.boolean({ error: expected('true or false') }).nullish(),
  requires_data: z.boolean({ error: expected('true or false') }).nullish(),
  database: text('text (the name of a database in nao_config.yaml)', {
    empty: 'must not be empty',
  }).nullish(),
  assertions: assertionsSchema,
  ordered: z.boolean({ error: expected('true or false') }).nullish(),
  comparison: z
    .custom<Record<string, unknown>>(
      (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
      'must be a mapping such as {rtol: 0.001, atol: 0.0001, decimals: 2}',
    )
    .pipe(comparisonOverrideSchema)
    .nullish(),
});

/** `; did you mean `sql`? (known keys: …)` or just ` (known keys: …)`. */
function unknownKeyHint(key: string, known: readonly string[]): string {
  const suggestion = didYouMean(key, known);
  const list = `(known keys: ${known.join(', ')})`;
  return suggestion === null ? ` ${list}` : `; did you mean \`${suggestion}\`? ${list}`;
}

/**
 * Keys that are valid alone but not together; read from the file as written, so they are
 * reported with the file's other problems.
 */
function combinationProblems(raw: Record<string, unknown>, file: string): TestFileProblem[] {
  const problems: TestFileProblem[] = [];
  if (raw.sql != null && raw.expected_answer != null) {
    problems.push({
      file,
      field: 'expected_answer',
      message:
        'cannot be used with `sql`: a test with `sql` is verified against the reference data, one with ' +
        '`expected_answer` is graded by a judge model; keep one of them',
    });
  }
  const assertions = Array.isArray(raw.assertions) ? raw.assertions : [];
  const asked = assertions.findIndex((entry) => isMapping(entry) && entry.type === 'asked_clarification');
  if (asked >= 0 && raw.allow_clarification !== true) {
    problems.push({
      file,
      field: formatFieldPath(['assertions', asked]),
      message:
        'an asked_clarification assertion needs `allow_clarification: true`: without it the agent has no clarification tool in tests',
    });
  }
  return problems;
}

/** Reads the single YAML document of a file; YAML errors come back as problems with line and column. */
function readDocument(options: { text: string; file: string }): {
  value: unknown;
  problems: TestFileProblem[];
  warnings: string[];
} {
  const { text, file } = options;
  const source = parseYamlSource({ text });
  const at = (issue: YamlIssue) =>
    issue.position === null ? '' : ` at line ${issue.position.line}, column ${issue.position.column}`;
  const warnings = source.warnings.map(
    (warning) => `${file}: YAML warning${at(warning)}: ${warning.message}`,
  );
  const problems: TestFileProblem[] = source.errors.map((error) => ({
    file,
    field: null,
    message:
      error.kind === 'documents'
        ? `${error.message} (a second one starts${at(error)}); put each test in its own file`
        : `invalid YAML${at(error)}: ${error.message}`,
  }));
  if (source.empty) {
    problems.push({
      file,
      field: null,
      message: 'is empty: a test file is a mapping with at least `prompt` (and usually `sql`)',
    });
  }
  return { value: source.value, problems, warnings };
}

interface ParseTestFileOptions {
  text: string;
  /** Absolute path of the file. */
  filePath: string;
  /** Path relative to tests/ with forward slashes. */
  relativePath: string;
  /** Names of the configured databases; when given, `database` must be one of them. */
  databaseNames?: readonly string[];
}

/**
 * Validates the text of one test file into a `TestCase`. Every problem of the file is
 * reported, each with the YAML path it is about; unknown top-level keys are warnings so that
 * files written for other versions keep working, except near-misses of a known key (typos). Problems and warnings quote the file in
 * short excerpts only, whatever it holds.
 */
export function parseTestFile(options: ParseTestFileOptions): ParsedTestFile {
  const parsed = validateTestFile(options);
  const warnings = parsed.warnings.map(boundedMessage);
  if (parsed.success) return { ...parsed, warnings };
  const problems = parsed.problems.map((problem) => ({
    ...problem,
    ...(problem.field === null ? {} : { field: boundedMessage(problem.field) }),
    message: boundedMessage(problem.message),
  }));
  return { success: false, problems, warnings };
}

function validateTestFile(options: ParseTestFileOptions): ParsedTestFile {
  const { text, filePath, relativePath: file, databaseNames } = options;
  const document = readDocument({ text, file });
  const warnings = document.warnings;
  if (document.problems.length > 0) return { success: false, problems: document.problems, warnings };
  const raw = document.value;
  if (!isMapping(raw)) {
    const problem = {
      file,
      field: null,
      message: `must be a mapping of fields (${TEST_FILE_KEYS.join(', ')}), found ${describeValue(raw)}`,
    };
    return { success: false, problems: [problem], warnings };
  }

  const problems: TestFileProblem[] = [];
  const unknownKeys = Object.keys(raw).filter((key) => !(TEST_FILE_KEYS as readonly string[]).includes(key));
  for (const key of unknownKeys) {
    const meant = misspeltTestKey(key);
    if (meant !== null) {
      problems.push({
        file,
        field: formatFieldPath([key]),
        message: `unknown key, did you mean \`${meant}\`? Rename it: nao would ignore it and run the test without its \`${meant}\``,
      });
      continue;
    }
    const shown = key.length <= EXCERPT_LENGTH ? `\`${key}\`` : quoteExcerpt(key);
    warnings.push(`${file}: unknown key ${shown} is ignored${unknownKeyHint(key, TEST_FILE_KEYS)}`);
  }
  if (isMapping(raw.comparison)) {
    for (const key of Object.keys(raw.comparison)) {
      if ((COMPARISON_KEYS as readonly string[]).includes(key)) continue;
      // An error, not a warning: an ignored tolerance would silently change verdicts.
      problems.push({
        file,
        field: formatFieldPath(['comparison', key]),
        message: `unknown key${unknownKeyHint(key, COMPARISON_KEYS)}`,
      });
    }
  }

  problems.push(...combinationProblems(raw, file));

  const parsed = testFileSchema.safeParse(raw);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      let message = issue.message;
      if (issue.path.length === 1 && issue.path[0] === 'prompt' && raw.prompt === undefined) {
        // A misspelt `prompt` is already a problem of its own; the missing prompt is the same fix.
        if (unknownKeys.some((key) => misspeltTestKey(key) === 'prompt')) continue;
        const misspelt = unknownKeys.find((key) => didYouMean(key, TEST_FILE_KEYS) === 'prompt');
        if (misspelt !== undefined) message += ` (the file has \`${misspelt}\`: did you mean \`prompt\`?)`;
      }
      problems.push({ file, field: formatFieldPath(issue.path), message });
    }
  }
  if (!parsed.success || problems.length > 0) return { success: false, problems, warnings };

  const value = parsed.data;
  const stem = fileStem(file);
  const name = value.name ?? stem;
  if (name === '') {
    problems.push({ file, field: 'name', message: 'is needed: the file name has no stem to default to' });
  }
  if (databaseNames !== undefined) {
    // Only a named database here: `nao test list` and `show` load a suite whose databases are
    // not decided yet; validate and the run add the rest (testDatabaseProblems).
    const choice = chooseTestDatabase({
      database: value.database ?? null,
      hasSql: false,
      configured: databaseNames,
    });
    if (!choice.success) problems.push({ file, field: choice.field, message: choice.message });
  }
  if (problems.length > 0) return { success: false, problems, warnings };
  if (name.includes(',')) {
    warnings.push(
      `${file}: the name ${quoteExcerpt(name)} contains a comma, which separates names in --select; select it by file name instead`,
    );
  }

  const folders = file.split('/').slice(0, -1);
  const test: TestCase = {
    name,
    prompt: value.prompt,
    sql: value.sql ?? null,
    expectedAnswer: value.expected_answer ?? null,
    allowClarification: value.allow_clarification ?? false,
    ...(value.requires_data == null ? {} : { requiresData: value.requires_data }),
    database: value.database ?? null,
    assertions: value.assertions,
    ordered: value.ordered ?? false,
    comparison: value.comparison ?? null,
    filePath,
    relativePath: file,
    folders,
  };
  return { success: true, test, warnings };
}
