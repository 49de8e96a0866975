/**
 * `npm run readme:flags`: rewrites the README's flag tables from the command specs in
 * src/cli/commands.ts (tools/readme/flag-tables.test.ts fails when they differ).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { replaceFlagTables } from './flag-tables.js';

const readme = fileURLToPath(new URL('../../README.md', import.meta.url));
const before = await readFile(readme, 'utf8');
const after = replaceFlagTables(before);
if (after === before) process.stdout.write('README.md flag tables are up to date.\n');
else {
  await writeFile(readme, after);
  process.stdout.write('README.md flag tables rewritten from src/cli/commands.ts.\n');
}
