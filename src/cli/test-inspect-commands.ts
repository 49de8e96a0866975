import path from 'node:path';
import type { Command } from 'commander';
import { ConfigInvalidError, ConfigNotFoundError, loadConfig, MissingEnvError } from '../config/index.js';
import { discoverTests, formatProblems } from '../test-files/index.js';
import { EXIT } from './exit-codes.js';
import type { CliIO } from './io.js';
import { loadProject, selectProjectTests } from './load-project.js';

const collect = (value: string, previous: string[]) => [...previous, value];

function truncate(text: string, width: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= width ? flat : `${flat.slice(0, Math.max(0, width - 1))}…`;
}

/** `nao test list`, `nao test show`, `nao test validate`: look at the suite without any model. */
export function registerTestInspectCommands(test: Command, io: CliIO, setExit: (code: number) => void): void {
  test
    .command('list')
    .description('List the tests of tests/: name, file and prompt.')
    .option(
      '-s, --select <names>',
      'only these tests, folders or file stems (comma-separated, repeatable)',
      collect,
      [],
    )
    .action(async (flags: { select: string[] }) => {
      const project = await loadProject(io);
      const tests = selectProjectTests(project, flags.select);
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
      setExit(EXIT.ok);
    });

  test
    .command('show')
    .description('Show selected tests in full: prompt, reference SQL, database, assertions, tolerances.')
    .argument('<selection>', 'test names, folders or file stems (comma-separated)')
    .option('--sql-only', 'print only the reference SQL')
    .option('--prompt-only', 'print only the prompt')
    .action(async (selection: string, flags: { sqlOnly?: boolean; promptOnly?: boolean }) => {
      const project = await loadProject(io);
      const tests = selectProjectTests(project, [selection]);
      const blocks = tests.map((t) => {
        if (flags.sqlOnly) return `${(t.sql ?? `-- ${t.name} has no reference SQL`).trimEnd()}\n`;
        if (flags.promptOnly) return `${t.prompt.trimEnd()}\n`;
        const lines = [`# ${t.name}  (${t.relativePath})`, '', 'Prompt:', indent(t.prompt), ''];
        lines.push('Reference SQL:', t.sql === null ? '  (none)' : indent(t.sql), '');
        if (t.database !== null) lines.push(`Database: ${t.database}`);
        if (t.ordered) lines.push('Row order matters (ordered: true)');
        if (t.comparison !== null) lines.push(`Comparison: ${JSON.stringify(t.comparison)}`);
        if (t.assertions.length > 0) {
          lines.push('Assertions:');
          for (const assertion of t.assertions) {
            const args = assertion.args === null ? '' : `, args ${JSON.stringify(assertion.args)}`;
            lines.push(`  - ${assertion.type} ${assertion.tool} (min ${assertion.minCount}${args})`);
          }
        }
        return `${lines.join('\n').trimEnd()}\n`;
      });
      io.stdout.write(blocks.join(flags.sqlOnly || flags.promptOnly ? '\n' : '\n\n'));
      setExit(EXIT.ok);
    });

  test
    .command('validate')
    .description(
      'Check nao_config.yaml and every test file; list every problem (exit 1) or count the tests (exit 0).',
    )
    .action(async () => {
      const problems: string[] = [];
      let config: Awaited<ReturnType<typeof loadConfig>> | undefined;
      try {
        config = await loadConfig({ projectDir: io.cwd, env: io.env });
        for (const warning of config.warnings) io.stderr.write(`Warning: ${warning}\n`);
      } catch (error) {
        if (error instanceof ConfigNotFoundError) throw error;
        if (error instanceof ConfigInvalidError || error instanceof MissingEnvError)
          problems.push(error.message);
        else throw error;
      }
      const testsDir = path.join(config?.projectDir ?? io.cwd, 'tests');
      const discovered = await discoverTests({
        testsDir,
        ...(config === undefined ? {} : { databaseNames: config.databases.map((database) => database.name) }),
      });
      for (const warning of discovered.warnings) io.stderr.write(`Warning: ${warning}\n`);
      if (discovered.problems.length > 0) problems.push(formatProblems(discovered.problems));
      if (config !== undefined) {
        const names = config.databases.map((database) => database.name);
        for (const t of discovered.tests) {
          if (t.sql !== null && t.database === null && names.length > 1) {
            problems.push(
              `${t.relativePath}: database: several databases are configured (${names.join(', ')}); name the one the reference SQL runs on`,
            );
          } else if (t.sql !== null && names.length === 0) {
            problems.push(
              `${t.relativePath}: sql: no database is configured in nao_config.yaml to run the reference SQL on`,
            );
          }
        }
      }
      if (problems.length > 0) {
        io.stderr.write(`${problems.join('\n')}\n\n${problems.length} problem(s) found.\n`);
        setExit(EXIT.failed);
        return;
      }
      io.stdout.write(`nao_config.yaml and ${discovered.tests.length} test file(s) are valid.\n`);
      setExit(EXIT.ok);
    });
}

function indent(text: string): string {
  return text
    .trimEnd()
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
}
