/**
 * `npm run readme:tables`: rewrites the command and flag tables of README.md and docs/*.md from
 * the command specs in src/cli/commands.ts (tools/readme/readme-tables.test.ts fails when they
 * differ).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeFileAtomic } from '../../src/files/index.js';
import { readDocumentation } from './documentation-files.js';
import { replaceGeneratedTables } from './readme-tables.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const stale = readDocumentation(root)
  .map(({ file, text }) => ({ file, before: text, after: replaceGeneratedTables(text, { file }) }))
  .filter(({ before, after }) => after !== before);
for (const { file, after } of stale) await writeFileAtomic({ path: path.join(root, file), data: after });
if (stale.length === 0) process.stdout.write('README.md and docs/ tables are up to date.\n');
else
  process.stdout.write(
    `Tables rewritten from src/cli/commands.ts: ${stale.map(({ file }) => file).join(', ')}.\n`,
  );
