import { describe, expect, it } from 'vitest';
import type { TableInfo } from '../warehouse/index.js';
import { checkQueryAccess } from './query-access.js';
import { tableAccess } from './table-access.js';

const column = (name: string) => ({ name, type: 'VARCHAR' });
const CATALOG: TableInfo[] = [
  { schema: 'main', name: 'customers', columns: [column('id'), column('name'), column('email')] },
  { schema: 'main', name: 'orders', columns: [column('id'), column('customer_id'), column('amount')] },
  { schema: 'main', name: 'salaries', columns: [column('id'), column('salary')] },
  { schema: 'raw', name: 'orders', columns: [column('id'), column('payload')] },
];
const access = tableAccess({
  rules: { exclude: ['main.salaries', 'raw.*'], excludeColumns: ['main.customers.email'] },
  defaultSchema: 'main',
});

function check(sql: string) {
  return checkQueryAccess({ sql, databaseName: 'shop', tables: CATALOG, access });
}

describe('checkQueryAccess', () => {
  it.each([
    'SELECT SUM(amount) FROM main.orders',
    'SELECT c.name, COUNT(*) FROM customers c JOIN main.orders o ON o.customer_id = c.id GROUP BY 1',
    'WITH totals AS (SELECT customer_id, SUM(amount) AS total FROM main.orders GROUP BY 1) SELECT * FROM totals',
    'SELECT * EXCLUDE (email) FROM customers',
    'SELECT id, name FROM customers WHERE id IN (SELECT customer_id FROM main.orders)',
    'FROM main.orders SELECT id',
  ])('lets %s run as written', async (sql) => {
    expect(await check(sql)).toEqual({ allowed: true, sql });
  });

  it.each([
    ['SELECT * FROM salaries', 'table main.salaries is not readable'],
    ['SELECT * FROM main.salaries', 'table main.salaries is not readable'],
    ['SELECT * FROM "MAIN"."SALARIES"', 'table main.salaries is not readable'],
    ['SELECT id FROM raw.orders', 'table raw.orders is not readable'],
    // Unqualified `orders` exists in main (readable) and raw (not): refused rather than guessed.
    ['SELECT id FROM orders', 'table raw.orders is not readable'],
    ['SELECT 1 FROM customers c WHERE EXISTS (SELECT 1 FROM salaries s WHERE s.id = c.id)', 'main.salaries'],
    ['WITH x AS (SELECT * FROM salaries) SELECT COUNT(*) FROM x', 'main.salaries'],
    ['WITH salaries AS (SELECT 1) SELECT * FROM salaries', 'the CTE "salaries" has the name of a table'],
    ['SELECT email FROM customers', 'it names the excluded column email'],
    ['SELECT c.email FROM customers c', 'it names the excluded column email'],
    ['SELECT upper(email) AS e FROM customers', 'it names the excluded column email'],
    ['SELECT * FROM customers', '* would return the excluded column main.customers.email'],
    ['SELECT c.* FROM customers c', '* would return the excluded column main.customers.email'],
    ["SELECT * FROM query_table('salaries')", 'query_table() reads tables the rules cannot see'],
    ["SELECT * FROM query('SELECT * FROM salaries')", 'query() reads tables the rules cannot see'],
    ['SELECT * FROM nowhere', 'table nowhere is not among the tables the agent may read'],
    // DuckDB reads shop.salaries as catalog shop, schema main when no schema is named shop.
    ['SELECT * FROM shop.salaries', 'table shop.salaries may be main.salaries, which is not readable'],
    ['SELEC id FROM customers', 'could not be parsed'],
    ['SELECT 1; SELECT * FROM salaries', 'exactly one statement'],
    ['DESCRIBE salaries', 'main.salaries'],
  ])('refuses %s', async (sql, reason) => {
    const result = await check(sql);
    expect(result.allowed).toBe(false);
    expect(result.allowed === false && result.reason).toContain(reason);
    expect(result.allowed === false && result.reason).toContain(
      'database "shop" limits what the agent may read',
    );
  });
});
