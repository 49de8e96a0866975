import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../test-support/cli/example-project.js';
import { replaceFlagTables } from './flag-tables.js';

const README = readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');

describe("the README's flag tables", () => {
  it('hold the `nao test` flags of src/cli/commands.ts (run `npm run readme:flags` after changing them)', () => {
    expect(README).toContain('<!-- flags: nao test run -->');
    expect(replaceFlagTables(README)).toBe(README);
  });

  it('are rewritten when a flag changes, and refuse a table of an unknown command', () => {
    const stale = README.replace('| `-x, --fail-fast` |', '| `--stop-early` |');
    expect(stale).not.toBe(README);
    expect(replaceFlagTables(stale)).toBe(README);
    expect(() => replaceFlagTables('<!-- flags: nao frobnicate -->\n<!-- /flags -->')).toThrow(
      /nao frobnicate/,
    );
  });
});
