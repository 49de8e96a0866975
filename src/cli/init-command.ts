import path from 'node:path';
import { nextSteps, scaffoldProject } from '../init/index.js';
import type { CommandAction } from './command-spec.js';
import type { CliDependencies } from './dependencies.js';
import { EXIT } from './exit-codes.js';

/** `nao init [folder]`: scaffolds a project, never overwriting a file. */
export const runInit: CommandAction<CliDependencies> = async ({ io, args }) => {
  const report = await scaffoldProject({ folder: path.resolve(io.cwd, args[0] ?? '.') });
  for (const file of report.created) io.stdout.write(`  created  ${file}\n`);
  for (const file of report.kept) io.stdout.write(`  kept     ${file} (already exists, left as is)\n`);
  io.stdout.write(`\n${nextSteps({ folder: report.folder, cwd: io.cwd })}`);
  return EXIT.ok;
};
