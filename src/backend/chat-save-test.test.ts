import { mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { discoverTests, parseTestFile } from '../test-files/index.js';
import { saveChatTest } from './chat-save-test.js';

let projectDir: string;
beforeEach(async () => {
  projectDir = await mkdtemp(path.join(tmpdir(), 'nao-save-test-'));
});
afterEach(async () => {
  await rm(projectDir, { recursive: true, force: true });
});

const save = (input: {
  name: string;
  prompt?: string;
  sql?: string;
  database?: string;
  databaseNames?: string[];
}) =>
  saveChatTest({
    projectDir,
    name: input.name,
    prompt: input.prompt ?? 'How many orders?',
    sql: input.sql ?? 'SELECT COUNT(*) AS n FROM orders',
    database: input.database,
    databaseNames: input.databaseNames ?? ['warehouse'],
  });

describe('saveChatTest', () => {
  it('removes what a save killed more than a day ago left in tests/, and leaves no temporary file of its own', async () => {
    await mkdir(path.join(projectDir, 'tests'));
    const leftover = '.kept.yml-4242-0b0c6b1e-4a1b-4c1d-9e1f-1234567890ab.tmp';
    await writeFile(path.join(projectDir, 'tests', leftover), '');
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 3600 * 1000);
    await utimes(path.join(projectDir, 'tests', leftover), twoDaysAgo, twoDaysAgo);
    expect(await save({ name: 'orders' })).toMatchObject({ success: true });
    expect(await readdir(path.join(projectDir, 'tests'))).toEqual(['orders.yml']);
  });

  it('writes tests/<name>.yml that the suite parser reads back to the same prompt and SQL', async () => {
    const sql = "SELECT name, 'it''s: #1' AS label\nFROM customers\n-- a comment\nWHERE x = \"y\"";
    const prompt = 'Which customers: the "top" ones? # not a comment';
    expect(await save({ name: 'top_customers', prompt, sql })).toEqual({
      success: true,
      relativePath: 'tests/top_customers.yml',
    });
    const filePath = path.join(projectDir, 'tests', 'top_customers.yml');
    const text = await readFile(filePath, 'utf8');
    const parsed = parseTestFile({ text, filePath, relativePath: 'top_customers.yml' });
    expect(parsed).toMatchObject({ success: true, test: { name: 'top_customers', prompt, sql } });
  });

  it("writes an agent's one-line SQL as a multi-line `sql: |` block that reads back as the same test", async () => {
    const sql =
      "SELECT c.name, SUM(p.amount) AS revenue FROM payments p JOIN customers c ON c.id = p.customer_id WHERE p.status <> 'refunded' GROUP BY c.name ORDER BY revenue DESC LIMIT 3";
    const databaseNames = ['shop', 'finance'];
    expect(await save({ name: 'top_revenue', sql, database: 'shop', databaseNames })).toMatchObject({
      success: true,
    });
    const filePath = path.join(projectDir, 'tests', 'top_revenue.yml');
    const text = await readFile(filePath, 'utf8');
    expect(text).toBe(
      [
        'name: top_revenue',
        'prompt: How many orders?',
        'database: shop',
        'sql: |',
        '  SELECT',
        '    c.name,',
        '    SUM(p.amount) AS revenue',
        '  FROM',
        '    payments p',
        '    JOIN customers c ON c.id = p.customer_id',
        '  WHERE',
        "    p.status <> 'refunded'",
        '  GROUP BY',
        '    c.name',
        '  ORDER BY',
        '    revenue DESC',
        '  LIMIT',
        '    3',
        '',
      ].join('\n'),
    );
    const parsed = parseTestFile({ text, filePath, relativePath: 'top_revenue.yml', databaseNames });
    if (!parsed.success) throw new Error(JSON.stringify(parsed.problems));
    expect(parsed.test).toMatchObject({ name: 'top_revenue', prompt: 'How many orders?', database: 'shop' });
    // The same query: only the layout differs.
    expect(parsed.test.sql?.split('\n').length).toBe(14);
    expect(parsed.test.sql?.replace(/\s+/g, ' ')).toBe(sql);
  });

  it('names the database when several are configured, and refuses to guess it', async () => {
    const databaseNames = ['shop', 'finance'];
    expect(await save({ name: 'a', databaseNames })).toMatchObject({
      success: false,
      status: 400,
      error: expect.stringContaining('shop, finance'),
    });
    expect(await save({ name: 'b', database: 'finance', databaseNames })).toMatchObject({ success: true });
    const text = await readFile(path.join(projectDir, 'tests', 'b.yml'), 'utf8');
    expect(parseTestFile({ text, filePath: 'b.yml', relativePath: 'b.yml', databaseNames })).toMatchObject({
      success: true,
      test: { database: 'finance' },
    });
    expect(await save({ name: 'c', database: 'nope', databaseNames })).toMatchObject({
      success: false,
      status: 400,
    });
  });

  it('never overwrites an existing test', async () => {
    await save({ name: 'orders' });
    const filePath = path.join(projectDir, 'tests', 'orders.yml');
    await writeFile(filePath, 'hand-edited');
    const again = await save({ name: 'orders', sql: 'SELECT 2' });
    expect(again).toMatchObject({ success: false, status: 409 });
    expect(await readFile(filePath, 'utf8')).toBe('hand-edited');
  });

  it.each([
    ['a file of that name in a subfolder', 'finance/orders.yml', 'prompt: How many orders?\n'],
    ['a test named so in another file', 'finance/q4.yml', 'name: orders\nprompt: How many orders?\n'],
  ])(
    'refuses a name that %s already has (409, naming its file), so the suite still runs',
    async (_label, file, text) => {
      await mkdir(path.join(projectDir, 'tests', 'finance'), { recursive: true });
      await writeFile(path.join(projectDir, 'tests', file), text);
      expect(await save({ name: 'orders' })).toEqual({
        success: false,
        status: 409,
        error: `A test named "orders" already exists in tests/${file}; pick another name (test names are unique in a suite).`,
      });
      expect(await readdir(path.join(projectDir, 'tests'))).toEqual(['finance']);
      const { problems } = await discoverTests({ testsDir: path.join(projectDir, 'tests') });
      expect(problems).toEqual([]);
    },
  );

  it.each([
    ['Orders', 'upper case'],
    ['-orders', 'a leading dash'],
    ['../escape', 'a path'],
    ['a b', 'a space'],
    ['', 'nothing'],
    ['x'.repeat(101), 'too long'],
  ])('refuses the name %j (%s)', async (name) => {
    expect(await save({ name })).toMatchObject({
      success: false,
      status: 400,
      error: expect.stringContaining('Invalid test name'),
    });
  });

  it.each([
    [{ prompt: '  ' }, 'prompt'],
    [{ sql: '\n' }, 'SQL is empty'],
  ])('refuses an empty field %j', async (fields, message) => {
    expect(await save({ name: 'ok', ...fields })).toMatchObject({
      success: false,
      status: 400,
      error: expect.stringContaining(message),
    });
  });
});
