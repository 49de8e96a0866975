import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CellValue } from '../warehouse/index.js';
import { loadTables, type SourceTable } from './load-tables.js';
import { createSandboxEngine } from './sandbox-engine.js';

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

const memoryInUse = async (connection: DuckDBConnection) =>
  Number(
    (await connection.runAndReadAll('SELECT sum(memory_usage_bytes) FROM duckdb_memory()')).getRows()[0]![0],
  );

// Reaching past the safety check on purpose: the engine's own layer must hold alone.
describe('a sandbox engine, for SQL that skips the safety check', () => {
  let engine: DuckDBInstance;
  let engineDir: string;
  let hostDir: string;
  let hostFile: string;

  async function loaded(source: SourceTable): Promise<DuckDBConnection> {
    const connection = await engine.connect();
    const scratchFile = (name: string) => path.join(engineDir, `${source.id}_${name}`);
    await loadTables({ connection, tables: [source], scratchFile });
    return connection;
  }

  beforeAll(async () => {
    engineDir = await mkdtemp(path.join(tmpdir(), 'nao-sandbox-engine-'));
    engine = await createSandboxEngine({
      threads: 1,
      memoryLimitBytes: 64 * 1024 * 1024,
      folders: [engineDir],
    });
    hostDir = await mkdtemp(path.join(tmpdir(), 'nao-sandbox-host-'));
    hostFile = path.join(hostDir, 'precious.csv');
    await writeFile(hostFile, 'original content\n');
  });
  afterAll(async () => {
    engine.closeSync();
    await rm(engineDir, { recursive: true, force: true });
    await rm(hostDir, { recursive: true, force: true });
  });

  it('has external access off and its memory limit and configuration locked', async () => {
    const connection = await loaded(table('query_a', [[1, 'x']]));
    await expect(connection.run(`COPY query_a TO '${hostFile}'`)).rejects.toThrow(
      /disabled by configuration/,
    );
    await expect(connection.run(`SELECT * FROM read_text('${hostFile}')`)).rejects.toThrow(/disabled/);
    await expect(connection.run('SET enable_external_access = true')).rejects.toThrow(/locked/);
    await expect(connection.run("SET memory_limit = '1GB'")).rejects.toThrow(/locked/);
    await expect(connection.run(`ATTACH '${path.join(hostDir, 'x.duckdb')}'`)).rejects.toThrow();
    await expect(connection.run('INSTALL httpfs')).rejects.toThrow();
    // Its own folder it may use: where a large job's answer goes.
    await connection.run(`ATTACH '${path.join(engineDir, 'answer.duckdb')}' AS answer; DETACH answer`);
    connection.closeSync();
    expect(await readFile(hostFile, 'utf8')).toBe('original content\n');
    expect(await readdir(hostDir)).toEqual(['precious.csv']);
  });

  it("keeps each connection's tables from the others, qualified or not", async () => {
    const a = await loaded(table('query_a', [[1, 'x']]));
    const b = await loaded(table('query_b', [[2, 'y']]));
    for (const sql of [
      'SELECT * FROM query_b',
      'SELECT * FROM temp.main.query_b',
      'SELECT * FROM main.query_b',
    ]) {
      await expect(a.run(sql), sql).rejects.toThrow(/does not exist/);
    }
    expect((await b.runAndReadAll('SELECT n FROM query_b')).getRows()).toEqual([[2]]);
    a.closeSync();
    b.closeSync();
  });

  it("leaves nothing behind for the next job: a closed connection's tables and memory are gone", async () => {
    const rows = Array.from({ length: 20_000 }, (_, i): CellValue[] => [i, `customer_${i}`]);
    const first = await loaded(table('query_a', rows));
    const probe = await engine.connect();
    expect(await memoryInUse(probe)).toBeGreaterThan(0);
    first.closeSync();
    expect(await memoryInUse(probe)).toBe(0);
    await expect(first.run('SELECT 1')).rejects.toThrow();
    probe.closeSync();
  });
});
