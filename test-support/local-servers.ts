/**
 * The local services some tests need: the PostgreSQL server of this machine here, MariaDB and
 * ClickHouse in their conformance engines, Chromium in chromium.ts. Such tests skip when the
 * service is missing on a user's machine, and say so; with NAO_REQUIRE_SERVERS set, as CI sets
 * it, they run anyway and fail, so a missing service can never turn a CI run green.
 */
import pg from 'pg';

export const SERVERS_REQUIRED = Boolean(process.env.NAO_REQUIRE_SERVERS);

/**
 * Whether `tests` (as the message names them: "the PostgreSQL role tests") skip. `missing` says
 * what is absent, undefined when nothing is; a skip is announced on stderr.
 */
export function skipWhenMissing(options: {
  tests: string;
  missing: string | undefined;
  required?: boolean;
}): boolean {
  if (options.missing === undefined || (options.required ?? SERVERS_REQUIRED)) return false;
  console.warn(`Skipping ${options.tests}: ${options.missing} (set NAO_REQUIRE_SERVERS=1 to fail instead).`);
  return true;
}

/** Trust authentication, as the machine's server is set up: no password. */
export const POSTGRES_SERVER = { host: '127.0.0.1', port: 5432, user: 'postgres', database: 'test' };

/** Undefined when the local PostgreSQL server answers, else what is missing. */
export async function missingPostgres(): Promise<string | undefined> {
  const client = new pg.Client({ ...POSTGRES_SERVER, connectionTimeoutMillis: 3000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.end();
    return undefined;
  } catch {
    return `no PostgreSQL server at ${POSTGRES_SERVER.host}:${POSTGRES_SERVER.port}`;
  }
}
