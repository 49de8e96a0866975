import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NaoError } from '../errors/index.js';
import { discoverTests } from './discover-tests.js';
import { parseSelection, type Selection, selectTests } from './select-tests.js';
import type { TestCase } from './test-case.js';

let root: string;

async function suite(name: string, files: Record<string, string | null>): Promise<TestCase[]> {
  const testsDir = path.join(root, name, 'tests');
  for (const [relative, testName] of Object.entries(files)) {
    const file = path.join(testsDir, ...relative.split('/'));
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, `${testName === null ? '' : `name: ${testName}\n`}prompt: q\nsql: SELECT 1\n`);
  }
  const { tests, problems } = await discoverTests({ testsDir });
  expect(problems).toEqual([]);
  return tests;
}

/** Discovery order of this suite: archive/, contracts/eu/, contracts/, customer…, reports/, total…. */
let tests: TestCase[];
/** A root file and a nested file with the same stem. */
let sameStem: TestCase[];
/** One test's name is another test's file stem. */
let nameIsStem: TestCase[];

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'nao-select-'));
  tests = await suite('main', {
    'total_revenue.yml': 'total_revenue',
    'customer_metrics.yaml': 'customers',
    'contracts/orders.yml': 'contract_orders',
    'contracts/eu/refunds.yml': null,
    'archive/orders.yml': 'old_orders',
    'reports/contracts.yml': 'contracts',
  });
  sameStem = await suite('same-stem', { 'orders.yml': 'orders_now', 'archive/orders.yml': 'orders_then' });
  nameIsStem = await suite('name-is-stem', { 'revenue.yml': 'revenue_v2', 'monthly.yml': 'revenue' });
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

function names(select: Selection, from: TestCase[] = tests): string[] {
  return selectTests({ tests: from, select }).map((test) => test.name);
}

function failure(select: Selection, from: TestCase[] = tests): { code: string; message: string } {
  try {
    selectTests({ tests: from, select });
  } catch (error) {
    expect(error).toBeInstanceOf(NaoError);
    return { code: (error as NaoError).code, message: (error as NaoError).message };
  }
  throw new Error(`selection ${JSON.stringify(select)} did not fail`);
}

const ALL = ['old_orders', 'refunds', 'contract_orders', 'customers', 'contracts', 'total_revenue'];

describe('parseSelection', () => {
  it.each<[Selection, string[]]>([
    [undefined, []],
    ['', []],
    [[], []],
    ['a', ['a']],
    ['a,b', ['a', 'b']],
    [' a , ,b,, ', ['a', 'b']],
    ['b,a,b', ['b', 'a']],
    [
      ['b', 'a,c', 'b'],
      ['b', 'a', 'c'],
    ],
    [[' ', ','], []],
  ])('%j → %j', (select, expected) => {
    expect(parseSelection(select)).toEqual(expected);
  });
});

describe('selectTests', () => {
  it.each<[string, Selection, string[]]>([
    ['no selection runs everything', undefined, ALL],
    ['an empty selection runs everything', ' , ', ALL],
    ['an empty list of flags runs everything', [], ALL],
    ['a test name', 'total_revenue', ['total_revenue']],
    ['a file stem', 'customer_metrics', ['customers']],
    ['a name that differs from its stem', 'customers', ['customers']],
    ['a stem defaulted into the name', 'refunds', ['refunds']],
    ['several names, in the order given', 'total_revenue,customers', ['total_revenue', 'customers']],
    [
      'whitespace, empties and repeats',
      ' customers , ,total_revenue,customers ',
      ['customers', 'total_revenue'],
    ],
    ['repeated flags', ['customers', 'total_revenue,customers'], ['customers', 'total_revenue']],
    ['a folder wins over a test of the same name', 'contracts', ['refunds', 'contract_orders']],
    ['a nested folder name', 'eu', ['refunds']],
    ['a folder path from tests/', 'contracts/eu', ['refunds']],
    ['a folder path with a trailing slash', 'contracts/', ['refunds', 'contract_orders']],
    ['a test, then its folder: no repeat', 'contract_orders,contracts', ['contract_orders', 'refunds']],
    [
      'a folder, then one of its tests: no repeat',
      'contracts,refunds,total_revenue',
      ['refunds', 'contract_orders', 'total_revenue'],
    ],
    ['a file path without extension', 'contracts/orders', ['contract_orders']],
    ['a file path with extension', 'archive/orders.yml', ['old_orders']],
    ['a file name with extension', 'customer_metrics.yaml', ['customers']],
    ['a unique file name at any depth', 'refunds.yml', ['refunds']],
    ['a ./ prefix', './contracts/orders.yml', ['contract_orders']],
    ['a tests/ prefix, as a shell completes it', 'tests/contracts/orders.yml', ['contract_orders']],
    ['backslashes', 'contracts\\orders.yml', ['contract_orders']],
  ])('%s', (_label, select, expected) => {
    expect(names(select)).toEqual(expected);
  });

  it('returns the discovered tests themselves', () => {
    expect(selectTests({ tests, select: 'total_revenue' })[0]).toBe(tests.at(-1));
  });

  it('rejects an unknown item, listing every test name', () => {
    expect(failure('nope')).toEqual({
      code: 'TEST_NOT_FOUND',
      message:
        'Test not found: nope. Available tests: old_orders, refunds, contract_orders, customers, contracts, total_revenue',
    });
  });

  it('names every unknown item at once', () => {
    expect(failure('nope,total_revenue, zzz').message).toMatch(
      /^Tests not found: nope, zzz\. Available tests: /,
    );
  });

  it.each([['Total_Revenue'], ['total'], ['contract'], ['orders.json'], ['tests/nope.yml']])(
    'matches exactly, never loosely: %s',
    (item) => {
      expect(failure(item).code).toBe('TEST_NOT_FOUND');
    },
  );

  it('says when there are no tests at all', () => {
    expect(failure('x', [])).toEqual({
      code: 'TEST_NOT_FOUND',
      message: 'Test not found: x. Available tests: (none)',
    });
  });

  it('rejects a stem shared by several tests, listing them with their files', () => {
    expect(failure('orders')).toEqual({
      code: 'AMBIGUOUS_SELECTION',
      message:
        'Ambiguous selection: "orders" matches 2 tests: old_orders (archive/orders.yml), contract_orders (contracts/orders.yml). ' +
        'Select one of them by its path, e.g. archive/orders.yml',
    });
  });

  it('rejects an item that is one test’s name and another’s stem', () => {
    expect(failure('revenue', nameIsStem)).toEqual({
      code: 'AMBIGUOUS_SELECTION',
      message:
        'Ambiguous selection: "revenue" matches 2 tests: revenue (monthly.yml), revenue_v2 (revenue.yml). ' +
        'Select one of them by its path, e.g. monthly.yml',
    });
    expect(names('revenue.yml', nameIsStem)).toEqual(['revenue_v2']);
    expect(names('monthly', nameIsStem)).toEqual(['revenue']);
  });

  it('takes a full file path over the same file name in a subfolder', () => {
    expect(failure('orders', sameStem).code).toBe('AMBIGUOUS_SELECTION');
    expect(names('orders.yml', sameStem)).toEqual(['orders_now']);
    expect(names('archive/orders.yml', sameStem)).toEqual(['orders_then']);
  });

  it('reports unknown items before ambiguous ones', () => {
    expect(failure('orders,nope').code).toBe('TEST_NOT_FOUND');
  });
});
