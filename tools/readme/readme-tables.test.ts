import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../test-support/cli/example-project.js';
import { replaceReadmeTables } from './readme-tables.js';

const README = readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');

describe("the README's generated tables", () => {
  it('hold the commands and flags of src/cli/commands.ts (run `npm run readme:tables` after changing them)', () => {
    expect(README).toContain('<!-- commands -->');
    expect(README).toContain('<!-- flags: nao test run -->');
    expect(replaceReadmeTables(README)).toBe(README);
  });

  it('are rewritten when a flag changes, and refuse a table of an unknown command', () => {
    const stale = README.replace('| `--strict` |', '| `--stricter` |');
    expect(stale).not.toBe(README);
    expect(replaceReadmeTables(stale)).toBe(README);
    expect(() => replaceReadmeTables('<!-- flags: nao frobnicate -->\n<!-- /flags -->')).toThrow(
      /nao frobnicate/,
    );
  });
});

describe("the README's source layout", () => {
  it('names every folder of src/, and only those', () => {
    const section = README.slice(README.indexOf('Source layout'));
    const table = section.slice(0, section.indexOf('\n\n', section.indexOf('| folder |')));
    const named = [...table.matchAll(/^\| `([a-z-]+)\/`/gm)].map((match) => match[1]);
    const folders = readdirSync(path.join(REPO_ROOT, 'src'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(named.sort()).toEqual(folders.sort());
  });
});
