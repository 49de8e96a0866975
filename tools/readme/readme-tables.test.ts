import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../test-support/cli/example-project.js';
import { readDocumentation } from './documentation-files.js';
import { replaceGeneratedTables } from './readme-tables.js';

const DOCUMENTATION = readDocumentation(REPO_ROOT);
const page = (file: string) => {
  const found = DOCUMENTATION.find((candidate) => candidate.file === file);
  if (found === undefined) throw new Error(`${file} is missing`);
  return found.text;
};

describe('the generated tables of README.md and docs/', () => {
  it('hold the commands and flags of src/cli/commands.ts (run `npm run readme:tables` after changing them)', () => {
    expect(page('README.md')).toContain('<!-- commands -->');
    expect(page('docs/running-tests.md')).toContain('<!-- flags: nao test run -->');
    expect(page('docs/ci-and-shards.md')).toContain('<!-- flags: nao test merge -->');
    for (const { file, text } of DOCUMENTATION)
      expect(replaceGeneratedTables(text, { file }), file).toBe(text);
  });

  it('are rewritten when a flag or a command changes, and refuse a table of an unknown command', () => {
    const flags = page('docs/running-tests.md');
    const staleFlags = flags.replace('| `--strict` |', '| `--stricter` |');
    expect(staleFlags).not.toBe(flags);
    expect(replaceGeneratedTables(staleFlags, { file: 'docs/running-tests.md' })).toBe(flags);

    const readme = page('README.md');
    const staleCommands = readme.replace('| `nao test list` |', '| `nao test ls` |');
    expect(staleCommands).not.toBe(readme);
    expect(replaceGeneratedTables(staleCommands, { file: 'README.md' })).toBe(readme);

    expect(() =>
      replaceGeneratedTables('<!-- flags: nao frobnicate -->\n<!-- /flags -->', { file: 'docs/x.md' }),
    ).toThrow(/docs\/x\.md .*nao frobnicate/);
  });
});

describe('the source layout of docs/development.md', () => {
  it('names every folder of src/, and only those', () => {
    const development = page('docs/development.md');
    const section = development.slice(development.indexOf('## Source layout'));
    const table = section.slice(0, section.indexOf('\n\n', section.indexOf('| folder |')));
    const named = [...table.matchAll(/^\| `([a-z-]+)\/`/gm)].map((match) => match[1]);
    const folders = readdirSync(path.join(REPO_ROOT, 'src'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(named.length).toBeGreaterThan(0);
    expect(named.sort()).toEqual(folders.sort());
  });
});
