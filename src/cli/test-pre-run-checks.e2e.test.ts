import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startBackendProcess } from '../../test-support/backend/backend-process.js';
import { spawnBuiltNao } from '../../test-support/cli/built-nao.js';
import { copyExampleProject, type ExampleCopy, REPO_ROOT } from '../../test-support/cli/example-project.js';
import { latestResults } from '../../test-support/cli/run-cli.js';
import { startTestLlmServer, type TestLlmServer } from '../../test-support/llm-server/index.js';
import { type ScriptedAnswer, scriptedAnalyst } from '../../test-support/llm-server/scripted-analyst.js';

/**
 * What `nao test validate` and `nao test` find before any model is called: every check here
 * asserts the stand-in LLM server received no request, so nothing was paid for.
 */
let server: TestLlmServer;
let project: ExampleCopy;
let answers: Record<string, ScriptedAnswer> = {};
const added: string[] = [];

beforeAll(async () => {
  if (!existsSync(path.join(REPO_ROOT, 'dist', 'cli', 'main.js')))
    throw new Error(
      'dist/ is missing: these tests run the built `nao` binary; run `npm run build` (npm test does).',
    );
  server = await startTestLlmServer({ script: (request) => scriptedAnalyst({ answers })(request) });
  project = await copyExampleProject({ baseUrl: server.url });
});
afterAll(async () => {
  await project.cleanup();
  await server.close();
});
afterEach(async () => {
  answers = {};
  server.requests.length = 0;
  await Promise.all(added.splice(0).map((file) => rm(file, { force: true })));
});

async function addTest(name: string, text: string): Promise<void> {
  const file = path.join(project.dir, 'tests', `${name}.yml`);
  added.push(file);
  await writeFile(file, text);
}

/** The built `nao` binary, as a user or CI runs it. */
function nao(args: string[], env: Record<string, string> = {}) {
  return spawnBuiltNao({ args, cwd: project.dir, env }).ended;
}

describe('a misspelt key in a test file', () => {
  it('stops validate and the run with exit 2, naming the file, the key and the fix', async () => {
    await addTest('typo_sql', 'prompt: How many orders are there?\nsqll: SELECT COUNT(*) FROM orders\n');
    const expected =
      'typo_sql.yml: sqll: unknown key, did you mean `sql`? Rename it: nao would ignore it and run the test without its `sql`';

    const validate = await nao(['test', 'validate']);
    expect(validate.code).toBe(2);
    expect(validate.stderr).toContain(expected);

    const run = await nao(['test', '--local', '-s', 'typo_sql']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(expected);
    expect(run.stderr).toContain('nothing was run');
    // The whole suite too, whatever is selected: the broken file is found before anything runs.
    const all = await nao(['test', '--local', '-s', 'total_revenue']);
    expect(all.code).toBe(2);
    expect(server.requests).toHaveLength(0);
  });

  it('stays a warning when the key is no near-miss of a known one, and the test runs', async () => {
    await addTest(
      'extension_key',
      'prompt: How many orders are there?\nsql: SELECT COUNT(*) AS n FROM orders\nowner: finance\n',
    );
    answers = { 'How many orders are there?': { sql: 'SELECT COUNT(*) AS n FROM orders' } };
    const validate = await nao(['test', 'validate']);
    expect(validate.stderr).toContain('Warning: extension_key.yml: unknown key `owner` is ignored');
    expect(validate.code).toBe(0);
    const run = await nao(['test', '--local', '-s', 'extension_key']);
    expect(run.code).toBe(0);
  });
});

describe('a reference SQL its database cannot run', () => {
  const broken = 'prompt: How many widgets were sold?\nsql: SELECT SUM(quantity) AS sold FROM widgets\n';
  const engine = 'Catalog Error: Table with name widgets does not exist!';

  it('is a problem of validate, with the engine message once; --offline does not connect', async () => {
    await addTest('broken_sql', broken);
    const validate = await nao(['test', 'validate']);
    expect(validate.code).toBe(2);
    expect(validate.stderr).toContain(
      `broken_sql.yml: sql: reference SQL failed: database "shop" (duckdb): ${engine}`,
    );
    expect(validate.stderr.match(/failed/g)).toHaveLength(1);
    expect(validate.stderr).toContain('\n\n1 problem in 1 test file.\n');

    const offline = await nao(['test', 'validate', '--offline']);
    expect(offline.code).toBe(0);
    expect(offline.stdout).toMatch(/test file\(s\) are valid\.\n$/);
    expect(server.requests).toHaveLength(0);
  });

  it('counts the reference SQL it planned when every one is fine', async () => {
    const validate = await nao(['test', 'validate']);
    expect(validate.code).toBe(0);
    expect(validate.stdout).toContain(
      `are valid (${project.tests.length} reference SQL planned on their databases).`,
    );
  });

  it('makes the runs of that test errors before any model call; the other tests run', async () => {
    await addTest('broken_sql', broken);
    const alone = await nao(['test', '--local', '-s', 'broken_sql']);
    expect(alone.code).toBe(1);
    expect(server.requests).toHaveLength(0);
    expect(alone.stderr).toContain(
      `Warning: broken_sql.yml: its runs are errors and call no model (the others run): reference SQL failed: database "shop" (duckdb): ${engine}`,
    );
    const [result] = (await latestResults(project.dir)).results;
    expect(result).toMatchObject({
      name: 'broken_sql',
      status: 'error',
      tokens: 0,
      message: expect.stringContaining(`reference SQL failed: database "shop" (duckdb): ${engine}`),
    });
    // The engine's position points at the test's own first line (nao's EXPLAIN shares it).
    expect(result?.message).toContain('LINE 1:');
    expect(result?.message.match(/failed/g)).toHaveLength(1);
    expect(result?.details.reference_sql).toContain('FROM widgets');
    expect(alone.stdout).toContain('broken_sql');

    const revenue = project.tests.find((test) => test.name === 'total_revenue')!;
    answers = { [revenue.prompt]: { sql: revenue.sql } };
    const mixed = await nao(['test', '--local', '-s', 'broken_sql,total_revenue']);
    expect(mixed.code).toBe(1);
    const results = (await latestResults(project.dir)).results;
    expect(results.map((r) => [r.name, r.status])).toEqual([
      ['broken_sql', 'error'],
      ['total_revenue', 'passed'],
    ]);
    // Every model request was total_revenue's: its prompt is in each agent conversation.
    expect(server.requests.length).toBeGreaterThan(0);
    expect(JSON.stringify(server.requests.map((request) => request.messages))).not.toContain('widgets');
  });

  it('through a nao chat backend, is found here before the backend runs an agent for it', async () => {
    const home = await mkdtemp(path.join(tmpdir(), 'nao-home-'));
    const backend = await startBackendProcess({ cwd: project.dir });
    try {
      const login = { email: 'checks@example.com', password: 'pw-pre-run-checks-5c1d' };
      const signup = await fetch(`${backend.url}/api/auth/signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(login),
      });
      expect(signup.status).toBe(200);
      await addTest('broken_sql', broken);
      const run = await nao(
        [
          'test',
          '-u',
          login.email,
          '--password',
          login.password,
          '--backend',
          backend.url,
          '-s',
          'broken_sql',
        ],
        { NAO_HOME: home },
      );
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(
        `Warning: broken_sql.yml: its runs are errors and call no model (the others run): reference SQL failed: database "shop" (duckdb): ${engine}`,
      );
      expect(server.requests).toHaveLength(0);
      const [result] = (await latestResults(project.dir)).results;
      expect(result).toMatchObject({ name: 'broken_sql', status: 'error', tokens: 0 });
    } finally {
      await backend.stop();
      await rm(home, { recursive: true, force: true });
    }
  }, 90_000);
});

describe('a DuckDB reference SQL of several statements', () => {
  // The second statement reads the temp table the first makes: planned alone it is missing.
  const prompt = 'How many orders were delivered?';
  const twoStatements =
    `prompt: ${prompt}\nsql: |\n` +
    "  CREATE TEMP TABLE delivered AS SELECT * FROM orders WHERE status = 'delivered';\n" +
    '  SELECT COUNT(*) AS delivered_orders FROM delivered\n';

  it('is left to the run: validate notes it (exit 0), and the run compares its last result', async () => {
    await addTest('two_statements', twoStatements);
    const validate = await nao(['test', 'validate']);
    expect(validate.code).toBe(0);
    expect(validate.stderr).toContain(
      'Note: two_statements.yml: the reference SQL was not checked: it has 2 statements; only a single statement is planned ahead of the run',
    );
    expect(server.requests).toHaveLength(0);

    answers = {
      [prompt]: { sql: "SELECT COUNT(*) AS delivered_orders FROM orders WHERE status = 'delivered'" },
    };
    const run = await nao(['test', '--local', '-s', 'two_statements']);
    expect(run.code).toBe(0);
    const [result] = (await latestResults(project.dir)).results;
    expect(result).toMatchObject({ name: 'two_statements', status: 'passed' });
  });
});

describe("a test's database", () => {
  it('with several configured and none named, stops validate and the run alike (exit 2, no model call)', async () => {
    const configFile = path.join(project.dir, 'nao_config.yaml');
    const config = await readFile(configFile, 'utf8');
    await writeFile(
      configFile,
      config.replace(
        'databases:\n',
        'databases:\n  - name: scratch\n    type: duckdb\n    path: ":memory:"\n',
      ),
    );
    try {
      await addTest(
        'unnamed_database',
        'prompt: How many orders are there?\nsql: SELECT COUNT(*) AS n FROM orders\n',
      );
      const expected =
        'unnamed_database.yml: database: several databases are configured (scratch, shop); name the one the reference SQL runs on';
      const validate = await nao(['test', 'validate', '--offline']);
      expect(validate.code).toBe(2);
      expect(validate.stderr).toContain(expected);
      const run = await nao(['test', '--local', '-s', 'unnamed_database']);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(expected);
      expect(run.stderr).toContain('nothing was run');
      expect(server.requests).toHaveLength(0);
      // Listing does not need the database decided.
      const list = await nao(['test', 'list', '-s', 'unnamed_database']);
      expect(list.code).toBe(0);
    } finally {
      await writeFile(configFile, config);
    }
  });
});

describe('--max-cost with a model that has no price', () => {
  it('stops before any run (exit 2), naming the model and the costs key; a declared price lets it run', async () => {
    const configFile = path.join(project.dir, 'nao_config.yaml');
    const config = await readFile(configFile, 'utf8');
    const withModel = (entry: string) =>
      writeFile(
        configFile,
        config.replace('        - id: gpt-4.1-mini\n', `        - id: gpt-4.1-mini\n${entry}`),
      );
    try {
      await withModel('        - id: house-model\n');
      const run = await nao([
        'test',
        '--local',
        '-s',
        'total_revenue',
        '-m',
        'openai:house-model',
        '--max-cost',
        '1',
      ]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(
        '--max-cost 1 cannot be kept: openai:house-model has no price (nao_config.yaml declares none and the built-in price table does not know the model), so what it spends would not count. Declare its prices in nao_config.yaml under llm.providers[].models[].costs (input_no_cache and output, USD per million tokens), or run without --max-cost.',
      );
      expect(server.requests).toHaveLength(0);

      // The same model as a judge of a priced one.
      const judged = await nao([
        'test',
        '--local',
        '-s',
        'total_revenue',
        '--judge-model',
        'openai:house-model',
        '--max-cost',
        '1',
      ]);
      expect(judged.code).toBe(2);
      expect(judged.stderr).toContain('openai:house-model has no price');
      expect(server.requests).toHaveLength(0);

      await withModel('        - id: house-model\n          costs: { input_no_cache: 1, output: 2 }\n');
      const revenue = project.tests.find((test) => test.name === 'total_revenue')!;
      answers = { [revenue.prompt]: { sql: revenue.sql } };
      const priced = await nao([
        'test',
        '--local',
        '-s',
        'total_revenue',
        '-m',
        'openai:house-model',
        '--max-cost',
        '1',
      ]);
      expect(priced.code).toBe(0);
      expect(server.requests.length).toBeGreaterThan(0);
    } finally {
      await writeFile(configFile, config);
    }
  });
});
