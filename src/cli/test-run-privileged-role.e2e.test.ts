/**
 * The agent's attack on a PostgreSQL warehouse reached as its superuser (issue #31), through
 * the built `nao` binary and the scripted stand-in analyst: without `allow_privileged_role` the
 * database is refused with the grants to use; with it, nao warns once, the agent's
 * `COPY … TO PROGRAM` is refused, and its ordinary SELECT answers.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnBuiltNao } from '../../test-support/cli/built-nao.js';
import { copyExampleProject, type ExampleCopy, REPO_ROOT } from '../../test-support/cli/example-project.js';
import { latestResults } from '../../test-support/cli/run-cli.js';
import { startTestLlmServer, type TestLlmServer } from '../../test-support/llm-server/index.js';
import { type ScriptedAnswer, scriptedAnalyst } from '../../test-support/llm-server/scripted-analyst.js';
import { missingPostgres, POSTGRES_SERVER, skipWhenMissing } from '../../test-support/local-servers.js';

const skip = skipWhenMissing({ tests: 'the privileged-role CLI tests', missing: await missingPostgres() });

const PROMPT = 'How many items are there?';
/** Where the attack would create a file, as the server's user. */
const TARGET = `/tmp/nao-attack-${randomBytes(4).toString('hex')}`;
const ATTACK = `COPY (SELECT 1) TO PROGRAM 'touch ${TARGET}'`;
const SQL = 'SELECT count(*) AS n FROM items';

let answers: Record<string, ScriptedAnswer> = {};
let server: TestLlmServer;
let project: ExampleCopy;
let admin: pg.Client;
const schema = `nao_e2e_${randomBytes(4).toString('hex')}`;

/** The project's databases: only the fixture schema on the local server, as its superuser. */
async function configure(extra: string): Promise<void> {
  const file = path.join(project.dir, 'nao_config.yaml');
  const { host, port, user, database } = POSTGRES_SERVER;
  const databases =
    'databases:\n  - name: warehouse\n    type: postgres\n' +
    `    host: ${host}\n    port: ${port}\n    user: ${user}\n    password: hunter2-secret\n` +
    `    database: ${database}\n    schema: ${schema}\n${extra}`;
  const config = (await readFile(file, 'utf8')).replace(/databases:[\s\S]*?(?=\nllm:)/, databases);
  await writeFile(file, config);
}

function nao(args: string[]) {
  return spawnBuiltNao({ args: ['test', '--local', ...args], cwd: project.dir }).ended;
}

async function serverHasFile(file: string): Promise<boolean> {
  const result = await admin.query('SELECT (pg_stat_file($1, true)).size IS NOT NULL AS found', [file]);
  return result.rows[0].found;
}

describe.skipIf(skip)('nao test on a PostgreSQL warehouse reached as its superuser', () => {
  beforeAll(async () => {
    if (!existsSync(path.join(REPO_ROOT, 'dist', 'cli', 'main.js'))) {
      throw new Error('dist/ is missing: these tests run the built `nao` binary; run `npm run build`.');
    }
    admin = new pg.Client(POSTGRES_SERVER);
    await admin.connect();
    await admin.query(
      `CREATE SCHEMA ${schema}; CREATE TABLE ${schema}.items AS SELECT i AS id FROM generate_series(1, 42) AS i`,
    );
    server = await startTestLlmServer({ script: (request) => scriptedAnalyst({ answers })(request) });
    project = await copyExampleProject({ baseUrl: server.url });
    const dir = path.join(project.dir, 'tests', 'attack');
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'count_items.yml'), `prompt: ${PROMPT}\nsql: ${SQL}\n`);
    answers = { [PROMPT]: { sql: [ATTACK, SQL], text: 'There are 42 items.' } };
  });

  afterAll(async () => {
    await project?.cleanup();
    await server?.close();
    await admin?.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin?.end();
  });

  it('refuses the database without allow_privileged_role, naming the grants; the run is an error', async () => {
    await configure('');
    const run = await nao(['-s', 'attack']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('nao refuses to connect as role "postgres", which holds superuser');
    expect(run.stderr).toContain(`GRANT SELECT ON ALL TABLES IN SCHEMA "${schema}" TO nao_reader;`);
    expect(run.stderr).not.toContain('hunter2');
    const [result] = (await latestResults(project.dir)).results;
    expect(result).toMatchObject({ name: 'count_items', status: 'error' });
    expect(await serverHasFile(TARGET)).toBe(false);
  }, 60_000);

  it('with allow_privileged_role, warns once, refuses the COPY TO PROGRAM and answers the SELECT', async () => {
    await configure('    allow_privileged_role: true\n');
    const run = await nao(['-s', 'attack']);
    const warnings = run.stderr.split('\n').filter((line) => line.startsWith('Warning: '));
    expect(warnings).toEqual([expect.stringContaining('connects as role "postgres", which holds superuser')]);
    expect(run.stderr).not.toContain('hunter2');
    expect(run.code).toBe(0);
    const file = await latestResults(project.dir);
    expect(file.results[0]).toMatchObject({ name: 'count_items', status: 'passed' });
    // The refusal went back to the model as the tool's answer.
    expect(JSON.stringify(file.results[0])).toContain(
      'nao runs only queries (SELECT, WITH, VALUES, TABLE); this statement starts with COPY',
    );
    expect(await serverHasFile(TARGET)).toBe(false);
  }, 60_000);
});
