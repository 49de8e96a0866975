import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool } from '../../test-support/agent/scripted-model.js';
import { createGrepTool } from './grep.js';
import { createListTool } from './list.js';
import { createReadTool } from './read.js';
import { rowSecurityHiddenFiles } from './row-security-files.js';
import { tableAccess } from './table-access.js';

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
      { schema: 'main', table: 'salaries', access: 'none' },
      { schema: 'main', table: 'products', access: 'full' },
    ],
  },
  defaultSchema: 'main',
});
const hidden = rowSecurityHiddenFiles(access.rowPolicies);
const TABLE_DIR = 'databases/type=duckdb/database=shop/schema=main';

describe('rowSecurityHiddenFiles', () => {
  it.each([
    [
      `${TABLE_DIR}/table=orders/preview.md`,
      'main.orders, which row security hides (row_security access: predicate)',
    ],
    [
      `${TABLE_DIR}/table=SALARIES/profiling.md`,
      'main.salaries, which row security hides (row_security access: none)',
    ],
    [`${TABLE_DIR}/table=salaries/ai_summary.md`, 'row_security access: none'],
  ])('hides %s', (file, reason) => {
    expect(hidden?.(file)).toContain(reason);
  });

  it.each([
    `${TABLE_DIR}/table=orders/columns.md`,
    `${TABLE_DIR}/table=salaries/description.md`,
    `${TABLE_DIR}/table=products/preview.md`,
    `${TABLE_DIR}/table=orders`,
    'docs/orders.md',
  ])('leaves %s readable', (file) => {
    expect(hidden?.(file)).toBeNull();
  });

  it('is not needed without a policy that restricts rows', () => {
    expect(rowSecurityHiddenFiles([])).toBeUndefined();
  });
});

describe('context tools under row security', () => {
  let projectDir: string;
  beforeAll(async () => {
    projectDir = await realpath(await mkdtemp(path.join(tmpdir(), 'nao-rls-files-')));
    for (const table of ['orders', 'products']) {
      const dir = path.join(projectDir, TABLE_DIR, `table=${table}`);
      await mkdir(dir, { recursive: true });
      await writeFile(path.join(dir, 'columns.md'), '| id | region |\n');
      await writeFile(path.join(dir, 'preview.md'), `| 4 | US | HIDDEN-${table} |\n`);
    }
  });
  afterAll(async () => {
    await rm(projectDir, { recursive: true, force: true });
  });

  it('refuses to read a preview of a restricted table, and reads the rest', async () => {
    const read = createReadTool({ projectDir, hidden });
    expect(await callTool(read, { path: `${TABLE_DIR}/table=orders/preview.md` })).toEqual({
      error: expect.stringContaining('which row security hides'),
    });
    expect(JSON.stringify(await callTool(read, { path: `${TABLE_DIR}/table=orders/columns.md` }))).toContain(
      'region',
    );
    expect(
      JSON.stringify(await callTool(read, { path: `${TABLE_DIR}/table=products/preview.md` })),
    ).toContain('HIDDEN-products');
  });

  it('leaves the preview out of list and grep', async () => {
    const listed = JSON.stringify(await callTool(createListTool({ projectDir, hidden }), {}));
    expect(listed).toContain('table=orders/columns.md');
    expect(listed).not.toContain('table=orders/preview.md');
    const found = JSON.stringify(
      await callTool(createGrepTool({ projectDir, hidden }), { pattern: 'HIDDEN' }),
    );
    expect(found).toContain('HIDDEN-products');
    expect(found).not.toContain('HIDDEN-orders');
  });
});
