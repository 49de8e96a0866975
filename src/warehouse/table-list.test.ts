import { describe, expect, it } from 'vitest';
import { tablesOfColumns, tablesOfRows } from './table-list.js';

describe('tablesOfColumns', () => {
  it('gathers the columns of each table in row order, tables in the order they first appear', () => {
    expect(
      tablesOfColumns([
        { schema: 'shop', table: 'orders', column: { name: 'id', type: 'BIGINT' } },
        { schema: 'shop', table: 'orders', column: { name: 'total', type: 'DECIMAL(10,2)' } },
        { schema: 'audit', table: 'orders', column: { name: 'at', type: 'TIMESTAMP' } },
        { schema: 'shop', table: 'users', column: { name: 'email', type: 'VARCHAR' } },
      ]),
    ).toEqual([
      {
        schema: 'shop',
        name: 'orders',
        columns: [
          { name: 'id', type: 'BIGINT' },
          { name: 'total', type: 'DECIMAL(10,2)' },
        ],
      },
      { schema: 'audit', name: 'orders', columns: [{ name: 'at', type: 'TIMESTAMP' }] },
      { schema: 'shop', name: 'users', columns: [{ name: 'email', type: 'VARCHAR' }] },
    ]);
  });

  it('keeps a table listed without columns, and tells a schema "a.b" from a table "b" of schema "a"', () => {
    expect(
      tablesOfColumns([
        { schema: 'a.b', table: 'c' },
        { schema: 'a', table: 'b.c', column: { name: 'x', type: 'INT' } },
      ]),
    ).toEqual([
      { schema: 'a.b', name: 'c', columns: [] },
      { schema: 'a', name: 'b.c', columns: [{ name: 'x', type: 'INT' }] },
    ]);
  });
});

describe('tablesOfRows', () => {
  it('reads [schema, table, name, type] rows, a null name as a table without columns', () => {
    expect(
      tablesOfRows([
        ['public', 'empty', null, null],
        ['public', 'orders', 'id', 'bigint'],
        ['public', 'orders', 'total', 'numeric(10,2)'],
      ]),
    ).toEqual([
      { schema: 'public', name: 'empty', columns: [] },
      {
        schema: 'public',
        name: 'orders',
        columns: [
          { name: 'id', type: 'bigint' },
          { name: 'total', type: 'numeric(10,2)' },
        ],
      },
    ]);
  });
});
