import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool } from '../../test-support/agent/scripted-model.js';
import { createAgentTools } from '../agent/index.js';
import { parseConfig } from '../config/index.js';
import { openProjectRuntime, type ProjectRuntime } from './project-runtime.js';

/** A project whose nao_config.yaml keeps tables and a column from the agent, opened as nao opens it. */
let dir: string;
let runtime: ProjectRuntime;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'nao-access-'));
  const writer = await DuckDBInstance.create(path.join(dir, 'shop.duckdb'));
  const connection = await writer.connect();
  await connection.run(`
    CREATE TABLE customers AS SELECT 1 AS id, 'Ada' AS name, 'ada@example.com' AS email;
    CREATE TABLE orders AS SELECT 1 AS id, 1 AS customer_id, 42.5 AS amount;
    CREATE TABLE salaries AS SELECT 1 AS id, 100000 AS salary;
  `);
  connection.closeSync();
  writer.closeSync();
  const text =
    'databases:\n  - name: shop\n    type: duckdb\n    path: shop.duckdb\n    exclude: [main.salaries]\n    exclude_columns: ["*.email"]\n';
  await writeFile(path.join(dir, 'nao_config.yaml'), text);
  runtime = await openProjectRuntime({ config: parseConfig({ text, projectDir: dir, env: {} }), env: {} });
});
afterAll(async () => {
  await runtime.close();
  await rm(dir, { recursive: true, force: true });
});

function executeSql() {
  const tools = createAgentTools({
    mode: 'test',
    context: runtime.agentContext,
    queryResults: new Map(),
    generateQueryId: () => 'query_00000001',
    onFatal: () => undefined,
  });
  return tools.execute_sql!;
}

describe('include / exclude / exclude_columns for the agent', () => {
  it('leaves excluded tables and columns out of the schema in the prompt', () => {
    const prompt = runtime.agentContext.systemPrompts.test;
    expect(prompt).toContain('customers');
    expect(prompt).toContain('orders');
    expect(prompt).not.toContain('salaries');
    expect(prompt).not.toContain('email');
  });

  it('refuses a query that reads an excluded table or column, and runs the others', async () => {
    const tool = executeSql();
    expect(await callTool(tool, { sql_query: 'SELECT salary FROM salaries' })).toMatchObject({
      error: expect.stringContaining('table main.salaries is not readable'),
    });
    expect(await callTool(tool, { sql_query: 'SELECT * FROM customers' })).toMatchObject({
      error: expect.stringContaining('excluded column main.customers.email'),
    });
    expect(await callTool(tool, { sql_query: 'SELECT name FROM customers' })).toMatchObject({
      rows: [['Ada']],
    });
  });
});

describe('row_security for the agent, from nao_config.yaml', () => {
  let rlsDir: string;
  let rlsRuntime: ProjectRuntime;
  beforeAll(async () => {
    rlsDir = await mkdtemp(path.join(tmpdir(), 'nao-row-security-'));
    const writer = await DuckDBInstance.create(path.join(rlsDir, 'shop.duckdb'));
    const connection = await writer.connect();
    await connection.run(`
      CREATE TABLE orders AS SELECT * FROM (VALUES (1, 'EU'), (2, 'US')) AS t(id, region);
      CREATE TABLE salaries AS SELECT 1 AS id, 100000 AS salary;
    `);
    connection.closeSync();
    writer.closeSync();
    const text = [
      'databases:',
      '  - name: shop',
      '    type: duckdb',
      '    path: shop.duckdb',
      '    row_security:',
      `      - { schema: main, table: orders, access: predicate, constraint_columns: [region], predicate: "region = 'EU'" }`,
      '      - { schema: main, table: salaries, access: none }',
      '',
    ].join('\n');
    rlsRuntime = await openProjectRuntime({
      config: parseConfig({ text, projectDir: rlsDir, env: {} }),
      env: {},
    });
  });
  afterAll(async () => {
    await rlsRuntime.close();
    await rm(rlsDir, { recursive: true, force: true });
  });

  it('filters the rows of every execute_sql query and names the restricted tables in the prompt', async () => {
    let calls = 0;
    const tool = createAgentTools({
      mode: 'test',
      context: rlsRuntime.agentContext,
      queryResults: new Map(),
      generateQueryId: () => `query_0000000${++calls}`,
      onFatal: () => undefined,
    }).execute_sql!;
    expect(await callTool(tool, { sql_query: 'SELECT id, region FROM orders' })).toMatchObject({
      rows: [[1, 'EU']],
    });
    expect(await callTool(tool, { sql_query: 'SELECT count(*) FROM salaries' })).toMatchObject({
      rows: [[0]],
    });
    expect(rlsRuntime.agentContext.systemPrompts.test).toContain(
      'Row security lets you read main.orders (only some rows), main.salaries (no rows)',
    );
  });
});
