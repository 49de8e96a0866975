import { realpath, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createProjectFixture,
  REFERENCE_SQL,
  SECRET_VALUES,
} from '../../test-support/agent/project-fixture.js';
import { openSeededDuckDb } from '../../test-support/agent/seeded-duckdb.js';
import type { Database } from '../warehouse/index.js';
import { createAgentContext } from './agent-context.js';
import { MAX_RULES_CHARS } from './system-prompt.js';

const TEST_MODE_SENTENCE = 'You cannot ask clarifying questions';

describe('createAgentContext', () => {
  let fixture: Awaited<ReturnType<typeof createProjectFixture>>;
  let warehouse: Database;
  let finance: Database;
  beforeAll(async () => {
    warehouse = await openSeededDuckDb({
      name: 'warehouse',
      setupSql: `CREATE TABLE orders (id INTEGER, amount DECIMAL(10,2), status VARCHAR, ordered_at DATE);
                 CREATE SCHEMA crm; CREATE TABLE crm."Customer List" (id INTEGER, name VARCHAR);`,
    });
    finance = await openSeededDuckDb({
      name: 'finance',
      setupSql: 'CREATE TABLE budget (year INTEGER, amount DOUBLE)',
    });
  });
  afterAll(async () => {
    await warehouse.close();
    await finance.close();
  });
  beforeEach(async () => {
    fixture = await createProjectFixture();
  });
  afterEach(() => fixture.cleanup());

  it('loads RULES.md, the schemas and the context files once, into both prompts', async () => {
    const context = await createAgentContext({ projectDir: fixture.projectDir, databases: [warehouse] });
    expect(context.projectDir).toBe(await realpath(fixture.projectDir));
    expect(context.rules).toContain('Revenue means SUM(orders.amount)');
    expect(context.schemas).toEqual([
      expect.objectContaining({ databaseId: 'warehouse', dialect: 'duckdb', tables: expect.any(Array) }),
    ]);
    expect(context.limits).toEqual({ maxResultRows: 1_000_000, previewRows: 20, queryTimeoutMs: undefined });

    for (const prompt of [context.systemPrompts.chat, context.systemPrompts.test]) {
      expect(prompt).toContain("Revenue means SUM(orders.amount) for status = 'paid'.");
      expect(prompt).toContain('## database_id: warehouse (DuckDB; write SQL in this dialect)');
      expect(prompt).toContain(
        '- main.orders: id INTEGER, amount DECIMAL(10,2), status VARCHAR, ordered_at DATE',
      );
      expect(prompt).toContain('- crm."Customer List": id INTEGER, name VARCHAR');
      expect(prompt).toContain('- docs/metrics.md');
      expect(prompt).toContain('- models/orders.sql');
      expect(prompt).toContain('Never invent, estimate or guess a number');
      expect(prompt).toContain('first 20 rows');
    }
  });

  it('tells the test-mode agent it cannot ask questions, and offers clarification only in chat', async () => {
    const context = await createAgentContext({ projectDir: fixture.projectDir, databases: [warehouse] });
    expect(context.systemPrompts.test).toContain(
      'You cannot ask clarifying questions: nobody will answer them. When the question is ambiguous, state your assumptions and answer under them; if the data cannot answer the question, say that you cannot answer and why.',
    );
    expect(context.systemPrompts.test).not.toContain('clarification');
    expect(context.systemPrompts.chat).not.toContain(TEST_MODE_SENTENCE);
    expect(context.systemPrompts.chat).toContain('`clarification`');
    // A test with allow_clarification: true sees what the chat agent sees.
    expect(context.systemPrompts['test-with-clarification']).toBe(context.systemPrompts.chat);
  });

  it('never puts the tests/ folder, the config or secrets into the prompt', async () => {
    const context = await createAgentContext({ projectDir: fixture.projectDir, databases: [warehouse] });
    for (const prompt of Object.values(context.systemPrompts)) {
      expect(prompt).not.toContain(REFERENCE_SQL);
      expect(prompt).not.toContain('total_revenue.yml');
      expect(prompt).not.toContain('tests/');
      expect(prompt).not.toContain('nao_config.yaml');
      expect(prompt).not.toMatch(/^- \.env/m);
      expect(prompt).not.toContain('credentials.json');
      expect(prompt).not.toContain('docs/answers.md');
      for (const secret of SECRET_VALUES) expect(prompt).not.toContain(secret);
    }
    expect(context.contextFiles.entries.map((entry) => entry.path)).not.toContain('tests/');
  });

  it('asks for database_id when there are several databases', async () => {
    const context = await createAgentContext({
      projectDir: fixture.projectDir,
      databases: [warehouse, finance],
    });
    expect(context.systemPrompts.test).toContain(
      'There are 2 databases; pass the database_id to `execute_sql` every time.',
    );
    expect(context.systemPrompts.test).toContain('## database_id: finance (DuckDB');
    expect(context.systemPrompts.test).toContain('- main.budget: year INTEGER, amount DOUBLE');
  });

  it('summarises a large schema instead of listing every column', async () => {
    const context = await createAgentContext({
      projectDir: fixture.projectDir,
      databases: [warehouse],
      schemaLimits: { maxDetailedTables: 1 },
    });
    expect(context.systemPrompts.test).toContain(
      '2 tables with 6 columns in total: too many to show every column here',
    );
    expect(context.systemPrompts.test).toContain('- crm: "Customer List"');
    expect(context.systemPrompts.test).toContain('- main: orders');
    expect(context.systemPrompts.test).not.toContain('ordered_at');
  });

  it('says when the project has no RULES.md or no database', async () => {
    await rm(path.join(fixture.projectDir, 'RULES.md'));
    const context = await createAgentContext({ projectDir: fixture.projectDir, databases: [] });
    expect(context.rules).toBeNull();
    expect(context.systemPrompts.test).toContain('This project has no RULES.md.');
    expect(context.systemPrompts.test).toContain('No database is configured for this project');
  });

  it('cuts a huge RULES.md visibly and says where to read on', async () => {
    const line = `${'r'.repeat(99)}\n`;
    await writeFile(path.join(fixture.projectDir, 'RULES.md'), line.repeat(MAX_RULES_CHARS / 100 + 10));
    const context = await createAgentContext({ projectDir: fixture.projectDir, databases: [] });
    expect(context.systemPrompts.test).toContain(
      `[RULES.md is longer than ${MAX_RULES_CHARS} characters and continues beyond this point; read the rest with \`read\` (path "RULES.md", start_line ${MAX_RULES_CHARS / 100 + 1}).]`,
    );
  });

  it.each([
    [{ maxResultRows: 0 }, 'AGENT_INVALID_OPTION', /maxResultRows must be a positive integer, got 0/],
    [{ previewRows: 2.5 }, 'AGENT_INVALID_OPTION', /previewRows/],
    [{ queryTimeoutMs: -1 }, 'AGENT_INVALID_OPTION', /queryTimeoutMs/],
  ])('rejects the bad option %o', async (options, code, message) => {
    await expect(
      createAgentContext({ projectDir: fixture.projectDir, databases: [], ...options }),
    ).rejects.toMatchObject({ code, message: expect.stringMatching(message) });
  });

  it('rejects a missing project folder, duplicate database names and an unreadable schema', async () => {
    await expect(
      createAgentContext({ projectDir: path.join(fixture.projectDir, 'nope'), databases: [] }),
    ).rejects.toMatchObject({
      code: 'AGENT_PROJECT_DIR_NOT_FOUND',
      message: expect.stringContaining('nope'),
    });
    await expect(
      createAgentContext({ projectDir: fixture.projectDir, databases: [warehouse, warehouse] }),
    ).rejects.toMatchObject({
      code: 'AGENT_DUPLICATE_DATABASE',
      message: expect.stringContaining('"warehouse"'),
    });
    const broken: Database = {
      ...warehouse,
      name: 'broken',
      dialect: 'postgres',
      listTables: async () => {
        throw new Error('connection refused');
      },
    };
    await expect(
      createAgentContext({ projectDir: fixture.projectDir, databases: [broken] }),
    ).rejects.toMatchObject({
      code: 'AGENT_SCHEMA_UNAVAILABLE',
      message: expect.stringContaining('"broken" (postgres): connection refused'),
    });
  });
});
