import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runNao } from '../../test-support/cli/run-cli.js';
import { ConfigInvalidError, parseConfig } from '../config/index.js';
import { checkRowPredicate } from './row-predicate.js';

function configWith(policies: string): string {
  return `databases:\n  - name: shop\n    type: duckdb\n    path: shop.duckdb\n    row_security:\n${policies}`;
}

function problemsOf(text: string): string[] {
  try {
    parseConfig({ text, projectDir: '/projects/shop', env: {} });
  } catch (error) {
    if (error instanceof ConfigInvalidError) return error.problems;
    throw error;
  }
  throw new Error('expected the config to be invalid');
}

describe('row_security in nao_config.yaml', () => {
  it('reads the original nao keys of the three policies', () => {
    const config = parseConfig({
      text: configWith(
        '      - { schema: main, table: orders, access: predicate, constraint_columns: [region], predicate: "region = \'EU\'" }\n' +
          '      - { schema: main, table: salaries, access: none }\n' +
          '      - { schema: main, table: products, access: full }\n',
      ),
      projectDir: '/projects/shop',
      env: {},
    });
    expect(config.databases[0]?.row_security).toEqual([
      {
        schema: 'main',
        table: 'orders',
        access: 'predicate',
        constraint_columns: ['region'],
        predicate: "region = 'EU'",
      },
      { schema: 'main', table: 'salaries', access: 'none' },
      { schema: 'main', table: 'products', access: 'full' },
    ]);
    expect(config.warnings).toEqual([]);
  });

  it.each([
    [
      '      - { schema: main, table: orders, access: partial }\n',
      'databases[0].row_security[0].access: must be one of none, full, predicate, got "partial"',
    ],
    [
      '      - { schema: main, table: orders, access: predicate, constraint_columns: [region] }\n',
      'databases[0].row_security[0].predicate: is required with `access: predicate`',
    ],
    [
      '      - { schema: main, table: orders, access: predicate, predicate: "region = 1" }\n',
      'databases[0].row_security[0].constraint_columns: is required with `access: predicate`',
    ],
    [
      '      - { schema: main, table: orders, access: predicate, constraint_columns: [region], predicate: "region = " }\n',
      'databases[0].row_security[0].predicate: "region = " is not a row filter nao can apply: expected a column or a literal at the end',
    ],
    [
      '      - { schema: main, table: orders, access: predicate, constraint_columns: [region], predicate: "owner = 1" }\n',
      'column "owner" is not one of constraint_columns ("region")',
    ],
    [
      '      - { schema: main, table: orders, access: none, predicate: "region = 1" }\n',
      'databases[0].row_security[0].predicate: is only read with `access: predicate`',
    ],
    [
      '      - { schema: main, table: orders, access: none }\n      - { schema: MAIN, table: Orders, access: full }\n',
      'databases[0].row_security[1].table: a second policy for MAIN.Orders',
    ],
    ['      - { table: orders, access: none }\n', 'databases[0].row_security[0].schema:'],
  ])('refuses %s', (policies, problem) => {
    const problems = problemsOf(configWith(policies));
    expect(problems.join('\n')).toContain(problem);
  });
});

describe('nao test validate on a bad row_security', () => {
  it('exits 2 naming the file, the YAML path and the value', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'nao-row-security-'));
    try {
      await writeFile(
        path.join(dir, 'nao_config.yaml'),
        configWith(
          '      - { schema: main, table: orders, access: predicate, constraint_columns: [region], predicate: "region = lower(\'EU\')" }\n',
        ),
      );
      await mkdir(path.join(dir, 'tests'));
      await writeFile(path.join(dir, 'tests', 'q.yml'), 'prompt: How many orders?\nsql: SELECT 1\n');
      const { code, stdout, stderr } = await runNao({ args: ['test', 'validate'], cwd: dir, env: {} });
      expect(code).toBe(2);
      expect(stdout + stderr).toContain('nao_config.yaml is invalid');
      expect(stdout + stderr).toContain(
        'databases[0].row_security[0].predicate: "region = lower(\'EU\')" is not a row filter nao can apply: functions are not allowed (lower)',
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('checkRowPredicate', () => {
  const columns = ['region', 'tenant_id', 'Owner'];

  it.each([
    ["region = 'EU'", ['region']],
    ["REGION <> 'EU' AND tenant_id IN (1, 2, -3)", ['region', 'tenant_id']],
    ["NOT (region = 'EU' OR tenant_id BETWEEN 1 AND 9.5)", ['region', 'tenant_id']],
    ['tenant_id IS NOT NULL', ['tenant_id']],
    ["\"Owner\" = 'it''s'", ['Owner']],
    ["region NOT IN ('EU', 'US')", ['region']],
    ['tenant_id >= 1e3', ['tenant_id']],
  ])('accepts %s', (predicate, named) => {
    expect(checkRowPredicate({ predicate, constraintColumns: columns })).toEqual({
      valid: true,
      columns: named,
    });
  });

  it.each([
    ['', 'it is empty'],
    ["region = 'EU'; DROP TABLE x", 'comments and `;` are not allowed'],
    ["region = 'EU' -- all", 'comments and `;` are not allowed'],
    ["region = 'EU' /* x */", 'comments and `;` are not allowed'],
    ['lower(region) = 1', 'functions are not allowed'],
    ["o.region = 'EU'", 'columns must be unqualified'],
    ['region IN (SELECT 1)', 'expected a column or a literal before "SELECT"'],
    ['1 = 1', 'every comparison must name one of the constraint columns'],
    ["region = 'EU' OR TRUE", 'expected a comparison'],
    ['"owner" = 1', 'column "owner" is not one of constraint_columns'],
    ['secret = 1', 'column "secret" is not one of constraint_columns'],
    ["region = 'EU", 'unterminated string'],
    ['region = 1 region', 'unexpected "region"'],
  ])('refuses %s', (predicate, error) => {
    const checked = checkRowPredicate({ predicate, constraintColumns: columns });
    expect(checked.valid).toBe(false);
    expect(!checked.valid && checked.error).toContain(error);
  });
});
