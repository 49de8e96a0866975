import { chmod, mkdir } from 'node:fs/promises';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { messageOf, NaoError } from '../errors/index.js';

/** Where the embedded store lives inside a project (`nao init` git-ignores `.nao/`). */
export const SQLITE_STORE_FILE = path.join('.nao', 'backend.sqlite');

/**
 * The database holding accounts, sessions, CLI log-in codes and failed log-ins: an embedded
 * SQLite file by default, or PostgreSQL when `NAO_DATABASE_URL` is set. `handle` is what the
 * authentication library is given; it picks its SQL dialect from it.
 */
export type AuthDatabase =
  | { kind: 'sqlite'; location: string; handle: BetterSqlite3.Database; close(): Promise<void> }
  | { kind: 'postgres'; location: string; handle: pg.Pool; close(): Promise<void> };

export interface OpenAuthDatabaseOptions {
  projectDir: string;
  /** `NAO_DATABASE_URL`: a `postgres://` URL. Its `search_path` (`?options=-c search_path=x`) picks the schema. */
  databaseUrl?: string | undefined;
}

/** Opens the store and checks it answers, so a wrong URL stops `nao chat` at start with a clear message. */
export async function openAuthDatabase(options: OpenAuthDatabaseOptions): Promise<AuthDatabase> {
  const url = options.databaseUrl?.trim();
  if (url !== undefined && url !== '') return openPostgres(url);
  const file = path.join(options.projectDir, SQLITE_STORE_FILE);
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  let handle: BetterSqlite3.Database | undefined;
  try {
    handle = new BetterSqlite3(file);
    // Sessions are credentials: the file (and the WAL files SQLite gives the same mode) stays private.
    await chmod(file, 0o600);
    // WAL keeps readers (session checks) from waiting on a writer; the lock wait covers two servers on one file.
    handle.pragma('journal_mode = WAL');
    handle.pragma('busy_timeout = 5000');
    handle.pragma('foreign_keys = ON');
  } catch (error) {
    if (handle?.open) handle.close();
    throw new NaoError({
      code: 'AUTH_STORE_UNAVAILABLE',
      message: `Cannot open the account store ${file}: ${messageOf(error)}. Check that the folder is writable, or delete the file to start with no accounts.`,
      cause: error,
    });
  }
  const opened = handle;
  return {
    kind: 'sqlite',
    location: file,
    handle: opened,
    async close() {
      if (opened.open) opened.close();
    },
  };
}

async function openPostgres(url: string): Promise<AuthDatabase> {
  const shown = redactUrl(url);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new NaoError({
      code: 'AUTH_STORE_BAD_URL',
      message: `NAO_DATABASE_URL is not a URL (${shown}); expected postgres://user:password@host:5432/database.`,
    });
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') {
    throw new NaoError({
      code: 'AUTH_STORE_BAD_URL',
      message: `NAO_DATABASE_URL must be a postgres:// URL, got ${parsed.protocol}// (${shown}). Unset it to use the embedded SQLite store.`,
    });
  }
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 10_000 });
  // An idle client losing its connection must not crash the server; the next query reconnects.
  pool.on('error', () => {});
  try {
    const client = await pool.connect();
    client.release();
  } catch (error) {
    await pool.end().catch(() => {});
    throw new NaoError({
      code: 'AUTH_STORE_UNAVAILABLE',
      message: `Cannot connect to the account store at NAO_DATABASE_URL (${shown}): ${messageOf(error)}. Check the URL and that the server runs, or unset NAO_DATABASE_URL to use the embedded SQLite store.`,
      cause: error,
    });
  }
  let ended = false;
  return {
    kind: 'postgres',
    location: shown,
    handle: pool,
    async close() {
      if (ended) return;
      ended = true;
      await pool.end();
    },
  };
}

/** The URL with its password replaced, for messages and logs. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    // Not a URL: a password may still sit between ':' and '@'.
    return url.replace(/\/\/([^:/@]*):[^@]*@/, '//$1:***@');
  }
}
