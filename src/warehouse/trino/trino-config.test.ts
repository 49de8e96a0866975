import { describe, expect, it } from 'vitest';
import { ConfigInvalidError, parseConfig } from '../../config/index.js';

function parse(text: string, env: Record<string, string | undefined> = {}) {
  return parseConfig({ text, projectDir: '/projects/shop', env });
}

function problemsOf(text: string): string {
  try {
    parse(text);
  } catch (error) {
    if (error instanceof ConfigInvalidError) return error.problems.join('\n');
    throw error;
  }
  throw new Error('expected the config to be invalid');
}

describe('trino databases', () => {
  it("reads the original nao's fields, with `schema_name` as the schema and a port as a string", () => {
    const config = parse(
      "databases:\n  - name: lake\n    type: trino\n    host: trino.local\n    port: \"{{ env('TRINO_PORT') }}\"\n    catalog: hive\n    user: nao\n    password: {{ env('TRINO_PASSWORD') }}\n    schema_name: sales\n",
      { TRINO_PORT: '8443', TRINO_PASSWORD: 's3cret' },
    );
    expect(config.databases[0]).toMatchObject({
      type: 'trino',
      host: 'trino.local',
      port: 8443,
      catalog: 'hive',
      user: 'nao',
      password: 's3cret',
      schema: 'sales',
    });
    expect(config.warnings).toEqual([]);
  });

  it.each([
    ['host', 'databases[0].host:'],
    ['catalog', 'databases[0].catalog:'],
    ['user', 'databases[0].user:'],
  ])('requires `%s`', (key, expected) => {
    const fields = { host: 'h', catalog: 'c', user: 'u' } as Record<string, string>;
    delete fields[key];
    const lines = Object.entries(fields)
      .map(([name, value]) => `    ${name}: ${value}\n`)
      .join('');
    expect(problemsOf(`databases:\n  - name: lake\n    type: trino\n${lines}`)).toContain(expected);
  });

  it('refuses a port that is not a number', () => {
    expect(
      problemsOf(
        'databases:\n  - name: lake\n    type: trino\n    host: h\n    catalog: c\n    user: u\n    port: "80x"\n',
      ),
    ).toContain('databases[0].port:');
  });
});
