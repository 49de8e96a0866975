import { asSchema } from 'ai';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { callTool } from '../../test-support/agent/scripted-model.js';
import { openSeededDuckDb } from '../../test-support/agent/seeded-duckdb.js';
import type { NaoError } from '../errors/index.js';
import type { Database } from '../warehouse/index.js';
import { createExecuteSqlTool, type ExecuteSqlOutput, type ExecuteSqlToolOptions } from './execute-sql.js';
import type { QueryResults } from './query-results.js';
import type { ToolError } from './tool-error.js';

const SETUP = `
  CREATE TABLE orders AS SELECT range AS id, (range % 7) * 10.5::DOUBLE AS amount FROM range(200);
  CREATE TABLE notes (id INTEGER, body VARCHAR);
  INSERT INTO notes VALUES (1, repeat('x', 2000));
`;

function sequentialIds(): () => string {
  let n = 0;
  return () => `query_${(++n).toString(16).padStart(8, '0')}`;
}

describe('execute_sql tool', () => {
  let warehouse: Database;
  let finance: Database;
  beforeAll(async () => {
    warehouse = await openSeededDuckDb({ name: 'warehouse', setupSql: SETUP });
    finance = await openSeededDuckDb({
      name: 'finance',
      setupSql: 'CREATE TABLE budget AS SELECT 42 AS amount',
    });
  });
  afterAll(async () => {
    await warehouse.close();
    await finance.close();
  });

  function setup(overrides: Partial<ExecuteSqlToolOptions> = {}) {
    const queryResults: QueryResults = new Map();
    const fatal: NaoError[] = [];
    const tool = createExecuteSqlTool({
      databases: [warehouse],
      queryResults,
      previewRows: 20,
      maxResultRows: 1_000_000,
      generateQueryId: sequentialIds(),
      onFatal: (error) => fatal.push(error),
      ...overrides,
    });
    return { tool, queryResults, fatal };
  }

  it('shows the model the first rows and keeps the whole result', async () => {
    const { tool, queryResults } = setup();
    const output = (await callTool(tool, {
      sql_query: 'SELECT id, amount FROM orders ORDER BY id',
    })) as ExecuteSqlOutput;
    expect(output).toMatchObject({
      id: 'query_00000001',
      database_id: 'warehouse',
      row_count: 200,
      has_more: true,
      note: expect.stringContaining('Showing the first 20 of 200 rows'),
    });
    expect(output.columns.map((column) => column.name)).toEqual(['id', 'amount']);
    expect(output.rows).toHaveLength(20);
    expect(output.truncated).toBeUndefined();
    const stored = queryResults.get('query_00000001');
    expect(stored).toMatchObject({
      id: 'query_00000001',
      sql: 'SELECT id, amount FROM orders ORDER BY id',
      databaseId: 'warehouse',
      truncated: false,
    });
    expect(stored?.rows).toHaveLength(200);
    expect(stored?.rows[199]).toEqual([199, (199 % 7) * 10.5]);
  });

  it('says nothing more exists when the result fits in the preview', async () => {
    const { tool } = setup();
    const output = await callTool(tool, { sql_query: 'SELECT count(*) AS n FROM orders' });
    expect(output).toEqual({
      id: 'query_00000001',
      database_id: 'warehouse',
      columns: [{ name: 'n', type: 'BIGINT' }],
      row_count: 1,
      rows: [[200]],
      has_more: false,
    });
  });

  it('keeps at most maxResultRows rows and tells the model the result was cut', async () => {
    const { tool, queryResults } = setup({ maxResultRows: 50 });
    const output = await callTool(tool, { sql_query: 'SELECT id FROM orders' });
    expect(output).toMatchObject({
      row_count: 50,
      truncated: true,
      note: expect.stringContaining('more than 50 rows; only the first 50 were kept'),
    });
    expect(queryResults.get('query_00000001')).toMatchObject({ truncated: true });
    expect(queryResults.get('query_00000001')?.rows).toHaveLength(50);
  });

  it('cuts long text in the preview only', async () => {
    const { tool, queryResults } = setup();
    const output = (await callTool(tool, { sql_query: 'SELECT body FROM notes' })) as ExecuteSqlOutput;
    expect(String(output.rows[0]?.[0])).toMatch(/^x{500}… \[1500 more characters\]$/);
    expect(output.note).toContain('cut to 500 characters');
    expect(queryResults.get('query_00000001')?.rows[0]?.[0]).toBe('x'.repeat(2000));
  });

  it('shows fewer rows when they are wide, and says why', async () => {
    const { tool, queryResults } = setup();
    const columns = Array.from({ length: 20 }, (_, i) => `repeat('y', 400) AS c${i}`).join(', ');
    const output = (await callTool(tool, {
      sql_query: `SELECT id, ${columns} FROM orders`,
    })) as ExecuteSqlOutput;
    expect(output.rows.length).toBeLessThan(20);
    expect(output.rows.length).toBeGreaterThan(0);
    expect(JSON.stringify(output.rows).length).toBeLessThanOrEqual(30_000);
    expect(output.note).toContain(
      `Showing the first ${output.rows.length} of 200 rows (fewer than usual because the rows are wide)`,
    );
    expect(queryResults.get(output.id)?.rows).toHaveLength(200);
  });

  it('returns a failing query as a tool error the model can read, and stores nothing', async () => {
    const { tool, queryResults } = setup();
    const output = await callTool(tool, { sql_query: 'SELECT amount FROM order_lines' });
    expect(output).toEqual({
      error: expect.stringMatching(/^The query failed on database "warehouse" \(duckdb\): .*order_lines/s),
    });
    expect(queryResults.size).toBe(0);
  });

  it('returns a write attempt refused by the engine as a tool error', async () => {
    const { tool } = setup();
    const output = await callTool(tool, { sql_query: 'DELETE FROM orders' });
    expect(output).toEqual({ error: expect.stringContaining('read-only') });
  });

  it('returns a query stopped by the time limit as a tool error, not a thrown one', async () => {
    const { tool, queryResults } = setup({ queryTimeoutMs: 200 });
    const started = performance.now();
    const output = await callTool(tool, {
      sql_query: 'SELECT count(*) FROM range(100000000) a, range(100000) b WHERE a.range * b.range = -1',
    });
    expect(output).toEqual({ error: expect.stringContaining('ran longer than the 200 ms limit') });
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(queryResults.size).toBe(0);
  });

  it('refuses an empty query', async () => {
    const { tool } = setup();
    expect(await callTool(tool, { sql_query: '   ' })).toEqual({ error: expect.stringContaining('empty') });
  });

  describe('database_id', () => {
    it.each<[string, Database[] | 'both', string | undefined, RegExp | 'warehouse' | 'finance']>([
      ['one database, no id', [], undefined, 'warehouse'],
      ['one database, its id', [], 'warehouse', 'warehouse'],
      ['one database, unknown id', [], 'sales', /Unknown database_id "sales"; use one of "warehouse"/],
      ['two databases, no id', 'both', undefined, /Several databases.*"warehouse", "finance"/],
      ['two databases, blank id', 'both', '  ', /Several databases.*"warehouse", "finance"/],
      ['two databases, first id', 'both', 'warehouse', 'warehouse'],
      ['two databases, second id', 'both', 'finance', 'finance'],
      [
        'two databases, unknown id',
        'both',
        'Finance',
        /Unknown database_id "Finance"; use one of "warehouse", "finance"/,
      ],
    ])('%s', async (_label, which, databaseId, expected) => {
      const databases = which === 'both' ? [warehouse, finance] : [warehouse];
      const { tool } = setup({ databases });
      const sql = expected === 'finance' ? 'SELECT amount FROM budget' : 'SELECT 1 AS one';
      const output = await callTool(tool, { sql_query: sql, database_id: databaseId });
      if (typeof expected === 'string') {
        expect(output).toMatchObject({ database_id: expected });
      } else {
        expect(output).toEqual({ error: expect.stringMatching(expected) });
      }
    });

    it('tells the model when no database is configured', async () => {
      const { tool } = setup({ databases: [] });
      expect(await callTool(tool, { sql_query: 'SELECT 1' })).toEqual({
        error: 'No database is configured for this project.',
      });
    });

    it('describes the parameter to the model as required when there are several databases', async () => {
      const describeId = async (databases: Database[]) => {
        const { tool } = setup({ databases });
        const schema = (await asSchema(tool.inputSchema).jsonSchema) as {
          properties: { database_id: { description: string } };
        };
        return schema.properties.database_id.description;
      };
      expect(await describeId([warehouse, finance])).toBe(
        'Required: the database to query, one of "warehouse", "finance".',
      );
      expect(await describeId([warehouse])).toBe(
        'Optional: the database to query; the only one is "warehouse".',
      );
    });
  });

  describe('query ids', () => {
    it('draws again when an id is already used in the run', async () => {
      const ids = ['query_0000000a', 'query_0000000a', 'query_0000000b'];
      const { tool, queryResults } = setup({ generateQueryId: () => ids.shift() ?? 'query_ffffffff' });
      await callTool(tool, { sql_query: 'SELECT 1' });
      await callTool(tool, { sql_query: 'SELECT 2' });
      expect([...queryResults.keys()]).toEqual(['query_0000000a', 'query_0000000b']);
    });

    it.each([
      ['an invalid id', () => 'q1', 'AGENT_INVALID_QUERY_ID'],
      ['the same id forever', () => 'query_00000001', 'AGENT_DUPLICATE_QUERY_ID'],
    ])('reports a generator returning %s as fatal', async (_label, generateQueryId, code) => {
      const { tool, fatal, queryResults } = setup({ generateQueryId });
      if (code === 'AGENT_DUPLICATE_QUERY_ID') await callTool(tool, { sql_query: 'SELECT 1' });
      await expect(callTool(tool, { sql_query: 'SELECT 2' })).rejects.toMatchObject({ code });
      expect(fatal.map((error) => error.code)).toEqual([code]);
      expect(queryResults.size).toBe(code === 'AGENT_DUPLICATE_QUERY_ID' ? 1 : 0);
    });
  });

  it('rethrows an abort instead of handing it to the model', async () => {
    const slow: Database = {
      ...warehouse,
      name: 'slow',
      dialect: 'duckdb',
      query: (_sql, options) =>
        new Promise((_resolve, reject) => {
          options?.signal?.addEventListener('abort', () => reject(new Error('interrupted')), { once: true });
        }),
    };
    const { tool } = setup({ databases: [slow] });
    const controller = new AbortController();
    const call = callTool(tool, { sql_query: 'SELECT 1' }, controller.signal);
    controller.abort(new Error('run cancelled'));
    await expect(call).rejects.toThrow('run cancelled');
  });

  it('rejects on abort even when the engine misses the cancellation', async () => {
    const deaf: Database = {
      ...warehouse,
      name: 'deaf',
      dialect: 'duckdb',
      query: () => new Promise(() => {}),
    };
    const { tool } = setup({ databases: [deaf] });
    const controller = new AbortController();
    const call = callTool(tool, { sql_query: 'SELECT 1' }, controller.signal);
    setTimeout(() => controller.abort(new Error('run cancelled')), 20);
    await expect(call).rejects.toThrow('run cancelled');
  });

  it('hands the query timeout and row cap to the database', async () => {
    const query = vi.fn(async () => ({ columns: [], rows: [], truncated: false }));
    const spy: Database = { ...warehouse, name: 'spy', dialect: 'duckdb', query };
    const { tool } = setup({ databases: [spy], queryTimeoutMs: 1500, maxResultRows: 10 });
    const output = (await callTool(tool, { sql_query: ' SELECT 1 ' })) as ExecuteSqlOutput | ToolError;
    expect(output).toMatchObject({ row_count: 0, rows: [], has_more: false });
    expect(query).toHaveBeenCalledWith('SELECT 1', { maxRows: 10, timeoutMs: 1500 });
  });
});
