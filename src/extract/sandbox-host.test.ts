import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CellValue } from '../warehouse/index.js';
import { loadTables, type SourceTable } from './load-tables.js';
import { type HostedSandbox, SandboxHost } from './sandbox-host.js';

function table(id: string, rows: CellValue[][]): SourceTable {
  return {
    id,
    columns: [
      { name: 'n', type: 'INTEGER' },
      { name: 'name', type: 'VARCHAR' },
    ],
    rows,
  };
}

async function loaded(host: SandboxHost, source: SourceTable): Promise<HostedSandbox> {
  const hosted = await host.connect();
  await loadTables({ connection: hosted.connection, tables: [source], scratchFile: hosted.scratchFile });
  return hosted;
}

const memoryInUse = async (hosted: HostedSandbox) =>
  Number(
    (
      await hosted.connection.runAndReadAll('SELECT sum(memory_usage_bytes) FROM duckdb_memory()')
    ).getRows()[0]![0],
  );

// Reaching past the safety check on purpose: the engine's own layer must hold alone.
describe('a sandbox engine, for SQL that skips the safety check', () => {
  let host: SandboxHost;
  let hostDir: string;
  let hostFile: string;

  beforeAll(async () => {
    host = await SandboxHost.create({
      threads: 1,
      memoryLimitBytes: 64 * 1024 * 1024,
      spareConnection: true,
    });
    hostDir = await mkdtemp(path.join(tmpdir(), 'nao-sandbox-host-'));
    hostFile = path.join(hostDir, 'precious.csv');
    await writeFile(hostFile, 'original content\n');
  });
  afterAll(async () => {
    host.close();
    await rm(hostDir, { recursive: true, force: true });
  });

  it('has external access off and its configuration locked', async () => {
    const { connection } = await loaded(host, table('query_a', [[1, 'x']]));
    await expect(connection.run(`COPY query_a TO '${hostFile}'`)).rejects.toThrow(
      /disabled by configuration/,
    );
    await expect(connection.run(`SELECT * FROM read_text('${hostFile}')`)).rejects.toThrow(/disabled/);
    await expect(connection.run('SET enable_external_access = true')).rejects.toThrow(/locked/);
    await expect(connection.run(`ATTACH '${path.join(hostDir, 'x.duckdb')}'`)).rejects.toThrow();
    await expect(connection.run('INSTALL httpfs')).rejects.toThrow();
    connection.closeSync();
    expect(await readFile(hostFile, 'utf8')).toBe('original content\n');
    expect(await readdir(hostDir)).toEqual(['precious.csv']);
  });

  it("keeps each connection's tables from the others, qualified or not", async () => {
    const a = await loaded(host, table('query_a', [[1, 'x']]));
    const b = await loaded(host, table('query_b', [[2, 'y']]));
    for (const sql of [
      'SELECT * FROM query_b',
      'SELECT * FROM temp.main.query_b',
      'SELECT * FROM main.query_b',
    ]) {
      await expect(a.connection.run(sql), sql).rejects.toThrow(/does not exist/);
    }
    expect((await b.connection.runAndReadAll('SELECT n FROM query_b')).getRows()).toEqual([[2]]);
    a.connection.closeSync();
    b.connection.closeSync();
  });

  it("leaves nothing behind: a closed connection's tables and memory are gone", async () => {
    const rows = Array.from({ length: 20_000 }, (_, i): CellValue[] => [i, `customer_${i}`]);
    const first = await loaded(host, table('query_a', rows));
    const probe = await host.connect();
    expect(await memoryInUse(probe)).toBeGreaterThan(0);
    first.connection.closeSync();
    expect(await memoryInUse(probe)).toBe(0);
    await expect(first.connection.run('SELECT 1')).rejects.toThrow();
    const second = await loaded(host, table('query_a', [[7, 'a']]));
    expect(second.scratchFile('x')).not.toBe(first.scratchFile('x'));
    second.connection.closeSync();
    probe.connection.closeSync();
  });
});

describe('a dedicated sandbox engine', () => {
  it('is locked by lock() once loaded, and refuses connections once closed', async () => {
    const parentDir = await mkdtemp(path.join(tmpdir(), 'nao-sandbox-parent-'));
    const host = await SandboxHost.create({ threads: 1, parentDir });
    const hosted = await loaded(host, table('query_big', [[1, 'x']]));
    await host.lock((await host.memoryInUse(hosted.connection)) + 64 * 1024 * 1024);
    await expect(hosted.connection.run("SET memory_limit = '1GB'")).rejects.toThrow(/locked/);
    expect(await readdir(parentDir)).toHaveLength(1);
    hosted.connection.closeSync();
    host.close();
    await expect(host.connect()).rejects.toThrow(/closed/);
    expect(await readdir(parentDir)).toEqual([]);
    await rm(parentDir, { recursive: true });
  });
});
