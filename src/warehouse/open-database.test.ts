import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from './open-database.js';
import { WarehouseError } from './warehouse-error.js';

let projectDir: string;
let file: string;

beforeAll(async () => {
  projectDir = mkdtempSync(path.join(os.tmpdir(), 'nao-open-'));
  mkdirSync(path.join(projectDir, 'data'));
  file = path.join(projectDir, 'data', 'shop.duckdb');
  const writer = await DuckDBInstance.create(file);
  const connection = await writer.connect();
  await connection.run("CREATE TABLE marker AS SELECT 'shop' AS name");
  connection.closeSync();
  writer.closeSync();
});

afterAll(() => {
  rmSync(projectDir, { recursive: true, force: true });
});

describe('openDatabase', () => {
  it.each<[string, () => { path: string; projectDir?: string }]>([
    ['a path relative to projectDir', () => ({ path: 'data/shop.duckdb', projectDir })],
    ['an absolute path, whatever projectDir says', () => ({ path: file, projectDir: os.tmpdir() })],
    [
      'a relative path without projectDir, against the working directory',
      () => ({ path: path.relative(process.cwd(), file) }),
    ],
  ])('opens %s', async (_label, setup) => {
    const { path: configured, projectDir: dir } = setup();
    const db = await openDatabase({ type: 'duckdb', name: 'shop', path: configured }, { projectDir: dir });
    try {
      expect(db.name).toBe('shop');
      expect(db.dialect).toBe('duckdb');
      expect((await db.query('SELECT name FROM marker')).rows).toEqual([['shop']]);
    } finally {
      await db.close();
    }
  });

  it('names the resolved path when the file is missing', async () => {
    const error = await openDatabase(
      { type: 'duckdb', name: 'shop', path: 'data/missing.duckdb' },
      { projectDir },
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(WarehouseError);
    expect((error as WarehouseError).code).toBe('CONNECTION_FAILED');
    expect((error as WarehouseError).message).toContain(path.join(projectDir, 'data', 'missing.duckdb'));
  });
});
