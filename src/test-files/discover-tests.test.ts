import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NaoError } from '../errors/index.js';
import { discoverTests } from './discover-tests.js';

let root: string;
let testsDir: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'nao-discover-'));
  testsDir = path.join(root, 'tests');
  await mkdir(testsDir);
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function write(files: Record<string, string>): Promise<void> {
  for (const [relative, text] of Object.entries(files)) {
    const file = path.join(testsDir, ...relative.split('/'));
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, text);
  }
}

function prompt(name?: string): string {
  return `${name === undefined ? '' : `name: ${name}\n`}prompt: How many orders?\nsql: SELECT count(*) FROM orders\n`;
}

describe('discoverTests: finding files', () => {
  it('loads .yml and .yaml files at any depth, sorted by relative path', async () => {
    await write({
      'total_revenue.yml': prompt(),
      'customer_metrics.yaml': prompt(),
      'contracts/orders.yml': prompt('contract_orders'),
      'contracts/eu/refunds.YML': prompt(),
      'a/b/c/d/deep.yaml': prompt(),
    });
    const { tests, problems, warnings } = await discoverTests({ testsDir });
    expect(problems).toEqual([]);
    expect(warnings).toEqual([]);
    expect(tests.map((test) => [test.relativePath, test.name, test.folders])).toEqual([
      ['a/b/c/d/deep.yaml', 'deep', ['a', 'b', 'c', 'd']],
      ['contracts/eu/refunds.YML', 'refunds', ['contracts', 'eu']],
      ['contracts/orders.yml', 'contract_orders', ['contracts']],
      ['customer_metrics.yaml', 'customer_metrics', []],
      ['total_revenue.yml', 'total_revenue', []],
    ]);
    expect(tests[2]!.filePath).toBe(path.join(testsDir, 'contracts', 'orders.yml'));
  });

  it('sorts by the code units of the relative path, not by the locale', async () => {
    // 'a-b.yml' < 'a.yml' < 'a_b.yml' because '-' < '.' < '_'; uppercase before lowercase.
    const names = ['b', 'B', 'a', 'ä', '_x', '10', '9', 'a-b', 'a_b'];
    await write(Object.fromEntries(names.map((name) => [`${name}.yml`, prompt()])));
    const { tests } = await discoverTests({ testsDir });
    expect(tests.map((test) => test.name)).toEqual(['10', '9', 'B', '_x', 'a-b', 'a', 'a_b', 'b', 'ä']);
  });

  it('skips outputs/ and recordings/ folders at any depth', async () => {
    await write({
      'kept.yml': prompt(),
      'outputs/results.yml': 'not: a test',
      'recordings/run.yaml': 'not: a test',
      'contracts/outputs/old.yml': 'not: a test',
      'contracts/recordings/x/y.yml': 'not: a test',
      'contracts/output/kept_too.yml': prompt(),
    });
    const { tests, problems } = await discoverTests({ testsDir });
    expect(problems).toEqual([]);
    expect(tests.map((test) => test.relativePath)).toEqual(['contracts/output/kept_too.yml', 'kept.yml']);
  });

  it('ignores files that are not YAML and folders named like YAML files', async () => {
    await write({
      'notes.md': '# notes',
      'orders.yml.bak': 'broken: [',
      'data.json': '{}',
      'folder.yml/inner.yml': prompt(),
      README: 'read me',
    });
    const { tests, problems } = await discoverTests({ testsDir });
    expect(problems).toEqual([]);
    expect(tests.map((test) => test.relativePath)).toEqual(['folder.yml/inner.yml']);
  });

  it('returns nothing for an empty tests folder', async () => {
    expect(await discoverTests({ testsDir })).toEqual({ tests: [], problems: [], warnings: [] });
  });

  it('resolves a relative tests folder to absolute file paths', async () => {
    await write({ 'a.yml': prompt() });
    const { tests } = await discoverTests({ testsDir: path.relative(process.cwd(), testsDir) });
    expect(tests[0]!.filePath).toBe(path.join(testsDir, 'a.yml'));
  });

  it('follows symlinks to files and folders inside tests/ and survives a symlink loop', async () => {
    await write({ 'shared/real.yml': prompt('shared') });
    await symlink(path.join(testsDir, 'shared', 'real.yml'), path.join(testsDir, 'link.yml'));
    await symlink(testsDir, path.join(testsDir, 'shared', 'loop'));
    const { tests, problems } = await discoverTests({ testsDir });
    expect(tests.map((test) => test.relativePath)).toEqual(['link.yml', 'shared/real.yml']);
    // The same file under two paths: the suite would run it twice.
    expect(problems.map((problem) => problem.message)).toEqual([
      'duplicate test name "shared", used by link.yml, shared/real.yml; give each test a unique `name`',
    ]);
  });
});

describe('discoverTests: hostile files', () => {
  const SECRET = 'root:x:0:0:root:/root:/bin/bash';

  /** Every text discovery gives back, as the CLI and the viewer would print it. */
  function printed(discovered: Awaited<ReturnType<typeof discoverTests>>): string {
    return JSON.stringify([discovered.problems, discovered.warnings]);
  }

  it('refuses a test file that is a symlink out of tests/, naming the link and not printing its content', async () => {
    await write({ 'good.yml': prompt() });
    await mkdir(path.join(root, 'outside'));
    await writeFile(path.join(root, 'outside', 'passwd'), `${SECRET}\n`);
    await symlink(path.join(root, 'outside', 'passwd'), path.join(testsDir, 'x.yml'));
    const discovered = await discoverTests({ testsDir });
    expect(discovered.tests.map((test) => test.name)).toEqual(['good']);
    expect(discovered.problems).toEqual([
      {
        file: 'x.yml',
        field: null,
        message: expect.stringContaining('is a symbolic link out of tests/'),
      },
    ]);
    expect(printed(discovered)).not.toContain('root:x');
  });

  it('does not walk a folder that is a symlink out of tests/', async () => {
    await mkdir(path.join(root, 'outside'));
    await writeFile(path.join(root, 'outside', 'stolen.yml'), `name: stolen\nprompt: ${SECRET}\n`);
    await symlink(path.join(root, 'outside'), path.join(testsDir, 'more'));
    const discovered = await discoverTests({ testsDir });
    expect(discovered.tests).toEqual([]);
    expect(discovered.problems).toEqual([
      { file: 'more', field: null, message: expect.stringContaining('is a symbolic link out of tests/') },
    ]);
    expect(printed(discovered)).not.toContain('root:x');
  });

  it.each([
    ['a one-line file of 6 MB', `${'B'.repeat(6_000_000)}\n`],
    ['a 6 MB name with a comma', `name: a,${'B'.repeat(6_000_000)}\nprompt: x\n`],
    ['a 6 MB unknown database', `prompt: x\ndatabase: ${'B'.repeat(6_000_000)}\n`],
    ['a 6 MB assertion type', `prompt: x\nassertions:\n  - type: ${'B'.repeat(6_000_000)}\n`],
    ['a 1,000-character unknown key', `prompt: x\n${'k'.repeat(1000)}: 1\n`],
  ])('quotes at most a short excerpt of %s', async (_label, text) => {
    await write({ 'big.yml': text });
    const discovered = await discoverTests({ testsDir, databaseNames: ['warehouse'] });
    expect(discovered.problems.length + discovered.warnings.length).toBeGreaterThan(0);
    for (const line of [...discovered.problems.map((problem) => problem.message), ...discovered.warnings]) {
      expect(line.length).toBeLessThan(600);
    }
    expect(printed(discovered)).not.toContain('B'.repeat(250));
    expect(printed(discovered)).not.toContain('k'.repeat(250));
  });
});

describe('discoverTests: setup errors', () => {
  it('throws a typed error naming a missing tests folder', async () => {
    const missing = path.join(root, 'nope', 'tests');
    const error = await discoverTests({ testsDir: missing }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NaoError);
    expect(error).toMatchObject({ code: 'TESTS_DIR_NOT_FOUND' });
    expect((error as Error).message).toContain(`Tests folder not found: ${missing}`);
  });

  it('throws a typed error when the tests path is a file', async () => {
    const file = path.join(root, 'tests.yml');
    await writeFile(file, prompt());
    await expect(discoverTests({ testsDir: file })).rejects.toMatchObject({
      code: 'TESTS_DIR_NOT_A_DIRECTORY',
      message: expect.stringContaining(file),
    });
  });
});

describe('discoverTests: problems', () => {
  it('collects every problem of every file and keeps the valid tests', async () => {
    await write({
      'good.yml': prompt(),
      'broken.yml': 'prompt: "unclosed\n',
      'list.yml': '- prompt: q\n',
      'empty.yaml': '',
      'nested/bad_assertion.yml':
        'prompt: q\nassertions:\n  - {type: tool_call, tool: read}\n  - {type: tool_call, tool: read, min_count: 0}\n',
      'nested/no_prompt.yml': 'sql: SELECT 1\n',
    });
    const { tests, problems } = await discoverTests({ testsDir });
    expect(tests.map((test) => test.relativePath)).toEqual(['good.yml']);
    expect(problems).toEqual([
      {
        file: 'broken.yml',
        field: null,
        message: 'invalid YAML at line 2, column 1: Missing closing "quote',
      },
      {
        file: 'empty.yaml',
        field: null,
        message: 'is empty: a test file is a mapping with at least `prompt` (and usually `sql`)',
      },
      {
        file: 'list.yml',
        field: null,
        message:
          'must be a mapping of fields (name, prompt, sql, expected_answer, database, assertions, ordered, comparison, allow_clarification, requires_data), found a list',
      },
      {
        file: 'nested/bad_assertion.yml',
        field: 'assertions[1].min_count',
        message: 'must be an integer >= 1',
      },
      {
        file: 'nested/no_prompt.yml',
        field: 'prompt',
        message: 'is required: the question the agent must answer',
      },
    ]);
  });

  it('reports a duplicate name once, listing every file that uses it', async () => {
    await write({
      'a.yml': prompt('revenue'),
      'b/c.yml': prompt('revenue'),
      'd.yml': prompt('revenue'),
      'unique.yml': prompt(),
    });
    const { problems } = await discoverTests({ testsDir });
    expect(problems).toEqual([
      {
        file: 'a.yml',
        field: 'name',
        message:
          'duplicate test name "revenue", used by a.yml, b/c.yml, d.yml; give each test a unique `name`',
      },
    ]);
  });

  it('treats equal default names from equal file stems as duplicates', async () => {
    await write({ 'contracts/orders.yml': prompt(), 'archive/orders.yaml': prompt() });
    const { problems } = await discoverTests({ testsDir });
    expect(problems).toEqual([
      {
        file: 'archive/orders.yaml',
        field: 'name',
        message:
          'duplicate test name "orders", used by archive/orders.yaml, contracts/orders.yml; give each test a unique `name`',
      },
    ]);
  });

  it('reports a file it cannot read', async () => {
    await write({ 'good.yml': prompt() });
    await symlink(path.join(root, 'gone.yml'), path.join(testsDir, 'dangling.yml'));
    const { tests, problems } = await discoverTests({ testsDir });
    expect(tests.map((test) => test.name)).toEqual(['good']);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ file: 'dangling.yml', field: null });
    expect(problems[0]!.message).toMatch(/^cannot read file: ENOENT/);
  });

  it('checks `database` against the configured names when given', async () => {
    await write({ 'a.yml': `${prompt()}database: warehouse\n`, 'b.yml': `${prompt()}database: wh\n` });
    const { tests, problems } = await discoverTests({ testsDir, databaseNames: ['warehouse'] });
    expect(tests.map((test) => [test.name, test.database])).toEqual([['a', 'warehouse']]);
    expect(problems).toEqual([
      { file: 'b.yml', field: 'database', message: 'unknown database "wh" (configured: warehouse)' },
    ]);
  });

  it('collects warnings with their file and still loads the test', async () => {
    await write({ 'sub/a.yml': `${prompt()}tags: [revenue]\n` });
    const { tests, warnings } = await discoverTests({ testsDir });
    expect(tests).toHaveLength(1);
    expect(warnings).toEqual([
      'sub/a.yml: unknown key `tags` is ignored (known keys: name, prompt, sql, expected_answer, database, assertions, ordered, comparison, allow_clarification, requires_data)',
    ]);
  });
});
