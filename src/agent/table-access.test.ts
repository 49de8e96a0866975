import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { globToRegExp, loadSyncedTables, tableAccess, visibleTables } from './table-access.js';

describe('globToRegExp (fnmatch, as the original nao matches)', () => {
  it.each([
    ['main.*', 'main.orders', true],
    ['main.*', 'raw.orders', false],
    ['*.backup_*', 'main.backup_2024', true],
    ['prod_*.*', 'prod_eu.orders', true],
    ['public._*', 'public._prisma_migrations', true],
    ['public._*', 'public.users', false],
    ['main.order?', 'main.orders', true],
    ['main.[ab]*', 'main.accounts', true],
    ['main.[!ab]*', 'main.accounts', false],
    ['*.email', 'main.customers.email', true],
    ['analytics.events.*_id', 'analytics.events.user_id', true],
    ['main.orders', 'main.Orders', false],
  ])('%s matches %s: %s', (pattern, name, expected) => {
    expect(globToRegExp(pattern).test(name)).toBe(expected);
  });
});

describe('tableAccess', () => {
  const access = tableAccess({
    rules: {
      include: ['main.*', 'finance.budget'],
      exclude: ['main.secret*'],
      excludeColumns: ['*.*.email'],
    },
    defaultSchema: 'main',
  });

  it('reads include, then exclude, as the original does', () => {
    expect(access.restricted).toBe(true);
    expect(access.tableAllowed('main', 'orders')).toBe(true);
    expect(access.tableAllowed('finance', 'budget')).toBe(true);
    expect(access.tableAllowed('finance', 'salaries')).toBe(false);
    expect(access.tableAllowed('main', 'secret_plans')).toBe(false);
    expect(access.columnAllowed('main', 'customers', 'email')).toBe(false);
    expect(access.columnAllowed('main', 'customers', 'name')).toBe(true);
  });

  it('is open without rules', () => {
    expect(tableAccess({ rules: { include: [], exclude: [] }, defaultSchema: 'main' }).restricted).toBe(
      false,
    );
  });

  it('hides excluded tables and columns from the schema the agent is shown', () => {
    const visible = visibleTables(
      [
        {
          schema: 'main',
          name: 'customers',
          columns: [
            { name: 'id', type: 'INTEGER' },
            { name: 'email', type: 'VARCHAR' },
          ],
        },
        { schema: 'main', name: 'secret_plans', columns: [{ name: 'id', type: 'INTEGER' }] },
        { schema: 'raw', name: 'orders', columns: [{ name: 'id', type: 'INTEGER' }] },
      ],
      access,
    );
    expect(visible).toEqual([
      { schema: 'main', name: 'customers', columns: [{ name: 'id', type: 'INTEGER' }] },
    ]);
  });
});

describe('allow_listed_only', () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  it('keeps to the tables synced into databases/ by the original nao sync', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'nao-synced-'));
    for (const table of ['customers', 'orders']) {
      await mkdir(
        path.join(dir, 'databases/type=duckdb/database=jaffle_shop/schema=main', `table=${table}`),
        {
          recursive: true,
        },
      );
    }
    await mkdir(path.join(dir, 'databases/type=duckdb/database=other/schema=main/table=payments'), {
      recursive: true,
    });
    const synced = await loadSyncedTables({
      projectDir: dir,
      dialect: 'duckdb',
      databaseFolder: 'jaffle_shop',
    });
    expect([...synced].sort()).toEqual(['main.customers', 'main.orders']);
    const access = tableAccess({
      rules: { allowListedOnly: true },
      defaultSchema: 'main',
      syncedTables: synced,
    });
    expect(access.tableAllowed('main', 'orders')).toBe(true);
    expect(access.tableAllowed('main', 'payments')).toBe(false);
  });

  it('allows nothing when nothing was synced', () => {
    const access = tableAccess({ rules: { allowListedOnly: true }, defaultSchema: 'main' });
    expect(access.restricted).toBe(true);
    expect(access.tableAllowed('main', 'orders')).toBe(false);
  });
});
