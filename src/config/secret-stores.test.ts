import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from './load-config.js';

/** `aws` and `kubectl` stand-ins on PATH, answering as the real command lines do. */
let dir: string;
let bin: string;
let calls: string;

const AWS = `#!/usr/bin/env node
const fs = require('node:fs');
fs.appendFileSync(process.env.CALLS, 'aws ' + process.argv.slice(2).join(' ') + '\\n');
const id = process.argv[process.argv.indexOf('--secret-id') + 1];
if (id === 'prod/db') {
  process.stdout.write(JSON.stringify({ port: 5433, cred: { user: 'potato', password: 'p#ss: w"rd' } }) + '\\n');
  process.exit(0);
}
process.stderr.write('An error occurred (ResourceNotFoundException) when calling the GetSecretValue operation: Secrets Manager can\\'t find the specified secret.\\n');
process.exit(254);
`;
const KUBECTL = `#!/usr/bin/env node
const fs = require('node:fs');
fs.appendFileSync(process.env.CALLS, 'kubectl ' + process.argv.slice(2).join(' ') + '\\n');
const [, , name, , namespace] = process.argv.slice(2);
if (name === 'warehouse' && namespace === 'analytics') {
  process.stdout.write(JSON.stringify({ data: { password: Buffer.from('k8s-pass').toString('base64') } }));
  process.exit(0);
}
process.stderr.write('Error from server (NotFound): secrets "' + name + '" not found\\n');
process.exit(1);
`;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'nao-secrets-'));
  bin = path.join(dir, 'bin');
  calls = path.join(dir, 'calls.log');
  await (await import('node:fs/promises')).mkdir(bin);
  await writeFile(path.join(bin, 'aws'), AWS);
  await writeFile(path.join(bin, 'kubectl'), KUBECTL);
  await chmod(path.join(bin, 'aws'), 0o755);
  await chmod(path.join(bin, 'kubectl'), 0o755);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function load(yaml: string, binDir: string | null = bin) {
  await writeFile(path.join(dir, 'nao_config.yaml'), yaml);
  const nodeDir = path.dirname(process.execPath);
  return loadConfig({
    projectDir: dir,
    env: { PATH: [binDir, nodeDir].filter((part) => part !== null).join(path.delimiter), CALLS: calls },
  });
}

describe('{{ aws(...) }} and {{ k8s(...) }}', () => {
  it('reads AWS Secrets Manager through the aws command line, once per secret, with dot paths', async () => {
    const config = await load(
      "databases:\n  - name: pg\n    type: postgres\n    database: d\n    user: \"{{ aws('prod/db/cred.user') }}\"\n    password: \"{{ aws('prod/db/cred.password') }}\"\n    port: {{ aws('prod/db/port') }}\n",
    );
    expect(config.unavailableDatabases).toEqual([]);
    expect(config.databases[0]).toMatchObject({ user: 'potato', password: 'p#ss: w"rd', port: 5433 });
    const log = (await import('node:fs/promises')).readFile(calls, 'utf8');
    expect((await log).match(/--secret-id prod\/db /g)).toHaveLength(1);
  });

  it('reads a Kubernetes secret through kubectl', async () => {
    const config = await load(
      'databases:\n  - name: pg\n    type: postgres\n    database: d\n    password: "{{ k8s(\'analytics/warehouse/password\') }}"\n',
    );
    expect(config.databases[0]).toMatchObject({ password: 'k8s-pass' });
  });

  it.each([
    [
      "{{ aws('prod/missing/password') }}",
      '`aws` could not read it: An error occurred (ResourceNotFoundException)',
    ],
    ["{{ k8s('analytics/nope/password') }}", '`kubectl` could not read it: Error from server (NotFound)'],
    ["{{ aws('prod/db/cred.token') }}", "AWS secret 'prod/db' has no field 'cred.token'"],
  ])('keeps %s unresolved with the reason, for the runs that need it', async (placeholder, reason) => {
    const config = await load(
      `databases:\n  - name: pg\n    type: postgres\n    database: d\n    password: "${placeholder}"\n`,
    );
    expect(config.databases).toEqual([]);
    expect(config.unavailableDatabases[0]?.reason).toContain(`databases[0].password uses ${placeholder}`);
    expect(config.unavailableDatabases[0]?.reason).toContain(reason);
  });

  it('says so when the command line is not installed', async () => {
    const config = await load(
      'databases:\n  - name: pg\n    type: postgres\n    database: d\n    password: "{{ aws(\'prod/db/cred.password\') }}"\n',
      null,
    );
    expect(config.unavailableDatabases[0]?.reason).toContain('the `aws` command line is not installed here');
  });
});
