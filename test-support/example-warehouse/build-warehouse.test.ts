import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildExampleWarehouse, ensureExampleWarehouse, generateShopData } from './index.js';

const TABLES = ['customers', 'products', 'orders', 'order_items', 'payments'];

async function dumpTables(file: string): Promise<Record<string, string>> {
  const instance = await DuckDBInstance.create(file, { access_mode: 'READ_ONLY' });
  const connection = await instance.connect();
  try {
    const dump: Record<string, string> = {};
    for (const table of TABLES) {
      const reader = await connection.runAndReadAll(`SELECT * FROM ${table} ORDER BY ALL`);
      dump[table] = createHash('sha256').update(JSON.stringify(reader.getRowsJson())).digest('hex');
    }
    return dump;
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

describe('example warehouse', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'nao-example-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('generates the same rows from the same seed, and other rows from another seed', () => {
    const a = generateShopData();
    const b = generateShopData();
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(JSON.stringify(generateShopData({ seed: 7 }))).not.toBe(JSON.stringify(a));
  });

  it('has the size and time span the README promises', () => {
    const data = generateShopData();
    expect(data.customers).toHaveLength(400);
    expect(data.orders).toHaveLength(2500);
    expect(data.order_items.length).toBeGreaterThan(5000);
    const dates = data.orders.map((order) => order.order_date).sort();
    expect(dates[0]! >= '2024-01-01').toBe(true);
    expect(dates.at(-1)! <= '2025-12-31').toBe(true);
    expect(new Set(data.orders.map((order) => order.status))).toEqual(
      new Set(['placed', 'shipped', 'completed', 'returned', 'cancelled']),
    );
  });

  it('builds two identical warehouses, with the payments matching the order lines', async () => {
    const first = path.join(dir, 'a.duckdb');
    const second = path.join(dir, 'b.duckdb');
    await buildExampleWarehouse({ path: first });
    await buildExampleWarehouse({ path: second });
    expect(await dumpTables(first)).toEqual(await dumpTables(second));

    const instance = await DuckDBInstance.create(first, { access_mode: 'READ_ONLY' });
    const connection = await instance.connect();
    try {
      // The RULES.md promise: per order, payments add up to the item sales.
      const reader = await connection.runAndReadAll(`
        SELECT COUNT(*) FROM (
          SELECT o.order_id,
                 (SELECT SUM(quantity * unit_price) FROM order_items i WHERE i.order_id = o.order_id) AS items,
                 (SELECT SUM(amount) FROM payments p WHERE p.order_id = o.order_id) AS paid
          FROM orders o WHERE o.status <> 'cancelled'
        ) WHERE items IS DISTINCT FROM paid`);
      expect(reader.getRowsJson()).toEqual([['0']]);
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  });

  it('builds only when the file is missing', async () => {
    const target = path.join(dir, 'ensure.duckdb');
    expect(await ensureExampleWarehouse({ path: target })).toBe(true);
    expect(await ensureExampleWarehouse({ path: target })).toBe(false);
  });

  it('builds the same file from two test workers at once, both ending with the whole warehouse', async () => {
    // Test files of a fresh checkout each ensure the example warehouse, in parallel.
    const target = path.join(dir, 'raced.duckdb');
    await Promise.all([ensureExampleWarehouse({ path: target }), ensureExampleWarehouse({ path: target })]);
    const instance = await DuckDBInstance.create(target, { access_mode: 'READ_ONLY' });
    const connection = await instance.connect();
    try {
      const reader = await connection.runAndReadAll('SELECT count(*)::INTEGER FROM orders');
      expect(reader.getRowsJson()[0]![0]).toBeGreaterThan(0);
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
    expect(readdirSync(dir).filter((name) => name.startsWith('raced'))).toEqual(['raced.duckdb']);
  });
});
