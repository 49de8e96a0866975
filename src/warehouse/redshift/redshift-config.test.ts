import { describe, expect, it } from 'vitest';
import { ConfigInvalidError, parseConfig } from '../../config/index.js';

function parse(entry: string, env: Record<string, string> = {}) {
  return parseConfig({
    text: `databases:\n  - name: rs\n    type: redshift\n${entry}`,
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

const CLUSTER = '    host: c1.abc.us-east-1.redshift.amazonaws.com\n    database: dev\n';

describe('redshift database entries', () => {
  it("reads the original's fields, with its defaults (password auth, sslmode require)", () => {
    const config = parse(`${CLUSTER}    user: reader\n    password: pw\n    schema_name: sales\n`);
    expect(config.databases[0]).toEqual({
      name: 'rs',
      type: 'redshift',
      host: 'c1.abc.us-east-1.redshift.amazonaws.com',
      database: 'dev',
      user: 'reader',
      password: 'pw',
      schema_name: 'sales',
      auth_mode: 'password',
      sslmode: 'require',
    });
    expect(config.warnings).toEqual([]);
  });

  it('reads a port written as a string and env() values', () => {
    const config = parse(
      `${CLUSTER}    port: "5440"\n    user: reader\n    password: {{ env('RS_PASSWORD') }}\n    sslmode: verify-full\n`,
      { RS_PASSWORD: 's3cret' },
    );
    expect(config.databases[0]).toMatchObject({ port: 5440, password: 's3cret', sslmode: 'verify-full' });
  });

  it("reads the original's ssh_tunnel block without warnings", () => {
    const config = parse(
      `${CLUSTER}    user: u\n    password: p\n    ssh_tunnel:\n      ssh_host: bastion\n      ssh_port: "22"\n      ssh_username: ops\n      ssh_private_key_path: /k\n`,
    );
    expect(config.warnings).toEqual([]);
    expect(config.databases[0]).toMatchObject({ ssh_tunnel: { ssh_host: 'bastion', ssh_port: 22 } });
  });

  it('reads an IAM entry, which needs a user and a region', () => {
    const config = parse(
      `${CLUSTER}    auth_mode: iam\n    user: reader\n    region_name: us-east-1\n    profile_name: p\n`,
    );
    expect(config.databases[0]).toMatchObject({ auth_mode: 'iam', region_name: 'us-east-1' });
  });

  it.each([
    ['    database: d\n    user: u\n    password: p\n', 'databases[0].host:'],
    ['    host: h\n    user: u\n    password: p\n', 'databases[0].database:'],
    [`${CLUSTER}    user: u\n`, "`user` and `password` are required when auth_mode is 'password'"],
    [
      `${CLUSTER}    auth_mode: iam\n    user: u\n`,
      "`user` and `region_name` are required when auth_mode is 'iam'",
    ],
    [`${CLUSTER}    user: u\n    password: p\n    sslmode: sometimes\n`, 'databases[0].sslmode:'],
    [`${CLUSTER}    user: u\n    password: p\n    auth_mode: kerberos\n`, 'databases[0].auth_mode:'],
  ])('refuses %j naming the key', (entry, expected) => {
    expect(problems(entry)).toContain(expected);
  });
});
