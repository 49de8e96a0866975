import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool } from '../../test-support/agent/scripted-model.js';
import { missingPostgres, POSTGRES_SERVER, skipWhenMissing } from '../../test-support/local-servers.js';
import { type Database, openDatabase, type TableInfo } from '../warehouse/index.js';
import type { RowSecurityTable } from '../warehouse/row-security.js';
import { createExecuteSqlTool, type ExecuteSqlOutput } from './execute-sql.js';
import { tableAccess } from './table-access.js';
import type { ToolError } from './tool-error.js';

/**
 * Row security through execute_sql on the local PostgreSQL server, in a schema of the test's
 * own: the agent writes PostgreSQL, DuckDB's parser finds the table references, and the
 * spliced query runs on the server. Hidden rows carry the marker HIDDEN.
 */
const skip = skipWhenMissing({
  tests: 'the PostgreSQL row security tests',
  missing: await missingPostgres(),
});

const schema = `nao_rls_${randomBytes(4).toString('hex')}`;

const SETUP = `
  CREATE SCHEMA ${schema};
  SET search_path = ${schema};
  CREATE TABLE orders (id int, tenant_id int, note text);
  INSERT INTO orders VALUES (1, 7, 'ok'), (2, 7, 'ok'), (3, 8, 'HIDDEN'), (4, NULL, 'HIDDEN');
  CREATE TABLE "Payroll" (id int, "Salary" int, note text);
  INSERT INTO "Payroll" VALUES (1, 100, 'HIDDEN');
  CREATE TABLE payroll (id int, note text);
  INSERT INTO payroll VALUES (1, 'ok');
  CREATE TABLE customers (id int, name text);
  INSERT INTO customers VALUES (1, 'Ada'), (2, 'Grace');
  CREATE VIEW all_rows AS SELECT 1 AS one;
`;

const POLICIES: RowSecurityTable[] = [
  {
    schema,
    table: 'orders',
    access: 'predicate',
    constraint_columns: ['tenant_id'],
    predicate: 'tenant_id IN (7)',
  },
  { schema, table: 'Payroll', access: 'none' },
  { schema, table: 'customers', access: 'full' },
];

describe.skipIf(skip)('row security on PostgreSQL', () => {
  let database: Database;
  let catalog: TableInfo[];
  // Names are matched case-insensitively, so "Payroll" and payroll are both filtered as none.
  const access = tableAccess({ rules: { rowSecurity: POLICIES }, defaultSchema: schema });

  beforeAll(async () => {
    const admin = new pg.Client(POSTGRES_SERVER);
    await admin.connect();
    try {
      await admin.query(SETUP);
    } finally {
      await admin.end();
    }
    database = await openDatabase({
      type: 'postgres',
      name: 'pg',
      ...POSTGRES_SERVER,
      schema,
      allow_privileged_role: true,
    });
    catalog = (await database.listTables()).filter((table) => table.schema === schema);
  });

  afterAll(async () => {
    await database?.close();
    const admin = new pg.Client(POSTGRES_SERVER);
    await admin.connect();
    try {
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    } finally {
      await admin.end();
    }
  });

  async function run(sql: string): Promise<ExecuteSqlOutput | ToolError> {
    const tool = createExecuteSqlTool({
      databases: [database],
      catalogs: { pg: catalog },
      access: { pg: access },
      queryResults: new Map(),
      previewRows: 1000,
      maxResultRows: 1000,
      generateQueryId: () => 'query_00000001',
      onFatal: (error) => {
        throw error;
      },
    });
    return callTool(tool, { sql_query: sql });
  }

  it.each<[string, unknown[][]]>([
    ['SELECT id FROM orders ORDER BY id', [[1], [2]]],
    [`SELECT id FROM ${schema}.orders o WHERE o.tenant_id = 8 OR true ORDER BY id`, [[1], [2]]],
    [`SELECT count(*) FROM test.${schema}.orders`, [[2]]],
    ['SELECT count(*) FILTER (WHERE tenant_id = 8) AS n FROM orders', [[0]]],
    ['WITH t AS MATERIALIZED (SELECT * FROM orders) SELECT count(*) FROM t', [[2]]],
    [
      'SELECT count(*) FROM customers c JOIN LATERAL (SELECT * FROM orders o WHERE o.id >= c.id) l ON true',
      [[3]],
    ],
    ['SELECT row_to_json(o)::text FROM orders o WHERE id = 1', [['{"id":1,"tenant_id":7,"note":"ok"}']]],
    ['(SELECT note FROM orders) EXCEPT (SELECT note FROM "Payroll") ORDER BY 1', [['ok']]],
    ['SELECT count(*) FROM "Payroll"', [[0]]],
    ['SELECT count(*) FROM payroll', [[0]]],
    ['SELECT name FROM customers ORDER BY id', [['Ada'], ['Grace']]],
    ['SELECT (SELECT max(note) FROM orders WHERE tenant_id <> 7) AS m', [[null]]],
    ["SELECT count(*) FROM orders WHERE id IN (SELECT id FROM orders WHERE note = 'HIDDEN')", [[0]]],
  ])('%s reads only the allowed rows', async (sql, rows) => {
    const output = await run(sql);
    expect(output).not.toHaveProperty('error');
    expect((output as ExecuteSqlOutput).rows).toEqual(rows);
  });

  it.each<[string, string]>([
    [
      "SELECT query_to_xml('SELECT * FROM orders', true, true, '')",
      'query_to_xml() reads tables the rules cannot see',
    ],
    ['SELECT * FROM ONLY orders', 'row security could not be applied with certainty'],
    ['TABLE orders', 'row security could not be applied with certainty'],
    [
      'WITH orders AS (SELECT 1) SELECT * FROM orders',
      'the CTE "orders" has the name of a table with row security',
    ],
    ['SELECT * FROM elsewhere.orders', 'cannot be resolved to one table'],
  ])('refuses %s', async (sql, reason) => {
    const output = await run(sql);
    expect(output).toHaveProperty('error');
    expect((output as ToolError).error).toContain(reason);
  });

  it.each([
    'SELECT * FROM orders',
    'SELECT o.*, p.* FROM orders o FULL JOIN "Payroll" p USING (id)',
    'SELECT * FROM orders, generate_series(1, 2)',
    `SELECT * FROM "${schema}"."orders"`,
    "SELECT string_agg(note, ',') FROM orders",
  ])('never shows a hidden row, whether it runs or is refused: %s', async (sql) => {
    expect(JSON.stringify(await run(sql))).not.toContain('HIDDEN');
  });
});
