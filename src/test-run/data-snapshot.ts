/**
 * Snapshot consistency for the reference query, told honestly.
 *
 * The warehouses run every query in its own transaction, so the agent's queries and the
 * reference query cannot share one snapshot. What can be known: a DuckDB or SQLite FILE whose
 * bytes did not change from before the agent's first query until after the reference query
 * served the same data to both. That is checked with the file's identity, size, mtime and
 * ctime (which no writer can set back), together with the write-ahead log and rollback
 * journal a writer would touch. Server databases (Postgres, MySQL) are never reported as
 * consistent: nothing observable from here rules out a concurrent write.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import type { DatabaseConfig } from '../config/schema.js';

interface FileState {
  path: string;
  /** `null` when the file does not exist. */
  identity: string | null;
}

export interface DatabaseSnapshot {
  databaseName: string;
  files: readonly FileState[];
}

/** Taken once per run, before the agent's first query; keyed by database name. */
export type DataSnapshots = ReadonlyMap<string, DatabaseSnapshot>;

/** Files a writer would change: a DuckDB or SQLite file and its write-ahead log or journal. */
function watchedFiles(config: DatabaseConfig, projectDir: string): string[] | null {
  if ((config.type !== 'duckdb' && config.type !== 'sqlite') || config.path === ':memory:') return null;
  const file = path.resolve(projectDir, config.path);
  // For SQLite, `-shm` is left out on purpose: readers update it too.
  return config.type === 'duckdb' ? [file, `${file}.wal`] : [file, `${file}-wal`, `${file}-journal`];
}

/**
 * Synchronous: a stat of a cached inode is cheaper than the async thread-pool round trip.
 * Errors other than a missing file (permissions) still throw.
 */
function fileIdentity(file: string): string | null {
  // A missing file is the usual case of a write-ahead log: no exception for it.
  const info = statSync(file, { bigint: true, throwIfNoEntry: false });
  return info === undefined ? null : `${info.dev}:${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`;
}

function snapshotOf(databaseName: string, files: readonly string[]): DatabaseSnapshot | null {
  const states = files.map((file): FileState => ({ path: file, identity: fileIdentity(file) }));
  // Without the database file itself there is nothing to vouch for.
  if (states[0]?.identity === null) return null;
  return { databaseName, files: states };
}

/**
 * Records the state of every file database. Call it before the agent's first query and pass
 * the result to `runReferenceQuery`; server databases are absent from the map. Relative paths
 * are resolved against `projectDir` (default: the working directory), as `openDatabase` does.
 */
export function captureDataSnapshots(
  databases: readonly DatabaseConfig[],
  options: { projectDir?: string } = {},
): DataSnapshots {
  const projectDir = options.projectDir ?? process.cwd();
  const snapshots = new Map<string, DatabaseSnapshot>();
  for (const config of databases) {
    const files = watchedFiles(config, projectDir);
    if (files === null) continue;
    try {
      const snapshot = snapshotOf(config.name, files);
      if (snapshot !== null) snapshots.set(config.name, snapshot);
    } catch {
      // An unreadable file cannot be vouched for; it is reported as not consistent.
    }
  }
  return snapshots;
}

/** True when no watched file changed since `snapshot` was taken. */
export function unchangedSince(snapshot: DatabaseSnapshot): boolean {
  try {
    for (const file of snapshot.files) {
      if (fileIdentity(file.path) !== file.identity) return false;
    }
    return true;
  } catch {
    return false;
  }
}
