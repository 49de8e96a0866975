import { describe, expect, it } from 'vitest';
import { ConfigInvalidError, parseConfig } from '../../config/index.js';

function parse(entry: string, env: Record<string, string> = {}) {
  return parseConfig({
    text: `databases:\n  - name: sr\n    type: starrocks\n${entry}`,
    projectDir: '/p',
    env,
  });
}

function problems(entry: string): string {
  try {
    parse(entry);
  } catch (error) {
    if (error instanceof ConfigInvalidError) return error.problems.join('\n');
    throw error;
  }
  throw new Error('expected the config to be invalid');
}

describe('starrocks database entries', () => {
  it("reads the original's fields, with its defaults", () => {
    const config = parse(
      '    host: fe.internal\n    user: reader\n    catalog: hive\n    database: sales\n    schema_name: sales\n',
    );
    expect(config.databases[0]).toEqual({
      name: 'sr',
      type: 'starrocks',
      host: 'fe.internal',
      user: 'reader',
      password: '',
      catalog: 'hive',
      database: 'sales',
    });
    expect(config.warnings).toEqual([]);
  });

  it('reads a port written as a string and env() values', () => {
    const config = parse(
      "    host: fe\n    port: '9031'\n    user: u\n    password: {{ env('SR_PASSWORD') }}\n",
      {
        SR_PASSWORD: 's3cret',
      },
    );
    expect(config.databases[0]).toMatchObject({ port: 9031, password: 's3cret' });
  });

  it.each([
    ['    user: u\n', 'databases[0].host:'],
    ['    host: h\n', 'databases[0].user:'],
    ['    host: h\n    user: u\n    port: 0\n', 'databases[0].port:'],
  ])('refuses %j naming the key', (entry, expected) => {
    expect(problems(entry)).toContain(expected);
  });
});
