import path from 'node:path';
import type { Command } from 'commander';
import { scaffoldProject } from '../init/index.js';
import { EXIT } from './exit-codes.js';
import type { CliIO } from './io.js';

export function registerInitCommand(program: Command, io: CliIO, setExit: (code: number) => void): void {
  program
    .command('init')
    .description(
      'Scaffold a nao project: nao_config.yaml, RULES.md and tests/ with one sample test. Never overwrites files.',
    )
    .argument('[folder]', 'project folder to create or complete', '.')
    .action(async (folder: string) => {
      const report = await scaffoldProject({ folder: path.resolve(io.cwd, folder) });
      for (const file of report.created) io.stdout.write(`  created  ${file}\n`);
      for (const file of report.kept) io.stdout.write(`  kept     ${file} (already exists, left as is)\n`);
      io.stdout.write(
        `\nProject ready in ${report.folder}.\nNext: point nao_config.yaml at your warehouse, describe it in RULES.md, ` +
          'write tests in tests/, then run `nao test`.\n',
      );
      setExit(EXIT.ok);
    });
}
