/** Why one test file cannot be used; collected for every file so the user fixes them all at once. */
export interface TestFileProblem {
  /** The file, relative to tests/ with forward slashes. */
  file: string;
  /** Where in the file, as a YAML path (`assertions[1].min_count`); null for the whole file. */
  field: string | null;
  message: string;
}

/** `['assertions', 1, 'min_count']` → `assertions[1].min_count`; odd keys are quoted. */
export function formatFieldPath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const key of path) {
    if (typeof key === 'number') text += `[${key}]`;
    else {
      const name = String(key);
      if (/^[A-Za-z_][A-Za-z0-9_-]*$/.test(name)) text += text === '' ? name : `.${name}`;
      else text += `[${JSON.stringify(name)}]`;
    }
  }
  return text;
}

/** The problem list as the CLI prints it: a count, then one `file: field: message` line each. */
export function formatProblems(problems: readonly TestFileProblem[]): string {
  if (problems.length === 0) return 'No problems in the test files.';
  const files = new Set(problems.map((problem) => problem.file)).size;
  const header = `${plural(problems.length, 'problem')} in ${plural(files, 'test file')}:`;
  const lines = problems.map((problem) => {
    const where = problem.field === null ? problem.file : `${problem.file}: ${problem.field}`;
    // Continuation lines of a long message stay under their file.
    return `  ${where}: ${problem.message.replaceAll('\n', '\n    ')}`;
  });
  return [header, ...lines].join('\n');
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
