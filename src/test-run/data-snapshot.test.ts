import { mkdtemp, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Sqlite from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DatabaseConfig } from '../config/schema.js';
import { captureDataSnapshots, unchangedSince } from './data-snapshot.js';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'nao-snapshot-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function sqliteConfig(file: string): DatabaseConfig {
  return { type: 'sqlite', name: 'local', path: file };
}

async function snapshotOf(config: DatabaseConfig) {
  const snapshot = captureDataSnapshots([config]).get(config.name);
  if (snapshot === undefined) throw new Error('no snapshot taken');
  return snapshot;
}

describe('captureDataSnapshots', () => {
  it('resolves relative paths against the project folder', async () => {
    new Sqlite(path.join(dir, 'relative.sqlite')).exec('CREATE TABLE t (a INTEGER)').close();
    const snapshots = captureDataSnapshots([sqliteConfig('relative.sqlite')], { projectDir: dir });
    expect(snapshots.get('local')?.files[0]?.path).toBe(path.join(dir, 'relative.sqlite'));
  });

  it('covers file databases only', async () => {
    const file = path.join(dir, 'local.sqlite');
    new Sqlite(file).exec('CREATE TABLE t (a INTEGER)').close();
    const snapshots = captureDataSnapshots([
      sqliteConfig(file),
      { type: 'duckdb', name: 'missing', path: path.join(dir, 'missing.duckdb') },
      { type: 'postgres', name: 'pg', url: 'postgres://127.0.0.1/test' },
      { type: 'duckdb', name: 'memory', path: ':memory:' },
    ]);
    expect([...snapshots.keys()]).toEqual(['local']);
  });
});

describe('unchangedSince', () => {
  it('holds while nobody writes, readers included', async () => {
    const file = path.join(dir, 'local.sqlite');
    new Sqlite(file).exec('CREATE TABLE t (a INTEGER); INSERT INTO t VALUES (1)').close();
    const snapshot = await snapshotOf(sqliteConfig(file));
    const reader = new Sqlite(file, { readonly: true });
    expect(reader.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 1 });
    reader.close();
    expect(unchangedSince(snapshot)).toBe(true);
  });

  it('notices a write that only reached the write-ahead log', async () => {
    const file = path.join(dir, 'wal.sqlite');
    const writer = new Sqlite(file);
    writer.pragma('journal_mode = WAL');
    writer.pragma('wal_autocheckpoint = 0');
    writer.exec('CREATE TABLE t (a INTEGER)');
    const snapshot = await snapshotOf(sqliteConfig(file));
    writer.exec('INSERT INTO t VALUES (1)');
    expect(unchangedSince(snapshot)).toBe(false);
    writer.close();
  });

  it('notices a rewrite with the same size and a restored mtime', async () => {
    const file = path.join(dir, 'data.duckdb');
    const fixed = new Date('2020-01-01T00:00:00Z');
    await writeFile(file, 'aaaa');
    await utimes(file, fixed, fixed);
    const snapshot = await snapshotOf({ type: 'duckdb', name: 'warehouse', path: file });
    await new Promise((resolve) => setTimeout(resolve, 20));
    await writeFile(file, 'bbbb');
    await utimes(file, fixed, fixed);
    const after = await stat(file, { bigint: true });
    // Size and mtime are back to what they were: only the ctime tells.
    expect(after.mtimeNs).toBe(BigInt(fixed.getTime()) * 1_000_000n);
    expect(after.size).toBe(4n);
    expect(unchangedSince(snapshot)).toBe(false);
  });

  it('notices a database file that disappeared', async () => {
    const file = path.join(dir, 'gone.duckdb');
    await writeFile(file, 'x');
    const snapshot = await snapshotOf({ type: 'duckdb', name: 'warehouse', path: file });
    await rm(file);
    expect(unchangedSince(snapshot)).toBe(false);
  });
});
