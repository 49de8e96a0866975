import { describe, expect, it } from 'vitest';
import { tableAccess } from '../agent/index.js';
import type { ProjectRuntime } from '../test-run/index.js';
import type { Database, TableInfo } from '../warehouse/index.js';
import { checkReferenceAccess } from './reference-access.js';

const column = (name: string) => ({ name, type: 'VARCHAR' });
const CATALOG: TableInfo[] = [
  { schema: 'main', name: 'orders', columns: [column('id'), column('region')] },
  { schema: 'main', name: 'products', columns: [column('id')] },
];

/** The parts of a runtime the check reads: one database, its catalog and its row policies. */
function runtime(): ProjectRuntime {
  const access = tableAccess({
    rules: {
      rowSecurity: [
        {
          schema: 'main',
          table: 'orders',
          access: 'predicate',
          constraint_columns: ['region'],
          predicate: "region = 'EU'",
        },
      ],
    },
    defaultSchema: 'main',
  });
  return {
    databases: [{ name: 'shop' } as Database],
    config: { unavailableDatabases: [] },
    agentContext: { access: { shop: access }, catalogs: { shop: CATALOG } },
  } as unknown as ProjectRuntime;
}

describe('checkReferenceAccess under row security', () => {
  it("refuses a member's reference SQL that reads a table row security filters for the agent", async () => {
    const checked = await checkReferenceAccess({
      runtime: runtime(),
      sql: 'SELECT * FROM orders',
      databaseName: null,
    });
    expect(checked).toEqual({
      allowed: false,
      reason: expect.stringContaining('it reads a table with row_security in database "shop"'),
    });
  });

  it('lets reference SQL on other tables run', async () => {
    expect(
      await checkReferenceAccess({ runtime: runtime(), sql: 'SELECT * FROM products', databaseName: 'shop' }),
    ).toEqual({ allowed: true });
  });
});
