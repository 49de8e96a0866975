import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool } from '../../test-support/agent/scripted-model.js';
import { createAgentTools } from '../agent/index.js';
import { parseConfig } from '../config/index.js';
import { openProjectRuntime, type ProjectRuntime } from './project-runtime.js';
import { runTestRequest } from './run-test-request.js';

/** A project with a database nao can open and two it cannot: only the runs that need those fail. */
let dir: string;
let runtime: ProjectRuntime;
let modelCalls = 0;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'nao-unavailable-'));
  const writer = await DuckDBInstance.create(path.join(dir, 'shop.duckdb'));
  const connection = await writer.connect();
  await connection.run('CREATE TABLE orders AS SELECT 42 AS amount');
  connection.closeSync();
  writer.closeSync();
  const config = parseConfig({
    text:
      'databases:\n  - name: shop\n    type: duckdb\n    path: shop.duckdb\n' +
      '  - name: sf\n    type: powerbi_xmla\n    account_id: x\n' +
      "  - name: pg\n    type: postgres\n    host: {{ env('PGHOST') }}\n    database: d\n",
    projectDir: dir,
    env: {},
  });
  runtime = await openProjectRuntime({
    config,
    env: { OPENAI_API_KEY: 'sk-test' },
    fetch: async () => {
      modelCalls++;
      throw new Error('no model call was expected');
    },
  });
});
afterAll(async () => {
  await runtime.close();
  await rm(dir, { recursive: true, force: true });
});

describe('databases nao cannot open', () => {
  it.each([
    [
      'sf',
      'Database "sf" is of type powerbi_xmla, which the original nao connects to and this nao cannot query yet',
    ],
    ['pg', "databases[2].host uses {{ env('PGHOST') }} (PGHOST is not set)"],
  ])('fail a run whose reference needs %s before the agent spends anything', async (databaseId, reason) => {
    const run = runTestRequest({
      runtime,
      request: {
        prompt: 'How much?',
        model: { provider: 'openai', modelId: 'gpt-4.1' },
        sql: 'SELECT 1',
        databaseId,
      },
    });
    await expect(run).rejects.toThrow(reason);
    await expect(run).rejects.toMatchObject({ code: 'DATABASE_UNAVAILABLE' });
    expect(modelCalls).toBe(0);
  });

  it('tell the agent why when it queries one, and leave the others queryable', async () => {
    const tool = createAgentTools({
      mode: 'test',
      context: runtime.agentContext,
      queryResults: new Map(),
      generateQueryId: () => 'query_00000001',
      onFatal: () => undefined,
    }).execute_sql!;
    expect(await callTool(tool, { sql_query: 'SELECT 1', database_id: 'sf' })).toMatchObject({
      error: expect.stringContaining('type powerbi_xmla'),
    });
    expect(
      await callTool(tool, { sql_query: 'SELECT amount FROM orders', database_id: 'shop' }),
    ).toMatchObject({
      rows: [[42]],
    });
  });
});

describe('a duckdb entry without path (the original nao init default)', () => {
  it('opens an empty in-memory database that answers queries', async () => {
    const memoryDir = await mkdtemp(path.join(tmpdir(), 'nao-memory-'));
    const config = parseConfig({
      text: 'databases:\n  - name: mem\n    type: duckdb\n',
      projectDir: memoryDir,
      env: {},
    });
    const memory = await openProjectRuntime({ config, env: {} });
    try {
      expect(memory.agentContext.schemas).toEqual([
        { databaseId: 'mem', dialect: 'duckdb', tables: [], rowPolicies: [] },
      ]);
      expect((await memory.databases[0]!.query('SELECT 40 + 2 AS answer')).rows).toEqual([[42]]);
    } finally {
      await memory.close();
      await rm(memoryDir, { recursive: true, force: true });
    }
  });
});
