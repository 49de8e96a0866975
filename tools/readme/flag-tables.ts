/**
 * The README's flag tables are generated from the command specs: each sits between
 * `<!-- flags: nao test run -->` and `<!-- /flags -->`, and `npm run readme:flags` rewrites it.
 */
import type { CommandSpec } from '../../src/cli/command-spec.js';
import { COMMANDS } from '../../src/cli/commands.js';

const BLOCK = /<!-- flags: nao ([a-z ]+) -->\n[\s\S]*?<!-- \/flags -->/g;

/** The README table of a command's flags: `| flag | meaning |`, one row per option. */
export function flagTable(spec: Pick<CommandSpec<unknown>, 'options'>): string {
  const rows = (spec.options ?? []).map((option) => {
    const meaning = (option.readme ?? option.help).replaceAll('|', '\\|');
    return `| \`${option.flags}\` | ${meaning} |`;
  });
  return ['| flag | meaning |', '|---|---|', ...rows].join('\n');
}

/** The README text with every flag table made anew from the specs; an unknown command throws. */
export function replaceFlagTables(readme: string): string {
  return readme.replace(BLOCK, (_block, command: string) => {
    const spec = COMMANDS.find((candidate) => candidate.path.join(' ') === command);
    if (spec === undefined)
      throw new Error(`README.md has a flag table for an unknown command: nao ${command}`);
    return `<!-- flags: nao ${command} -->\n${flagTable(spec)}\n<!-- /flags -->`;
  });
}
