import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigInvalidError, ConfigNotFoundError, loadConfig, parseConfig } from './index.js';

const projectDir = '/projects/shop';

function parse(text: string, env: Record<string, string | undefined> = {}) {
  return parseConfig({ text, projectDir, env });
}

function problemsOf(text: string, env: Record<string, string | undefined> = {}): string[] {
  try {
    parse(text, env);
  } catch (error) {
    if (error instanceof ConfigInvalidError) return error.problems;
    throw error;
  }
  throw new Error('expected the config to be invalid');
}

describe('parseConfig: valid files', () => {
  it('fills the reference defaults for an empty file', () => {
    const config = parse('');
    expect(config.projectName).toBe('shop');
    expect(config.databases).toEqual([]);
    expect(config.test).toEqual({
      models: ['openai:gpt-4.1'],
      threads: 1,
      failFast: false,
      comparison: { rtol: 0.00001, atol: 0.00000001, decimals: 2 },
      timeoutMs: 900_000,
      statsCluster: 'test',
    });
    expect(config.agent).toEqual({
      maxSteps: 20,
      maxResultRows: 1_000_000,
      queryTimeoutMs: 300_000,
      queryMemoryLimit: '25%',
    });
    expect(config.warnings).toEqual([]);
  });

  it('reads every documented block', () => {
    const config = parse(`
project_name: jaffle
databases:
  - name: warehouse
    type: duckdb
    path: data/warehouse.duckdb
  - name: lite
    type: sqlite
    path: /abs/lite.db
  - name: pg
    type: postgres
    host: 127.0.0.1
    port: 5432
    user: postgres
    database: test
    schema: analytics
  - name: maria
    type: mysql
    url: mysql://root@127.0.0.1:3306/test
llm:
  providers:
    - provider: openai
      api_key: sk-test
      base_url: http://0.0.0.0:4000
      models:
        - id: my-proxy-alias
          costs:
            input_no_cache: 2.5
            output: 10
    - provider: openaiCompatible
      name: vllm
      base_url: http://localhost:8000/v1
test:
  models:
    - openai:gpt-4.1
    - anthropic:claude-sonnet-4-5
  threads: 4
  comparison:
    rtol: 0.001
    atol: 0
    decimals: 3
  timeout_s: 600
  stats:
    cluster: folder
agent:
  max_steps: 12
  max_result_rows: 5000
  query_timeout_s: 30
  query_memory_limit: 4GB
`);
    expect(config.projectName).toBe('jaffle');
    expect(config.databases.map((database) => database.name)).toEqual(['warehouse', 'lite', 'pg', 'maria']);
    expect(config.databases[0]).toMatchObject({
      type: 'duckdb',
      path: path.resolve(projectDir, 'data/warehouse.duckdb'),
    });
    expect(config.databases[1]).toMatchObject({ type: 'sqlite', path: '/abs/lite.db' });
    expect(config.databases[2]).toMatchObject({ type: 'postgres', port: 5432, schema: 'analytics' });
    expect(config.llm.providers[0]?.models[0]?.costs).toEqual({ input_no_cache: 2.5, output: 10 });
    expect(config.llm.providers[1]).toMatchObject({ provider: 'openaiCompatible', name: 'vllm' });
    expect(config.test).toEqual({
      models: ['openai:gpt-4.1', 'anthropic:claude-sonnet-4-5'],
      threads: 4,
      failFast: false,
      comparison: { rtol: 0.001, atol: 0, decimals: 3 },
      timeoutMs: 600_000,
      statsCluster: 'folder',
    });
    expect(config.agent).toEqual({
      maxSteps: 12,
      maxResultRows: 5000,
      queryTimeoutMs: 30_000,
      queryMemoryLimit: '4GB',
    });
    expect(config.warnings).toEqual([]);
  });

  it('keeps defaults for comparison keys that are left out', () => {
    expect(parse('test:\n  comparison:\n    decimals: 4\n').test.comparison).toEqual({
      rtol: 0.00001,
      atol: 0.00000001,
      decimals: 4,
    });
  });

  it('reads test.judge_model', () => {
    expect(parse('test:\n  judge_model: anthropic:claude-sonnet-4-5\n').test.judgeModel).toBe(
      'anthropic:claude-sonnet-4-5',
    );
    expect(parse('test:\n  threads: 2\n').test.judgeModel).toBeUndefined();
  });

  it('accepts a model id that itself holds colons', () => {
    expect(parse('test:\n  models: ["openaiCompatible/vllm:llama-3:8b"]\n').test.models).toEqual([
      'openaiCompatible/vllm:llama-3:8b',
    ]);
  });
});

describe('parseConfig: resource limits', () => {
  it('bounds every warehouse query and every run by default, without --timeout', () => {
    const config = parse('');
    expect(config.agent.queryTimeoutMs).toBe(300_000);
    expect(config.agent.queryMemoryLimit).toBe('25%');
    expect(config.test.timeoutMs).toBe(900_000);
    expect(config.warnings).toEqual([]);
  });

  it.each([
    ['agent:\n  query_timeout_s: 0.5\n', { queryTimeoutMs: 500 }],
    ['agent:\n  query_memory_limit: 50%\n', { queryMemoryLimit: '50%' }],
    ['agent:\n  query_memory_limit: 512MiB\n', { queryMemoryLimit: '512MiB' }],
  ])('reads %j', (text, expected) => {
    expect(parse(text).agent).toMatchObject(expected);
  });

  it.each([
    ['agent:\n  query_timeout_s: 0\n', 'agent.query_timeout_s: must be > 0 (seconds) (line 2)'],
    ['test:\n  timeout_s: -5\n', 'test.timeout_s: must be > 0 (seconds) (line 2)'],
    // Longer than a Node timer holds: it would fire at once and end every run immediately.
    [
      'test:\n  timeout_s: 3000000\n',
      'test.timeout_s: must be at most 2147483 (seconds, about 24 days) (line 2)',
    ],
    [
      'agent:\n  query_timeout_s: 1e12\n',
      'agent.query_timeout_s: must be at most 2147483 (seconds, about 24 days) (line 2)',
    ],
    [
      'agent:\n  query_memory_limit: lots\n',
      'agent.query_memory_limit: expected a share of the machine memory',
    ],
    [
      'agent:\n  query_memory_limit: 150%\n',
      'agent.query_memory_limit: expected a share of the machine memory',
    ],
    [
      'agent:\n  query_memory_limit: 0GB\n',
      'agent.query_memory_limit: expected a share of the machine memory',
    ],
  ])('refuses %j', (text, problem) => {
    expect(problemsOf(text).join('\n')).toContain(problem);
  });
});

describe('parseConfig: projects written for the original nao', () => {
  it.each(['llm', 'slack', 'test', 'databases', 'notion', 'mcp', 'agent'])(
    'reads `%s: null` as left out',
    (block) => {
      const config = parse(`${block}: null\n`);
      expect(config.databases).toEqual([]);
      expect(config.test.models).toEqual(['openai:gpt-4.1']);
      expect(config.warnings).toEqual([]);
    },
  );

  it.each([
    ['port: "5433"', 5433],
    ['port: 5433', 5433],
    ['port: "{{ env(\'PGPORT\') }}"', 6543],
    ["port: {{ env('PGPORT') }}", 6543],
  ])('reads %s as a number', (line, port) => {
    const config = parse(`databases:\n  - name: pg\n    type: postgres\n    database: d\n    ${line}\n`, {
      PGPORT: '6543',
    });
    expect(config.databases[0]).toMatchObject({ port });
  });

  it('reads the postgres `schema_name` as the schema searched first', () => {
    const config = parse(
      'databases:\n  - name: pg\n    type: postgres\n    database: d\n    schema_name: analytics\n',
    );
    expect(config.databases[0]).toMatchObject({ schema: 'analytics' });
    expect(config.databases[0]).not.toHaveProperty('schema_name');
  });

  it('opens a duckdb entry without `path` in memory, as the original does', () => {
    expect(parse('databases:\n  - name: mem\n    type: duckdb\n').databases[0]).toMatchObject({
      path: ':memory:',
    });
  });

  it('keeps include, exclude, exclude_columns and allow_listed_only', () => {
    const config = parse(
      'databases:\n  - name: w\n    type: duckdb\n    path: w.duckdb\n    include: ["main.*"]\n    exclude: [main.secret]\n    exclude_columns: ["*.email"]\n    allow_listed_only: true\n',
    );
    expect(config.databases[0]).toMatchObject({
      include: ['main.*'],
      exclude: ['main.secret'],
      exclude_columns: ['*.email'],
      allow_listed_only: true,
    });
  });

  it('reads the single-provider `llm` block as providers[0], its key included', () => {
    const config = parse(
      "llm:\n  provider: anthropic\n  api_key: {{ env('ANTHROPIC_API_KEY') }}\n  annotation_model: claude-sonnet-4-6\n",
      { ANTHROPIC_API_KEY: 'sk-ant-1' },
    );
    expect(config.llm.providers).toEqual([{ provider: 'anthropic', api_key: 'sk-ant-1', models: [] }]);
    expect(config.warnings.join('\n')).toContain('`llm` declares a single provider inline (line 1)');
    expect(config.warnings.join('\n')).not.toContain('unknown key');
  });

  it('names an unset key of the single-provider block by its place in providers[0]', () => {
    const config = parse("llm:\n  provider: openai\n  api_key: {{ env('OPENAI_API_KEY') }}\n");
    expect(config.llm.providers[0]?.unresolved?.api_key).toContain('OPENAI_API_KEY is not set');
  });

  it.each([
    ['gemini', { provider: 'google' }],
    ['google', { provider: 'google' }],
    ['openai-compatible/my-vllm', { provider: 'openaiCompatible', name: 'my-vllm' }],
    ['openai_compatible', { provider: 'openaiCompatible' }],
    ['requesty', { provider: 'requesty' }],
    ['qwen', { provider: 'qwen' }],
    ['minimax', { provider: 'minimax' }],
    ['moonshot', { provider: 'moonshot' }],
  ])('reads provider %s', (provider, expected) => {
    const config = parse(`llm:\n  providers:\n    - provider: ${provider}\n      base_url: http://x/v1\n`);
    expect(config.llm.providers[0]).toMatchObject(expected);
    expect(config.warnings).toEqual([]);
  });

  it.each(['bedrock', 'vertex'])('loads a %s provider with a warning: only its runs fail', (provider) => {
    const config = parse(`llm:\n  providers:\n    - provider: ${provider}\n      aws_region: us-east-1\n`);
    expect(config.llm.providers[0]).toMatchObject({ provider });
    expect(config.warnings.join('\n')).toContain(
      `llm.providers[0] is ${provider} (line 3), which nao cannot call yet`,
    );
  });

  it('keeps a database of a type only the original runs, as a warning and a placeholder', () => {
    const config = parse(
      'databases:\n  - name: sf\n    type: powerbi_xmla\n    account_id: x\n    warehouse: w\n  - name: w\n    type: duckdb\n    path: w.duckdb\n',
    );
    expect(config.databases.map((database) => database.name)).toEqual(['w']);
    expect(config.unavailableDatabases).toEqual([
      {
        name: 'sf',
        type: 'powerbi_xmla',
        reason: expect.stringContaining('type powerbi_xmla, which the original nao connects to'),
      },
    ]);
    expect(config.warnings).toEqual([
      'nao_config.yaml: databases[0] "sf" (line 3) is of type powerbi_xmla, which nao cannot query yet; runs that need it fail, the others run.',
    ]);
  });

  it('reads the original blocks nao test does not use without warnings', () => {
    const config = parse(
      'project_name: p\nthreads: 4\nrepos:\n  - name: dbt\n    url: https://x\nnotion:\n  api_key: k\nslack: null\nmcp:\n  json_file_path: m.json\nskills: null\nsemantic_layer: null\ntest:\n  fail_fast: true\ndatabases:\n  - name: d\n    type: duckdb\n    path: d.duckdb\n    templates: [columns, preview]\n    accessors: [columns]\n    profiling:\n      refresh_policy: interval\nllm:\n  annotation_model: m\n  providers:\n    - provider: openai\n      api_key: k\n      models:\n        - id: gpt-4.1\n          name: GPT\n          default: true\n',
    );
    expect(config.warnings).toEqual([]);
    expect(config.test.failFast).toBe(true);
  });
});

describe('parseConfig: env substitution', () => {
  it.each([
    ["api_key: {{ env('KEY') }}", 'sk-123'],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the GitHub Actions spelling, written in a YAML file
    ["api_key: ${{ env('KEY') }}", 'sk-123'],
    ['api_key: {{env("KEY")}}', 'sk-123'],
    ['api_key: \'{{ env("KEY") }}\'', 'sk-123'],
  ])('substitutes %s', (line, expected) => {
    const config = parse(`llm:\n  providers:\n    - provider: openai\n      ${line}\n`, { KEY: 'sk-123' });
    expect(config.llm.providers[0]?.api_key).toBe(expected);
  });

  it('keeps a value with YAML-special characters intact', () => {
    const secret = 'p#ss: w\'o"rd {x}';
    const config = parse(
      "databases:\n  - name: pg\n    type: postgres\n    database: test\n    password: {{ env('PGPASSWORD') }}\n",
      { PGPASSWORD: secret },
    );
    expect(config.databases[0]).toMatchObject({ password: secret });
  });

  it('types a plain placeholder by its value and substitutes inside longer strings', () => {
    const config = parse(
      "databases:\n  - name: pg\n    type: postgres\n    host: db-{{ env('ZONE') }}.local\n    port: {{ env('PGPORT') }}\n    database: test\n",
      { PGPORT: '5433', ZONE: 'eu' },
    );
    expect(config.databases[0]).toMatchObject({ host: 'db-eu.local', port: 5433 });
  });

  it('reads an unset variable as "" and keeps the database, naming the variable and the key for its runs', () => {
    const config = parse(
      "databases:\n  - name: pg\n    type: postgres\n    host: {{ env('PGHOST') }}\n    database: test\n    password: \"{{ env('PGPASSWORD') }}\"\n",
      { OTHER: 'x' },
    );
    expect(config.databases).toEqual([]);
    expect(config.unavailableDatabases).toHaveLength(1);
    const [database] = config.unavailableDatabases;
    expect(database).toMatchObject({ name: 'pg', type: 'postgres' });
    expect(database?.reason).toContain("databases[0].host uses {{ env('PGHOST') }} (PGHOST is not set)");
    expect(database?.reason).toContain(
      "databases[0].password uses {{ env('PGPASSWORD') }} (PGPASSWORD is not set)",
    );
    expect(database?.reason).toContain('export PGHOST, PGPASSWORD');
    expect(config.warnings).toEqual([]);
  });

  it('counts an empty variable as unset, as the original nao does', () => {
    const config = parse("databases:\n  - name: pg\n    type: postgres\n    database: {{ env('DB') }}\n", {
      DB: '',
    });
    expect(config.unavailableDatabases[0]?.reason).toContain('DB is not set');
  });

  it('leaves out a top-level value that was only an unset variable', () => {
    const config = parse("project_name: {{ env('PROJECT') }}\ntest:\n  threads: \"{{ env('THREADS') }}\"\n");
    expect(config.projectName).toBe('shop');
    expect(config.test.threads).toBe(1);
  });

  it('keeps a provider whose key is unset: the key reads as not given and says why', () => {
    const config = parse(
      "llm:\n  providers:\n    - provider: anthropic\n      api_key: {{ env('ANTHROPIC_API_KEY') }}\n",
    );
    expect(config.llm.providers[0]).toMatchObject({
      provider: 'anthropic',
      unresolved: {
        api_key:
          "llm.providers[0].api_key uses {{ env('ANTHROPIC_API_KEY') }} (ANTHROPIC_API_KEY is not set)",
      },
    });
    expect(config.llm.providers[0]?.api_key).toBeUndefined();
  });

  it.each([
    ["{{ aws('prod/db.password') }}", "{{ aws('prod/db.password') }}"],
    ["{{ k8s('analytics/pg/password') }}", "{{ k8s('analytics/pg/password') }}"],
  ])('keeps a secret-store reference %s unresolved at load time', (placeholder, described) => {
    const config = parse(
      `databases:\n  - name: pg\n    type: postgres\n    database: test\n    password: "${placeholder}"\n`,
    );
    expect(config.unavailableDatabases[0]?.reason).toContain(`databases[0].password uses ${described}`);
  });
});

describe('parseConfig: invalid files', () => {
  it.each([
    [
      'databases:\n  - name: a\n    type: duckdb\n    path: x\n  - name: b\n    type: oracle\n',
      'databases[1].type: unknown database type "oracle": expected one of duckdb, sqlite, postgres, mysql',
    ],
    ['databases:\n  - name: b\n    type: postgress\n', 'did you mean `postgres`?'],
    ['databases:\n  - name: b\n    type: snowflak\n', 'did you mean `snowflake`?'],
    ['databases:\n  - name: b\n', 'databases[0].type: missing: expected one of'],
    ['databases: yes\n', 'databases: expected a list of databases'],
    ['databases:\n  - type: duckdb\n    path: x\n', 'databases[0].name:'],
    ['databases:\n  - name: a\n    type: sqlite\n', 'databases[0].path:'],
    [
      'databases:\n  - name: a\n    type: postgres\n    host: localhost\n',
      'databases[0]: give either `url` or `host`/`database`',
    ],
    ['databases:\n  - name: a\n    type: mysql\n    database: test\n    port: 70000\n', 'databases[0].port:'],
    [
      'databases:\n  - name: a\n    type: duckdb\n    path: x\n  - name: a\n    type: sqlite\n    path: y\n',
      'databases[1].name: duplicate database name "a" (also databases[0]) (line 5)',
    ],
    [
      'llm:\n  providers:\n    - provider: azure\n',
      'llm.providers[0].provider: expected one of openai, anthropic, google, mistral, openrouter, ollama, openaiCompatible, requesty, qwen, minimax, moonshot, bedrock, vertex (line 3)',
    ],
    [
      'llm:\n  providers:\n    - provider: openai\n      name: x\n',
      'llm.providers[0].name: only openaiCompatible providers are named',
    ],
    [
      'llm:\n  providers:\n    - provider: openai\n    - provider: openai\n',
      'llm.providers[1].provider: provider openai is configured more than once (also llm.providers[0])',
    ],
    [
      'llm:\n  providers:\n    - provider: openaiCompatible/a\n      base_url: http://x\n    - provider: openaiCompatible\n      name: a\n      base_url: http://y\n',
      'llm.providers[1].name: provider openaiCompatible/a is configured more than once',
    ],
    [
      'llm:\n  providers:\n    - provider: openaiCompatible\n      name: x\n',
      'llm.providers[0].base_url: an openaiCompatible provider needs a `base_url`',
    ],
    [
      'llm:\n  providers:\n    - provider: openai\n      models:\n        - id: m\n          costs:\n            output: -1\n',
      'llm.providers[0].models[0].costs.output: must be >= 0 (USD per million tokens) (line 7)',
    ],
    ['llm:\n  meta:\n    costs:\n      input_no_cache: -2\n', 'llm.meta.costs.input_no_cache: must be >= 0'],
    ['test:\n  models: []\n', 'test.models: list at least one model'],
    ['test:\n  models: ["gpt-4.1"]\n', 'test.models[0]: expected `provider:model_id`'],
    ['test:\n  models: [":gpt-4.1"]\n', 'test.models[0]: expected `provider:model_id`'],
    ['test:\n  models: ["openai:"]\n', 'test.models[0]: expected `provider:model_id`'],
    ['test:\n  judge_model: gpt-4.1\n', 'test.judge_model: expected `provider:model_id`'],
    ['test:\n  threads: 0\n', 'test.threads: must be >= 1 (line 2)'],
    ['test:\n  threads: 2.5\n', 'test.threads: must be an integer'],
    ['test:\n  threads: "four"\n', 'test.threads:'],
    ['test:\n  fail_fast: maybe\n', 'test.fail_fast:'],
    ['databases:\n  - name: a\n    type: postgres\n    database: d\n    port: "54x"\n', 'databases[0].port:'],
    ['test:\n  comparison:\n    rtol: -0.1\n', 'test.comparison.rtol: must be >= 0 (line 3)'],
    ['test:\n  comparison:\n    atol: -1\n', 'test.comparison.atol: must be >= 0'],
    ['test:\n  comparison:\n    decimals: 1.5\n', 'test.comparison.decimals: must be an integer'],
    ['test:\n  comparison:\n    decimals: -1\n', 'test.comparison.decimals: must be >= 0'],
    ['agent:\n  max_steps: 0\n', 'agent.max_steps: must be >= 1'],
  ])('%j → %s', (text, expected) => {
    expect(problemsOf(text).join('\n')).toContain(expected);
  });

  it('lists every problem of the file in one error', () => {
    const problems = problemsOf(
      'test:\n  threads: 0\n  comparison:\n    rtol: -1\ndatabases:\n  - name: a\n    type: nope\n',
    );
    expect(problems).toHaveLength(3);
  });

  it('reports YAML syntax errors with their line', () => {
    const problems = problemsOf('test:\n  threads: 2\n  models: [openai:gpt-4.1\n');
    expect(problems[0]).toMatch(/line \d+/);
  });

  it('refuses a file of several YAML documents, naming where the second starts', () => {
    expect(problemsOf('project_name: a\n---\nproject_name: b\n')).toEqual([
      'holds 2 YAML documents (line 2)',
    ]);
  });

  it('rejects a file that is not a mapping', () => {
    expect(problemsOf('- a\n- b\n')[0]).toContain('must be a mapping');
  });

  it('is a usage error (exit code 2 in the CLI) with a stable code', () => {
    try {
      parse('test:\n  threads: 0\n');
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigInvalidError);
      expect((error as ConfigInvalidError).code).toBe('CONFIG_INVALID');
      expect((error as Error).message).toMatch(/^nao_config\.yaml is invalid:\n {2}- test\.threads/);
    }
  });
});

describe('parseConfig: warnings', () => {
  it.each([
    ['test:\n  thraeds: 4\n', 'unknown key `test.thraeds` (line 2) is ignored — did you mean `threads`?'],
    ['databses: []\n', 'unknown key `databses` (line 1) is ignored — did you mean `databases`?'],
    ['llm:\n  providers:\n    - provider: openai\n      apikey: x\n', 'did you mean `api_key`?'],
    [
      'databases:\n  - name: a\n    type: duckdb\n    path: x\n    schema: main\n',
      'unknown key `databases[0].schema`',
    ],
    ['test:\n  comparison:\n    decimal: 3\n', 'did you mean `decimals`?'],
    ['colour: blue\n', 'unknown key `colour` (line 1) is ignored'],
  ])('%j warns %s', (text, expected) => {
    expect(parse(text).warnings.join('\n')).toContain(expected);
  });

  it('warns that llm.meta.costs is deprecated but still reads it', () => {
    const config = parse('llm:\n  meta:\n    costs:\n      input_no_cache: 1\n      output: 2\n');
    expect(config.llm.deprecatedCosts).toEqual({ input_no_cache: 1, output: 2 });
    expect(config.warnings.join('\n')).toContain('`llm.meta.costs` is deprecated (line 3)');
  });
});

describe('loadConfig', () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('says which folder has no nao_config.yaml', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'nao-config-'));
    await expect(loadConfig({ projectDir: dir, env: {} })).rejects.toThrow(ConfigNotFoundError);
    await expect(loadConfig({ projectDir: dir, env: {} })).rejects.toThrow(
      `No nao_config.yaml found in ${dir}`,
    );
  });

  it('reads the file of the folder and resolves paths against it', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'nao-config-'));
    await writeFile(
      path.join(dir, 'nao_config.yaml'),
      'databases:\n  - name: w\n    type: duckdb\n    path: w.duckdb\n',
    );
    const config = await loadConfig({ projectDir: dir, env: {} });
    expect(config.configPath).toBe(path.join(dir, 'nao_config.yaml'));
    expect(config.databases[0]).toMatchObject({ path: path.join(dir, 'w.duckdb') });
  });
});

describe('parseConfig: env placeholders in comments', () => {
  it('ignores placeholders that only appear in comments', () => {
    const config = parse("# password: {{ env('PGPASSWORD') }}\nproject_name: shop # {{ env('NOPE') }}\n");
    expect(config.projectName).toBe('shop');
  });

  it('still substitutes a quoted value that contains a #', () => {
    const config = parse('project_name: "a #b {{ env(\'X\') }}"\n', { X: 'y' });
    expect(config.projectName).toBe('a #b y');
  });
});
