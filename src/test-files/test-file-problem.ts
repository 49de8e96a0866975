import { plural } from '../assertions/assertion-fields.js';

/** Why one test file cannot be used; collected for every file so the user fixes them all at once. */
export interface TestFileProblem {
  /** The file, relative to tests/ with forward slashes. */
  file: string;
  /** Where in the file, as a YAML path (`assertions[1].min_count`); null for the whole file. */
  field: string | null;
  message: string;
}

/** Characters of a file's own text that a problem or warning quotes at most. */
export const EXCERPT_LENGTH = 200;
/**
 * Characters of a whole problem or warning at most: what the file holds is quoted in excerpts,
 * and this bounds whatever else could carry it (a YAML error, a library's message).
 */
const MAX_MESSAGE_LENGTH = 500;

/**
 * A value of the file as a JSON string, cut to its first EXCERPT_LENGTH characters: a problem
 * never echoes a whole file (a 60 MB line, or a secret a pull request linked in).
 */
export function quoteExcerpt(value: string): string {
  if (value.length <= EXCERPT_LENGTH) return JSON.stringify(value);
  return `${JSON.stringify(`${value.slice(0, EXCERPT_LENGTH)}…`)} (${value.length.toLocaleString('en-US')} characters)`;
}

/** `text` cut to MAX_MESSAGE_LENGTH characters. */
export function boundedMessage(text: string): string {
  return text.length <= MAX_MESSAGE_LENGTH ? text : `${text.slice(0, MAX_MESSAGE_LENGTH)}… (cut)`;
}

/** `['assertions', 1, 'min_count']` → `assertions[1].min_count`; odd keys are quoted. */
export function formatFieldPath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const key of path) {
    if (typeof key === 'number') text += `[${key}]`;
    else {
      const name = String(key);
      if (/^[A-Za-z_][A-Za-z0-9_-]*$/.test(name) && name.length <= EXCERPT_LENGTH)
        text += text === '' ? name : `.${name}`;
      else text += `[${quoteExcerpt(name)}]`;
    }
  }
  return text;
}

/**
 * How many problems, and where, in one phrase: "3 problems in 2 test files", or with those
 * of nao_config.yaml "4 problems: 1 in nao_config.yaml, 3 in 2 test files".
 */
export function countProblems(options: {
  problems: readonly TestFileProblem[];
  configProblems?: number;
}): string {
  const configProblems = options.configProblems ?? 0;
  const files = new Set(options.problems.map((problem) => problem.file)).size;
  const parts: { count: number; where: string }[] = [];
  if (configProblems > 0) parts.push({ count: configProblems, where: 'nao_config.yaml' });
  if (options.problems.length > 0)
    parts.push({ count: options.problems.length, where: plural(files, 'test file') });
  const total = plural(configProblems + options.problems.length, 'problem');
  if (parts.length === 1) return `${total} in ${parts[0]!.where}`;
  return `${total}: ${parts.map((part) => `${part.count} in ${part.where}`).join(', ')}`;
}

/** One `  file: field: message` line per problem, as the CLI prints them. */
export function formatProblemLines(problems: readonly TestFileProblem[]): string[] {
  return problems.map((problem) => {
    const where = problem.field === null ? problem.file : `${problem.file}: ${problem.field}`;
    // Continuation lines of a long message stay under their file.
    return `  ${where}: ${problem.message.replaceAll('\n', '\n    ')}`;
  });
}

/** The problem list as the CLI prints it: a count, then one `file: field: message` line each. */
export function formatProblems(problems: readonly TestFileProblem[]): string {
  if (problems.length === 0) return 'No problems in the test files.';
  return [`${countProblems({ problems })}:`, ...formatProblemLines(problems)].join('\n');
}
