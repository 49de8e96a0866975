import { describe, expect, it } from 'vitest';
import { ConfigInvalidError, parseConfig } from '../../config/index.js';

function parse(text: string, env: Record<string, string | undefined> = {}) {
  return parseConfig({ text, projectDir: '/projects/shop', env });
}

function problemsOf(text: string): string[] {
  try {
    parse(text);
  } catch (error) {
    if (error instanceof ConfigInvalidError) return error.problems;
    throw error;
  }
  throw new Error('expected the config to be invalid');
}

const ENTRY = `databases:
  - name: lake
    type: databricks
    server_hostname: adb-1234567890123456.7.azuredatabricks.net
    http_path: /sql/1.0/warehouses/abc123
`;

describe('databricks databases', () => {
  it('reads the keys of the original nao, temp_schema included, without warnings', () => {
    const config = parse(
      `${ENTRY}    access_token: dapi-secret\n    catalog: main\n    schema_name: sales\n    temp_schema: scratch\n`,
    );
    expect(config.databases[0]).toMatchObject({
      type: 'databricks',
      name: 'lake',
      server_hostname: 'adb-1234567890123456.7.azuredatabricks.net',
      http_path: '/sql/1.0/warehouses/abc123',
      access_token: 'dapi-secret',
      catalog: 'main',
      schema_name: 'sales',
    });
    expect(config.warnings).toEqual([]);
    expect(config.unavailableDatabases).toEqual([]);
  });

  it('reads the token from the environment', () => {
    const config = parse(`${ENTRY}    access_token: "{{ env('DATABRICKS_TOKEN') }}"\n`, {
      DATABRICKS_TOKEN: 'dapi-env',
    });
    expect(config.databases[0]).toMatchObject({ access_token: 'dapi-env' });
  });

  it('takes catalog and schema_name as optional, also when written as null', () => {
    const config = parse(`${ENTRY}    access_token: t\n    catalog: null\n    schema_name: null\n`);
    expect(config.databases[0]).toMatchObject({ name: 'lake', catalog: null, schema_name: null });
  });

  it.each(['https://adb-1.azuredatabricks.net/', '127.0.0.1:8443', 'dbc-a1b2c3d4-e5f6.cloud.databricks.com'])(
    'accepts the server hostname %s',
    (hostname) => {
      const config = parse(
        `databases:\n  - name: lake\n    type: databricks\n    server_hostname: "${hostname}"\n    http_path: /p\n    access_token: t\n`,
      );
      expect(config.databases[0]).toMatchObject({ server_hostname: hostname });
    },
  );

  it.each([
    ['access_token', `${ENTRY}`],
    [
      'http_path',
      'databases:\n  - name: lake\n    type: databricks\n    server_hostname: h\n    access_token: t\n',
    ],
    [
      'server_hostname',
      'databases:\n  - name: lake\n    type: databricks\n    http_path: /p\n    access_token: t\n',
    ],
  ])('refuses an entry without %s, naming the key', (key, text) => {
    expect(problemsOf(text).join('\n')).toContain(`databases[0].${key}`);
  });

  it('refuses a server hostname that is a URL with a path, saying what is expected', () => {
    const problems = problemsOf(
      'databases:\n  - name: lake\n    type: databricks\n    server_hostname: https://adb-1.azuredatabricks.net/sql/1.0\n    http_path: /p\n    access_token: t\n',
    );
    expect(problems.join('\n')).toContain('databases[0].server_hostname: expected the server hostname');
  });
});
