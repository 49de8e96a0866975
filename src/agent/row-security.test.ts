import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool } from '../../test-support/agent/scripted-model.js';
import { openSeededDuckDb } from '../../test-support/agent/seeded-duckdb.js';
import type { Database, TableInfo } from '../warehouse/index.js';
import type { RowSecurityTable } from '../warehouse/row-security.js';
import { createExecuteSqlTool, type ExecuteSqlOutput } from './execute-sql.js';
import { checkQueryAccess } from './query-access.js';
import { applyRowSecurity } from './row-security.js';
import { tableAccess } from './table-access.js';
import type { ToolError } from './tool-error.js';

/**
 * Row security through the agent's execute_sql tool on a real DuckDB file: every row the
 * policies hide carries the marker HIDDEN, so a query that leaks one is seen whatever its shape.
 */
const SETUP = `
  CREATE TABLE orders (id INTEGER, region VARCHAR, amount INTEGER, note VARCHAR);
  INSERT INTO orders VALUES (1, 'EU', 10, 'ok'), (2, 'EU', 20, 'ok'), (3, 'EU', 30, 'ok'),
    (4, 'US', 400, 'HIDDEN'), (5, 'US', 500, 'HIDDEN'), (6, NULL, 600, 'HIDDEN');
  CREATE TABLE salaries (id INTEGER, salary INTEGER, note VARCHAR);
  INSERT INTO salaries VALUES (1, 1000, 'HIDDEN'), (2, 2000, 'HIDDEN');
  CREATE TABLE products (id INTEGER, name VARCHAR);
  INSERT INTO products VALUES (1, 'tea'), (2, 'coffee');
  CREATE SCHEMA archive;
  CREATE TABLE archive.orders (id INTEGER, region VARCHAR, note VARCHAR, amount INTEGER);
  INSERT INTO archive.orders VALUES (7, 'US', 'HIDDEN', 0), (8, 'EU', 'ok', 0);
  CREATE SCHEMA staging;
  CREATE TABLE staging.products (id INTEGER, name VARCHAR);
  INSERT INTO staging.products VALUES (9, 'HIDDEN');
`;

const POLICIES: RowSecurityTable[] = [
  {
    schema: 'main',
    table: 'orders',
    access: 'predicate',
    constraint_columns: ['region'],
    predicate: "region = 'EU'",
  },
  { schema: 'main', table: 'salaries', access: 'none' },
  { schema: 'main', table: 'products', access: 'full' },
  {
    schema: 'archive',
    table: 'orders',
    access: 'predicate',
    constraint_columns: ['region'],
    predicate: "region = 'EU'",
  },
  { schema: 'staging', table: 'products', access: 'none' },
];

describe('row security on DuckDB', () => {
  let shop: Database;
  let catalog: TableInfo[];
  const access = tableAccess({ rules: { rowSecurity: POLICIES }, defaultSchema: 'main' });

  beforeAll(async () => {
    shop = await openSeededDuckDb({ name: 'shop', setupSql: SETUP });
    catalog = await shop.listTables();
  });
  afterAll(async () => {
    await shop.close();
  });

  async function run(sql: string): Promise<ExecuteSqlOutput | ToolError> {
    let n = 0;
    const tool = createExecuteSqlTool({
      databases: [shop],
      catalogs: { shop: catalog },
      access: { shop: access },
      queryResults: new Map(),
      previewRows: 1000,
      maxResultRows: 1000,
      generateQueryId: () => `query_${(++n).toString(16).padStart(8, '0')}`,
      onFatal: (error) => {
        throw error;
      },
    });
    return callTool(tool, { sql_query: sql });
  }

  it.each<[string, unknown[][]]>([
    ['SELECT id FROM main.orders ORDER BY id', [[1], [2], [3]]],
    ['SELECT count(*) AS n, sum(amount) AS total FROM main.orders', [[3, 60]]],
    // archive.orders has the same policy: an unqualified name is filtered whichever it reads.
    ['SELECT count(*) AS n FROM orders', [[3]]],
    ["SELECT id FROM main.orders o WHERE o.region = 'US' OR 1 = 1 ORDER BY id", [[1], [2], [3]]],
    ['SELECT id FROM "MAIN"."Orders" ORDER BY 1', [[1], [2], [3]]],
    ['SELECT id FROM main . orders ORDER BY 1', [[1], [2], [3]]],
    ['SELECT id FROM shop.main.orders ORDER BY 1', [[1], [2], [3]]],
    ['SELECT a FROM main.orders AS o(a, b) ORDER BY a', [[1], [2], [3]]],
    ['WITH x AS (SELECT * FROM orders) SELECT count(*) FROM x', [[3]]],
    ['SELECT count(*) FROM (SELECT * FROM (SELECT * FROM orders) t) u', [[3]]],
    ["SELECT (SELECT max(amount) FROM orders WHERE region = 'US') AS m", [[null]]],
    ['SELECT count(*) FROM main.products p JOIN orders o ON true', [[6]]],
    ['SELECT count(*) FROM orders o1, LATERAL (SELECT * FROM orders o2 WHERE o2.id >= o1.id) AS l', [[6]]],
    ['SELECT note FROM orders UNION SELECT note FROM salaries', [['ok']]],
    ['SELECT count(*) FROM salaries', [[0]]],
    [
      'SELECT s.salary, p.name FROM main.products p LEFT JOIN salaries s ON s.id = p.id ORDER BY p.id',
      [
        [null, 'tea'],
        [null, 'coffee'],
      ],
    ],
    ['SELECT count(*) FROM orders NATURAL FULL JOIN salaries', [[3]]],
    ['FROM orders SELECT max(amount)', [[30]]],
    ["SELECT 'é€' AS x, count(*) FROM orders", [['é€', 3]]],
    ['SELECT id FROM archive.orders', [[8]]],
    ['SELECT count(*) FROM orders WHERE id IN (SELECT id FROM main.orders WHERE amount > 100)', [[0]]],
    ['SELECT name FROM main.products ORDER BY id', [['tea'], ['coffee']]],
    ['SELECT count(*) FROM staging.products', [[0]]],
    [
      'WITH RECURSIVE r(n) AS (SELECT max(id) FROM orders UNION ALL SELECT n + 1 FROM r WHERE n < 5) SELECT max(n) FROM r',
      [[5]],
    ],
  ])('%s reads only the allowed rows', async (sql, rows) => {
    const output = await run(sql);
    expect(output).not.toHaveProperty('error');
    expect((output as ExecuteSqlOutput).rows).toEqual(rows);
  });

  it.each<[string, string]>([
    [
      'WITH orders AS (SELECT * FROM main.products) SELECT * FROM orders',
      'the CTE "orders" has the name of a table with row security',
    ],
    ["SELECT * FROM query_table('orders')", 'query_table() reads tables the rules cannot see'],
    ["SELECT * FROM query('SELECT * FROM orders')", 'query() reads tables the rules cannot see'],
    [
      'SELECT * FROM shop.orders',
      'shop.orders cannot be resolved to one table; main.orders (row_security access: predicate) has that name',
    ],
    ['SELECT name FROM products', 'products names several tables with different row security'],
    // DESCRIBE and SUMMARIZE take a table, not a subquery: refused, since SUMMARIZE shows values.
    ['SUMMARIZE main.orders', 'DESCRIBE, SUMMARIZE, TABLE and ONLY take a table, not a filtered one'],
    ['DESCRIBE main.salaries', 'DESCRIBE, SUMMARIZE, TABLE and ONLY take a table, not a filtered one'],
    ['SELECT * FROM main/**/.orders', 'could not be located in the query text'],
    ['SELECT 1; SELECT * FROM salaries', 'exactly one statement'],
  ])('refuses %s', async (sql, reason) => {
    const output = await run(sql);
    expect(output).toHaveProperty('error');
    expect((output as ToolError).error).toContain(reason);
  });

  it.each([
    'SELECT * FROM main.orders',
    'SELECT o.* FROM main.orders o',
    'SELECT * FROM main.orders WHERE id IN (SELECT id FROM salaries)',
    'SELECT * FROM main.orders TABLESAMPLE 100%',
    'PIVOT main.orders ON region USING count(*)',
    'SELECT * FROM salaries, main.orders',
    'SELECT main.orders FROM main.orders',
    'SELECT * FROM archive.orders UNION ALL SELECT id, region, note FROM main.orders',
  ])('never shows a hidden row, whether it runs or is refused: %s', async (sql) => {
    const output = await run(sql);
    expect(JSON.stringify(output)).not.toContain('HIDDEN');
    expect(JSON.stringify(output)).not.toContain('"US"');
  });

  it('splices the filter in place, keeping the rest of the text as written', async () => {
    const checked = await checkQueryAccess({
      sql: 'SELECT  o.id  FROM main.orders o /* kept */ JOIN salaries ON true',
      databaseName: 'shop',
      tables: catalog,
      access,
    });
    expect(checked).toEqual({
      allowed: true,
      sql:
        "SELECT  o.id  FROM (SELECT * FROM main.orders WHERE (region = 'EU')) o /* kept */ " +
        'JOIN (SELECT * FROM salaries WHERE (1 = 0)) AS salaries ON true',
    });
  });

  it('leaves a query on tables without a restricting policy as written', async () => {
    const sql = 'SELECT name FROM main.products';
    expect(await checkQueryAccess({ sql, databaseName: 'shop', tables: catalog, access })).toEqual({
      allowed: true,
      sql,
    });
  });

  it('refuses a policy whose predicate names a column the table does not have', async () => {
    const broken = tableAccess({
      rules: {
        rowSecurity: [
          {
            schema: 'main',
            table: 'products',
            access: 'predicate',
            constraint_columns: ['region'],
            predicate: "region = 'EU'",
          },
        ],
      },
      defaultSchema: 'main',
    });
    const checked = await checkQueryAccess({
      sql: 'SELECT * FROM main.products',
      databaseName: 'shop',
      tables: catalog,
      access: broken,
    });
    expect(checked).toEqual({
      allowed: false,
      reason: expect.stringContaining(
        'the predicate of main.products (row_security access: predicate) names region, which is not a column of that table',
      ),
    });
  });

  it('refuses a reference the parser gave no position for, rather than leave it unfiltered', async () => {
    const policy = access.rowPolicies[0]!;
    const result = await applyRowSecurity({
      sql: 'SELECT * FROM orders',
      references: [{ location: 2 ** 64, catalog: '', schema: '', table: 'orders', alias: '', policy }],
      findProtected: () => [],
    });
    expect(result).toEqual({
      success: false,
      error: 'main.orders (row_security access: predicate) has no position in the query text to filter it at',
    });
  });
});
