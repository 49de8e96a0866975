import { DuckDBInstance } from '@duckdb/node-api';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FreshConnections } from './fresh-connections.js';

let instance: DuckDBInstance;

beforeEach(async () => {
  instance = await DuckDBInstance.create(':memory:');
});
afterEach(() => instance.closeSync());

async function connectionCount(): Promise<number> {
  const probe = await instance.connect();
  try {
    // The probe itself is one of them.
    const reader = await probe.runAndReadAll('SELECT * FROM duckdb_connection_count()');
    return Number(reader.getRows()[0]![0]) - 1;
  } finally {
    probe.closeSync();
  }
}

describe('FreshConnections', () => {
  it('hands out a new session every time, with the next one already open', async () => {
    const connections = new FreshConnections(instance);
    const first = await connections.take();
    await first.run('CREATE TEMP TABLE mine AS SELECT 1 AS n; SET VARIABLE seen = 42');
    const second = await connections.take();
    await expect(second.run('SELECT * FROM mine')).rejects.toThrow(/does not exist/);
    expect((await second.runAndReadAll("SELECT getvariable('seen')")).getRows()).toEqual([[null]]);
    // first, second, and the spare opened for the next caller (connecting in the background).
    await vi.waitFor(async () => expect(await connectionCount()).toBe(3));
    first.closeSync();
    second.closeSync();
    await connections.dispose();
    expect(await connectionCount()).toBe(0);
  });
});
