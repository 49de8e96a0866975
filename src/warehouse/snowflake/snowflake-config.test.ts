import { describe, expect, it } from 'vitest';
import { ConfigInvalidError, parseConfig } from '../../config/index.js';

const projectDir = '/projects/shop';

function parse(text: string, env: Record<string, string | undefined> = {}) {
  return parseConfig({ text, projectDir, env });
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

const ENTRY = 'databases:\n  - name: sf\n    type: snowflake\n';

describe('snowflake databases in nao_config.yaml', () => {
  it("reads the original nao's fields, schema_name as the schema", () => {
    const config = parse(
      `${ENTRY}    username: NAO_READER\n    account_id: xy12345.us-east-1\n    password: pw\n    database: SALES\n    schema_name: PUBLIC\n    warehouse: WH\n    authenticator: username_password_mfa\n    accessors: [columns, preview]\n`,
    );
    expect(config.warnings).toEqual([]);
    expect(config.databases[0]).toMatchObject({
      type: 'snowflake',
      name: 'sf',
      username: 'NAO_READER',
      account_id: 'xy12345.us-east-1',
      password: 'pw',
      database: 'SALES',
      schema: 'PUBLIC',
      warehouse: 'WH',
      authenticator: 'username_password_mfa',
    });
  });

  it('reads key-pair log-in, a role and a private endpoint with its port as a string', () => {
    const config = parse(
      `${ENTRY}    username: u\n    account_id: a\n    database: d\n    private_key_path: keys/rsa_key.p8\n    passphrase: secret\n    role: NAO_READER\n    host: a.privatelink.snowflakecomputing.com\n    port: "8443"\n`,
    );
    expect(config.databases[0]).toMatchObject({
      private_key_path: 'keys/rsa_key.p8',
      passphrase: 'secret',
      role: 'NAO_READER',
      host: 'a.privatelink.snowflakecomputing.com',
      port: 8443,
    });
  });

  it('substitutes {{ env() }} values, and keeps a database whose variable is unset for its runs to report', () => {
    const text = `${ENTRY}    username: "{{ env('SF_USER') }}"\n    account_id: "{{ env('SF_ACCOUNT') }}"\n    password: "{{ env('SF_PASSWORD') }}"\n    database: SALES\n`;
    const config = parse(text, { SF_USER: 'NAO', SF_ACCOUNT: 'xy12345', SF_PASSWORD: 'p#ss: w' });
    expect(config.databases[0]).toMatchObject({
      username: 'NAO',
      account_id: 'xy12345',
      password: 'p#ss: w',
    });
    const unset = parse(text, { SF_USER: 'NAO', SF_ACCOUNT: 'xy12345' });
    expect(unset.databases).toEqual([]);
    expect(unset.unavailableDatabases[0]?.reason).toContain('SF_PASSWORD is not set');
  });

  it.each([
    ['username', `${ENTRY}    account_id: a\n    database: d\n`],
    ['account_id', `${ENTRY}    username: u\n    database: d\n`],
    ['database', `${ENTRY}    username: u\n    account_id: a\n`],
  ])('requires %s, naming the key', (key, text) => {
    expect(problemsOf(text).join('\n')).toContain(`databases[0].${key}:`);
  });

  it('refuses an authenticator the original does not know, naming the key', () => {
    expect(
      problemsOf(
        `${ENTRY}    username: u\n    account_id: a\n    database: d\n    authenticator: okta\n`,
      ).join('\n'),
    ).toContain('databases[0].authenticator:');
  });

  it('warns about a key no Snowflake entry has', () => {
    const config = parse(`${ENTRY}    username: u\n    account_id: a\n    database: d\n    wharehouse: WH\n`);
    expect(config.warnings.join('\n')).toContain('wharehouse');
  });
});
