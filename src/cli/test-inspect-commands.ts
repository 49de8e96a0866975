import path from 'node:path';
import { describeAssertion } from '../assertions/index.js';
import {
  ConfigInvalidError,
  ConfigNotFoundError,
  configuredDatabaseNames,
  type NaoConfig,
} from '../config/index.js';
import { NaoError } from '../errors/index.js';
import {
  countProblems,
  discoverTests,
  formatProblemLines,
  selectTests,
  type TestFileProblem,
  testDatabaseProblems,
} from '../test-files/index.js';
import type { CommandAction } from './command-spec.js';
import type { CliDependencies } from './dependencies.js';
import { EXIT } from './exit-codes.js';
import { loadProject, loadProjectConfig } from './load-project.js';

function truncate(text: string, width: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= width ? flat : `${flat.slice(0, Math.max(0, width - 1))}…`;
}

/**
 * `nao test list`: name, file and prompt of every selected test. A project without a
 * `tests/` folder lists none (as the original nao does), with a word on where they go.
 */
export const listTests: CommandAction<CliDependencies> = async ({ io, flags }) => {
  let project: Awaited<ReturnType<typeof loadProject>>;
  try {
    project = await loadProject(io);
  } catch (error) {
    if (!(error instanceof NaoError) || error.code !== 'TESTS_DIR_NOT_FOUND') throw error;
    io.stderr.write(`${error.message}\n`);
    io.stdout.write('0 test(s)\n');
    return EXIT.ok;
  }
  const tests = selectTests({ tests: project.tests, select: (flags.select as string[] | undefined) ?? [] });
  const nameWidth = Math.max(4, ...tests.map((t) => t.name.length));
  const fileWidth = Math.max(4, ...tests.map((t) => t.relativePath.length));
  const promptWidth = Math.max(20, (io.stdout.columns ?? 120) - nameWidth - fileWidth - 4);
  io.stdout.write(`${'Name'.padEnd(nameWidth)}  ${'File'.padEnd(fileWidth)}  Prompt\n`);
  for (const t of tests) {
    io.stdout.write(
      `${t.name.padEnd(nameWidth)}  ${t.relativePath.padEnd(fileWidth)}  ${truncate(t.prompt, promptWidth)}\n`,
    );
  }
  io.stdout.write(`\n${tests.length} test(s)\n`);
  return EXIT.ok;
};

/** `nao test show <selection>`: the selected tests in full, or only their SQL or prompts. */
export const showTests: CommandAction<CliDependencies> = async ({ io, args, flags }) => {
  const project = await loadProject(io);
  const tests = selectTests({ tests: project.tests, select: [args[0] ?? ''] });
  const sqlOnly = flags.sqlOnly === true;
  const promptOnly = flags.promptOnly === true;
  const blocks = tests.map((t) => {
    if (sqlOnly) return `${(t.sql ?? `-- ${t.name} has no reference SQL`).trimEnd()}\n`;
    if (promptOnly) return `${t.prompt.trimEnd()}\n`;
    const lines = [`# ${t.name}  (${t.relativePath})`, '', 'Prompt:', indent(t.prompt), ''];
    lines.push('Reference SQL:', t.sql === null ? '  (none)' : indent(t.sql), '');
    if (t.expectedAnswer !== null)
      lines.push('Expected answer (judged by a model):', indent(t.expectedAnswer), '');
    if (t.expectedAnswer !== null && t.requiresData === false)
      lines.push('The answer may come without a query (requires_data: false)');
    if (t.database !== null) lines.push(`Database: ${t.database}`);
    if (t.ordered) lines.push('Row order matters (ordered: true)');
    if (t.comparison !== null) lines.push(`Comparison: ${JSON.stringify(t.comparison)}`);
    if (t.allowClarification)
      lines.push('The agent may ask a clarifying question (allow_clarification: true)');
    if (t.assertions.length > 0) {
      lines.push('Assertions:');
      for (const assertion of t.assertions) lines.push(`  - ${describeAssertion(assertion)}`);
    }
    return `${lines.join('\n').trimEnd()}\n`;
  });
  io.stdout.write(blocks.join(sqlOnly || promptOnly ? '\n' : '\n\n'));
  return EXIT.ok;
};

/**
 * `nao test validate`: every problem of nao_config.yaml and the test files, and (unless
 * `--offline`) every reference SQL its database cannot plan (exit 2, as `nao test` would), or
 * a count.
 */
export const validateProject: CommandAction<CliDependencies> = async ({ io, flags, deps }) => {
  let config: NaoConfig | undefined;
  let configInvalid: ConfigInvalidError | undefined;
  try {
    config = await loadProjectConfig(io);
  } catch (error) {
    if (error instanceof ConfigNotFoundError) throw error;
    if (error instanceof ConfigInvalidError) configInvalid = error;
    else throw error;
  }
  const testsDir = path.join(config?.projectDir ?? io.cwd, 'tests');
  const discovered = await discoverTests({
    testsDir,
    databaseNames: config === undefined ? undefined : configuredDatabaseNames(config),
  });
  for (const warning of discovered.warnings) io.stderr.write(`Warning: ${warning}\n`);
  const fileProblems: TestFileProblem[] = [
    ...discovered.problems,
    ...(config === undefined
      ? []
      : testDatabaseProblems({ tests: discovered.tests, configured: configuredDatabaseNames(config) })),
  ];
  let checked = 0;
  if (config !== undefined && flags.offline !== true && discovered.tests.some((t) => t.sql !== null)) {
    // Loaded here only: the database engines are heavy, and `list` and `show` share this module.
    const { checkReferences, openReferenceDatabases } = await import('../test-run/reference-check.js');
    const opened = await openReferenceDatabases(config);
    try {
      // A test already listed (its database undecided, say) is not planned: one problem each.
      const listed = new Set(fileProblems.map((problem) => problem.file));
      const checks = await checkReferences({
        tests: discovered.tests.filter((t) => !listed.has(t.relativePath)),
        databases: opened.databases,
        unavailable: opened.unavailable,
        ...(deps.interrupt === undefined ? {} : { signal: deps.interrupt }),
      });
      for (const t of discovered.tests) {
        const check = checks.get(t.relativePath);
        if (check?.status === 'valid') checked++;
        else if (check?.status === 'invalid')
          fileProblems.push({ file: t.relativePath, field: 'sql', message: check.error });
        else if (check?.status === 'unchecked')
          io.stderr.write(`Note: ${t.relativePath}: the reference SQL was not checked: ${check.reason}\n`);
      }
    } finally {
      await opened.close();
    }
  }
  if (configInvalid !== undefined || fileProblems.length > 0) {
    const blocks: string[] = [];
    if (configInvalid !== undefined) blocks.push(configInvalid.message);
    if (fileProblems.length > 0) blocks.push(['Test files:', ...formatProblemLines(fileProblems)].join('\n'));
    // One count, said once, after the list.
    const count = countProblems({
      problems: fileProblems,
      configProblems: configInvalid?.problems.length ?? 0,
    });
    io.stderr.write(`${blocks.join('\n')}\n\n${count}.\n`);
    return EXIT.usage;
  }
  const sql = checked === 0 ? '' : ` (${checked} reference SQL planned on their databases)`;
  io.stdout.write(`nao_config.yaml and ${discovered.tests.length} test file(s) are valid${sql}.\n`);
  return EXIT.ok;
};

function indent(text: string): string {
  return text
    .trimEnd()
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
}
