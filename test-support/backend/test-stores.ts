import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { type AuthAdapter, createAuth, migrateAuthStore, type NaoAuth } from '../../src/backend/auth.js';
import { type AuthDatabase, openAuthDatabase } from '../../src/backend/auth-database.js';
import { missingPostgres, POSTGRES_SERVER, skipWhenMissing } from '../local-servers.js';

/** A fresh schema on the local server, as a `NAO_DATABASE_URL` whose search_path points at it. */
export async function createPostgresSchema(): Promise<{
  url: string;
  schema: string;
  drop(): Promise<void>;
}> {
  const schema = `nao_auth_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client(POSTGRES_SERVER);
  await admin.connect();
  try {
    await admin.query(`CREATE SCHEMA ${schema}`);
  } finally {
    await admin.end();
  }
  const { host, port, user, database } = POSTGRES_SERVER;
  return {
    schema,
    url: `postgres://${user}@${host}:${port}/${database}?options=${encodeURIComponent(`-c search_path=${schema}`)}`,
    async drop() {
      const client = new pg.Client(POSTGRES_SERVER);
      await client.connect();
      try {
        await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      } finally {
        await client.end();
      }
    },
  };
}

export type StoreKind = 'sqlite' | 'postgres';

/**
 * The stores `tests` run over: SQLite always, PostgreSQL when the local server answers or
 * NAO_REQUIRE_SERVERS is set (then a missing server fails them).
 */
export async function storeKinds(options: { tests: string }): Promise<StoreKind[]> {
  const skip = skipWhenMissing({
    tests: `${options.tests} over PostgreSQL`,
    missing: await missingPostgres(),
  });
  return skip ? ['sqlite'] : ['sqlite', 'postgres'];
}

export interface TestAuth {
  database: AuthDatabase;
  auth: NaoAuth;
  adapter: AuthAdapter;
  createdTables: string[];
  /** Runs the migrations again (to check they are idempotent). */
  migrate(): Promise<string[]>;
  cleanup(): Promise<void>;
}

/** The authentication library over a throw-away store: a temporary SQLite file or a PostgreSQL schema. */
export async function openTestAuth(kind: StoreKind): Promise<TestAuth> {
  const projectDir = await mkdtemp(path.join(tmpdir(), 'nao-auth-'));
  const schema = kind === 'postgres' ? await createPostgresSchema() : null;
  const database = await openAuthDatabase({ projectDir, databaseUrl: schema?.url });
  const options = {
    database,
    secret: randomBytes(32).toString('base64url'),
    baseUrl: 'http://127.0.0.1:5005',
  };
  const createdTables = await migrateAuthStore(options);
  const auth = createAuth(options);
  return {
    database,
    auth,
    adapter: (await auth.$context).adapter,
    createdTables,
    migrate: () => migrateAuthStore(options),
    async cleanup() {
      await database.close();
      await schema?.drop();
      await rm(projectDir, { recursive: true, force: true });
    },
  };
}
