/**
 * The generated tables of README.md and docs/, made from the command specs of
 * src/cli/commands.ts: the list of commands between `<!-- commands -->` and `<!-- /commands -->`
 * (in the README), and each command's flags between `<!-- flags: nao test run -->` and
 * `<!-- /flags -->` (on the page about that command). `npm run readme:tables` rewrites them
 * wherever they are, and readme-tables.test.ts fails when a file and the specs differ.
 */
import type { CommandSpec } from '../../src/cli/command-spec.js';
import { COMMANDS } from '../../src/cli/commands.js';

const FLAG_BLOCK = /<!-- flags: nao ([a-z ]+) -->\n[\s\S]*?<!-- \/flags -->/g;
const COMMANDS_BLOCK = /<!-- commands -->\n[\s\S]*?<!-- \/commands -->/g;

const cell = (text: string) => text.replaceAll('|', '\\|');

/** The README table of a command's flags: `| flag | meaning |`, one row per option. */
export function flagTable<Deps>(spec: Pick<CommandSpec<Deps>, 'options'>): string {
  const rows = (spec.options ?? []).map(
    (option) => `| \`${option.flags}\` | ${cell(option.readme ?? option.help)} |`,
  );
  return ['| flag | meaning |', '|---|---|', ...rows].join('\n');
}

/** The README table of every command: its usage line and what it does. */
export function commandTable<Deps>(specs: readonly CommandSpec<Deps>[]): string {
  const rows = specs.map((spec) => {
    const usage = ['nao', ...spec.path, ...(spec.arguments ?? []).map((argument) => argument.name)].join(' ');
    const alias = spec.isDefault ? ` (also \`nao ${spec.path.slice(0, -1).join(' ')}\`)` : '';
    return `| \`${usage}\`${alias} | ${cell(spec.description)} |`;
  });
  return ['| command | what it does |', '|---|---|', ...rows].join('\n');
}

/** The Markdown text with every generated table made anew from the specs; an unknown command throws. */
export function replaceGeneratedTables(markdown: string, options: { file: string }): string {
  return markdown
    .replace(COMMANDS_BLOCK, () => `<!-- commands -->\n${commandTable(COMMANDS)}\n<!-- /commands -->`)
    .replace(FLAG_BLOCK, (_block, command: string) => {
      const spec = COMMANDS.find((candidate) => candidate.path.join(' ') === command);
      if (spec === undefined)
        throw new Error(`${options.file} has a flag table for an unknown command: nao ${command}`);
      return `<!-- flags: nao ${command} -->\n${flagTable(spec)}\n<!-- /flags -->`;
    });
}
