/**
 * `npm run readme:tables`: rewrites the README's command and flag tables from the command
 * specs in src/cli/commands.ts (tools/readme/readme-tables.test.ts fails when they differ).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { replaceReadmeTables } from './readme-tables.js';

const readme = fileURLToPath(new URL('../../README.md', import.meta.url));
const before = await readFile(readme, 'utf8');
const after = replaceReadmeTables(before);
if (after === before) process.stdout.write('README.md tables are up to date.\n');
else {
  await writeFile(readme, after);
  process.stdout.write('README.md tables rewritten from src/cli/commands.ts.\n');
}
