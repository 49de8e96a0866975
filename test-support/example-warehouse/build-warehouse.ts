import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { DuckDBInstance } from '@duckdb/node-api';
import { generateShopData, type ShopData } from './shop-data.js';

const DDL = `
CREATE TABLE customers (
  customer_id INTEGER PRIMARY KEY,
  first_name VARCHAR NOT NULL,
  last_name VARCHAR NOT NULL,
  email VARCHAR NOT NULL,
  city VARCHAR NOT NULL,
  country VARCHAR NOT NULL,
  signup_date DATE NOT NULL
);
CREATE TABLE products (
  product_id INTEGER PRIMARY KEY,
  name VARCHAR NOT NULL,
  category VARCHAR NOT NULL,
  price DECIMAL(10, 2) NOT NULL
);
CREATE TABLE orders (
  order_id INTEGER PRIMARY KEY,
  customer_id INTEGER NOT NULL,
  order_date DATE NOT NULL,
  status VARCHAR NOT NULL
);
CREATE TABLE order_items (
  order_item_id INTEGER PRIMARY KEY,
  order_id INTEGER NOT NULL,
  product_id INTEGER NOT NULL,
  quantity INTEGER NOT NULL,
  unit_price DECIMAL(10, 2) NOT NULL
);
CREATE TABLE payments (
  payment_id INTEGER PRIMARY KEY,
  order_id INTEGER NOT NULL,
  payment_method VARCHAR NOT NULL,
  amount DECIMAL(12, 2) NOT NULL,
  paid_at TIMESTAMP NOT NULL
);
`;

function literal(value: string | number): string {
  return typeof value === 'number' ? String(value) : `'${value.replaceAll("'", "''")}'`;
}

/**
 * Writes the example shop into a DuckDB file. The file is built beside the target under a name
 * of its own and renamed into place, so an interrupted build never leaves a half-filled
 * warehouse behind, and builds racing for one target (test files of a fresh checkout) each
 * end with a whole one.
 */
export async function buildExampleWarehouse(options: { path: string; data?: ShopData }): Promise<void> {
  const data = options.data ?? generateShopData();
  const partial = `${options.path}.building-${randomUUID()}`;
  try {
    await writeShop(partial, data);
    await rename(partial, options.path);
  } finally {
    await rm(partial, { force: true });
    await rm(`${partial}.wal`, { force: true });
  }
}

async function writeShop(file: string, data: ShopData): Promise<void> {
  const instance = await DuckDBInstance.create(file);
  const connection = await instance.connect();
  try {
    await connection.run(DDL);
    for (const [table, rows] of Object.entries(data) as [
      keyof ShopData,
      Record<string, string | number>[],
    ][]) {
      const columns = Object.keys(rows[0] ?? {});
      for (let start = 0; start < rows.length; start += 1000) {
        const values = rows
          .slice(start, start + 1000)
          .map((row) => `(${columns.map((column) => literal(row[column]!)).join(', ')})`)
          .join(',\n');
        await connection.run(`INSERT INTO ${table} (${columns.join(', ')}) VALUES ${values}`);
      }
    }
    await connection.run('CHECKPOINT');
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** Builds the example warehouse only when it is missing; returns whether it built it. */
export async function ensureExampleWarehouse(options: { path: string }): Promise<boolean> {
  if (existsSync(options.path)) return false;
  await buildExampleWarehouse(options);
  return true;
}
