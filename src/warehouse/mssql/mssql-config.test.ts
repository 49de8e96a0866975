/** The `mssql` and `fabric` entries of nao_config.yaml, with the original nao's keys. */
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

const MSSQL = `databases:
  - name: erp
    type: mssql
    host: sql.example.com
    port: "{{ env('MSSQL_PORT') }}"
    database: sales
    user: nao_reader
    password: "{{ env('MSSQL_PASSWORD') }}"
    driver: FreeTDS
    schema_name: dbo
`;

/** The same entry with plain values. */
const PLAIN = MSSQL.replace(`"{{ env('MSSQL_PORT') }}"`, '1433').replace(
  `"{{ env('MSSQL_PASSWORD') }}"`,
  'pw',
);

describe('mssql databases', () => {
  it("reads the original's keys, a port given as text and {{ env() }} secrets, TLS on by default", () => {
    const config = parse(MSSQL, { MSSQL_PORT: '14330', MSSQL_PASSWORD: 's3cret' });
    expect(config.databases).toEqual([
      {
        type: 'mssql',
        name: 'erp',
        host: 'sql.example.com',
        port: 14330,
        database: 'sales',
        user: 'nao_reader',
        password: 's3cret',
        driver: 'FreeTDS',
        schema_name: 'dbo',
        encrypt: true,
        trust_server_certificate: false,
      },
    ]);
    expect(config.warnings).toEqual([]);
  });

  it('takes encrypt and trust_server_certificate as the strings a YAML or env value may be', () => {
    const config = parse(`${PLAIN}    encrypt: "no"\n    trust_server_certificate: "yes"\n`);
    expect(config.databases[0]).toMatchObject({ encrypt: false, trust_server_certificate: true, port: 1433 });
  });

  it.each([
    ['host', "databases[0].host: missing: give the server's host name"],
    ['database', 'databases[0].database: missing: give the database to query'],
    ['user', 'databases[0].user: missing: give the SQL login nao signs in with'],
    ['password', "databases[0].password: missing: give the login's password"],
  ])('requires %s, naming the key', (key, expected) => {
    const text = PLAIN.split('\n')
      .filter((line) => !line.trimStart().startsWith(`${key}:`))
      .join('\n');
    expect(problemsOf(text)).toContain(expected);
  });

  it('refuses a port that is not one', () => {
    expect(problemsOf(PLAIN.replace('port: 1433', 'port: "14x"'))).toContain('databases[0].port:');
  });
});

const FABRIC = `databases:
  - name: lakehouse
    type: fabric
    host: abc123.datawarehouse.fabric.microsoft.com
    database: ContosoLH
    schema_name: dbo
`;

describe('fabric databases', () => {
  it('reads a service principal, auth_mode as the original spells it', () => {
    const config = parse(
      `${FABRIC}    auth_mode: azure_service_principal\n    client_id: app\n    client_secret: "{{ env('FABRIC_SECRET') }}"\n    tenant_id: t1\n`,
      { FABRIC_SECRET: 'shh' },
    );
    expect(config.databases[0]).toMatchObject({
      type: 'fabric',
      host: 'abc123.datawarehouse.fabric.microsoft.com',
      database: 'ContosoLH',
      auth_mode: 'azure_service_principal',
      client_id: 'app',
      client_secret: 'shh',
      tenant_id: 't1',
      encrypt: true,
    });
    expect(config.warnings).toEqual([]);
  });

  it('reads the earlier spellings `server` and `auth_method` found in projects', () => {
    const config = parse(
      'databases:\n  - name: l\n    type: fabric\n    server: x.datawarehouse.fabric.microsoft.com\n    database: D\n    auth_method: azure_cli\n',
    );
    expect(config.databases[0]).toMatchObject({
      host: 'x.datawarehouse.fabric.microsoft.com',
      auth_mode: 'azure_cli',
    });
    expect(config.warnings).toEqual([]);
  });

  it.each([
    ['', 'databases[0].user: required when auth_mode is sql_password'],
    ['    user: u\n', 'databases[0].password: required when auth_mode is sql_password'],
    [
      '    auth_mode: azure_service_principal\n',
      'databases[0].client_id: required when auth_mode is azure_service_principal',
    ],
    ['    auth_mode: browser\n', 'databases[0].auth_mode:'],
  ])('refuses %j: %s', (lines, expected) => {
    expect(problemsOf(`${FABRIC}${lines}`)).toContain(expected);
  });
});
