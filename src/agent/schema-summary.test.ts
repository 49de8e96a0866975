import { describe, expect, it } from 'vitest';
import type { TableInfo } from '../warehouse/index.js';
import { quoteIfNeeded, summarizeSchema } from './schema-summary.js';

function table(name: string, columns = 3, schema: string | null = 'main'): TableInfo {
  return {
    schema,
    name,
    columns: Array.from({ length: columns }, (_, i) => ({
      name: `col_${i}`,
      type: i === 0 ? 'INTEGER' : 'VARCHAR',
    })),
  };
}

const LIMITS = { maxDetailedTables: 5, maxDetailedColumns: 40, maxListedTables: 8 };

describe('summarizeSchema', () => {
  it('lists every column of a small schema, sorted by schema and table', () => {
    const text = summarizeSchema({
      dialect: 'duckdb',
      tables: [table('orders', 2), table('customers', 1), table('events', 1, 'analytics')],
      limits: LIMITS,
    });
    expect(text).toBe(
      [
        '3 tables, all columns shown (name type):',
        '- analytics.events: col_0 INTEGER',
        '- main.customers: col_0 INTEGER',
        '- main.orders: col_0 INTEGER, col_1 VARCHAR',
      ].join('\n'),
    );
  });

  it('lists table names only, with the query to see columns, beyond the table limit', () => {
    const tables = Array.from({ length: 6 }, (_, i) => table(`t${i}`));
    const text = summarizeSchema({ dialect: 'postgres', tables, limits: LIMITS });
    expect(text).toContain('6 tables with 18 columns in total');
    expect(text).toContain('only table names are listed');
    expect(text).toContain('information_schema.columns');
    expect(text).toContain('- main: t0, t1, t2, t3, t4, t5');
    expect(text).not.toContain('col_0');
  });

  it('lists table names only beyond the column limit, even with few tables', () => {
    const text = summarizeSchema({ dialect: 'duckdb', tables: [table('wide', 41)], limits: LIMITS });
    expect(text).toContain('1 table with 41 columns in total');
    expect(text).not.toContain('col_40');
  });

  it('states how many tables are left out beyond the listing limit and how to find them', () => {
    const tables = Array.from({ length: 20 }, (_, i) => table(`t${String(i).padStart(2, '0')}`));
    const text = summarizeSchema({ dialect: 'mysql', tables, limits: LIMITS });
    expect(text).toContain('Only the first 8 of 20 table names (alphabetical) are listed; 12 more exist.');
    expect(text).toContain("information_schema.tables WHERE table_name LIKE '%<word>%'");
    expect(text).toContain('- main: t00, t01, t02, t03, t04, t05, t06, t07');
    expect(text).not.toContain('t08');
  });

  it('uses the engine catalog of SQLite, which has no information_schema', () => {
    const tables = Array.from({ length: 6 }, (_, i) => table(`t${i}`, 1, null));
    const text = summarizeSchema({ dialect: 'sqlite', tables, limits: LIMITS });
    expect(text).toContain("pragma_table_info('<table>')");
    expect(text).toContain('- t0, t1, t2, t3, t4, t5');
  });

  it('says so when a database has no tables', () => {
    expect(summarizeSchema({ dialect: 'duckdb', tables: [] })).toBe(
      'No tables are visible in this database.',
    );
  });

  it('shortens very long type names visibly', () => {
    const text = summarizeSchema({
      dialect: 'duckdb',
      tables: [
        {
          schema: 'main',
          name: 'nested',
          columns: [{ name: 'payload', type: `STRUCT(${'a INTEGER, '.repeat(30)})` }],
        },
      ],
    });
    expect(text).toMatch(/payload STRUCT\(a INTEGER, .*…$/m);
  });

  it('names the tables row security restricts, and how, but not their filters', () => {
    const text = summarizeSchema({
      dialect: 'postgres',
      tables: [table('orders', 1, 'public'), table('Payroll', 1, 'public'), table('customers', 1, 'public')],
      limits: LIMITS,
      rowPolicies: [
        {
          schema: 'public',
          table: 'orders',
          access: 'predicate',
          predicate: "region = 'EU'",
          columns: ['region'],
        },
        { schema: 'public', table: 'payroll', access: 'none', predicate: '1 = 0', columns: [] },
        { schema: 'public', table: 'not_listed', access: 'none', predicate: '1 = 0', columns: [] },
      ],
    });
    expect(text.split('\n').at(-1)).toBe(
      'Row security lets you read public."Payroll" (no rows), public.orders (only some rows): queries on these ' +
        'tables return only those rows, so counts and totals cover them alone. Say so when it matters to the answer.',
    );
    expect(text).not.toContain('EU');
  });

  it('adds nothing when no policy restricts rows', () => {
    const text = summarizeSchema({
      dialect: 'duckdb',
      tables: [table('orders', 1)],
      limits: LIMITS,
      rowPolicies: [],
    });
    expect(text).not.toContain('Row security');
  });
});

describe('quoteIfNeeded', () => {
  it.each([
    ['orders', 'duckdb', 'orders'],
    ['order items', 'duckdb', '"order items"'],
    ['order items', 'mysql', '`order items`'],
    ['weird"name', 'postgres', '"weird""name"'],
    ['OrderItems', 'postgres', '"OrderItems"'],
    ['OrderItems', 'duckdb', 'OrderItems'],
    ['2024_sales', 'sqlite', '"2024_sales"'],
    ['my-project', 'bigquery', '`my-project`'],
    ['odd`name', 'bigquery', '`odd\\`name`'],
    ['ORDERS', 'snowflake', 'ORDERS'],
    ['orders', 'snowflake', '"orders"'],
    ['Order Details', 'mssql', '[Order Details]'],
    ['odd]name', 'fabric', '[odd]]name]'],
    ['order`items', 'databricks', '`order``items`'],
  ] as const)('%s in %s → %s', (identifier, dialect, expected) => {
    expect(quoteIfNeeded(identifier, dialect)).toBe(expected);
  });
});
