import { describe, expect, it } from 'vitest';
import { ConfigInvalidError, parseConfig } from '../../config/index.js';

function parse(entry: string) {
  return parseConfig({
    text: `databases:\n  - name: md\n    type: motherduck\n${entry}`,
    projectDir: '/p',
    env: {},
  });
}

describe('motherduck database entries', () => {
  it("reads the original's fields, every one optional", () => {
    expect(parse('').databases[0]).toEqual({ name: 'md', type: 'motherduck', read_only: false });
    expect(parse("    database: analytics\n    token: t\n    read_only: 'yes'\n").databases[0]).toEqual({
      name: 'md',
      type: 'motherduck',
      database: 'analytics',
      token: 't',
      read_only: true,
    });
  });

  it('refuses a read_only that is not a boolean, naming the key', () => {
    expect(() => parse('    read_only: sometimes\n')).toThrow(ConfigInvalidError);
    try {
      parse('    read_only: sometimes\n');
    } catch (error) {
      expect((error as ConfigInvalidError).problems.join('\n')).toContain('databases[0].read_only:');
    }
  });
});
