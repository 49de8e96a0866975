import { type BetterAuthOptions, type BetterAuthPlugin, betterAuth } from 'better-auth';
import { getMigrations } from 'better-auth/db/migration';
import { bearer } from 'better-auth/plugins/bearer';
import type { AuthDatabase } from './auth-database.js';

/** The header nao sets to the peer address of the socket; forwarded-for headers are never trusted. */
export const CLIENT_ADDRESS_HEADER = 'x-nao-client-address';

/** Session cookies are named `nao.session_token`. */
export const COOKIE_PREFIX = 'nao';

const SESSION_DAYS = 7;

/**
 * nao's own tables, declared to the authentication library so its migration planner creates
 * them in SQLite and PostgreSQL alike. Codes are stored as SHA-256 hashes, never in clear.
 */
const naoTables = {
  id: 'nao-tables',
  schema: {
    cliCode: {
      modelName: 'nao_cli_code',
      fields: {
        codeHash: { type: 'string', required: true, unique: true },
        userId: {
          type: 'string',
          required: true,
          references: { model: 'user', field: 'id', onDelete: 'cascade' },
          index: true,
        },
        redirectUri: { type: 'string', required: true },
        codeChallenge: { type: 'string', required: true },
        expiresAt: { type: 'date', required: true },
        createdAt: { type: 'date', required: true },
      },
    },
    invite: {
      modelName: 'nao_invite',
      fields: {
        codeHash: { type: 'string', required: true, unique: true },
        createdBy: {
          type: 'string',
          required: true,
          references: { model: 'user', field: 'id', onDelete: 'cascade' },
        },
        expiresAt: { type: 'date', required: true },
        createdAt: { type: 'date', required: true },
      },
    },
    loginFailure: {
      modelName: 'nao_login_failure',
      fields: {
        key: { type: 'string', required: true, index: true },
        createdAt: { type: 'date', required: true, index: true },
      },
    },
  },
} satisfies BetterAuthPlugin;

/** Model names to pass to the adapter for nao's own tables. */
export const NAO_MODELS = { cliCode: 'cliCode', invite: 'invite', loginFailure: 'loginFailure' } as const;

export interface CreateAuthOptions {
  database: AuthDatabase;
  secret: string;
  /** The server's own URL (cookies become `Secure` when it is https). */
  baseUrl: string;
  log?: (line: string) => void;
}

function authOptions(options: CreateAuthOptions) {
  return {
    appName: 'nao',
    database: options.database.handle,
    secret: options.secret,
    baseURL: options.baseUrl,
    telemetry: { enabled: false },
    user: { modelName: 'nao_user' },
    session: { modelName: 'nao_session', expiresIn: SESSION_DAYS * 24 * 60 * 60, updateAge: 24 * 60 * 60 },
    account: { modelName: 'nao_account' },
    verification: { modelName: 'nao_verification' },
    emailAndPassword: { enabled: true, autoSignIn: true, minPasswordLength: 8, maxPasswordLength: 128 },
    // nao limits failed log-ins itself, per account and per address (login-limiter.ts); the
    // library's limiter is per path and address only, and our routes call its API directly.
    rateLimit: { enabled: false },
    advanced: { cookiePrefix: COOKIE_PREFIX, ipAddress: { ipAddressHeaders: [CLIENT_ADDRESS_HEADER] } },
    logger: {
      level: 'error',
      log: (level: string, message: string) => options.log?.(`auth ${level}: ${message}`),
    },
    plugins: [bearer(), naoTables],
  } satisfies BetterAuthOptions;
}

/** The authentication library configured for nao: email + password accounts, cookie and bearer sessions. */
export function createAuth(options: CreateAuthOptions) {
  return betterAuth(authOptions(options));
}

export type NaoAuth = ReturnType<typeof createAuth>;

/** The library's storage adapter, which nao's own tables are read and written through. */
export type AuthAdapter = Awaited<NaoAuth['$context']>['adapter'];

/**
 * Creates missing tables, columns and indexes (both engines); run at every start, it does
 * nothing once the store is current. Returns the tables it created.
 */
export async function migrateAuthStore(options: CreateAuthOptions): Promise<string[]> {
  const plan = await getMigrations(authOptions(options));
  if (plan.schemaProblems.length > 0 || plan.unsafeChanges.length > 0) {
    options.log?.(
      `account store: ${[...plan.schemaProblems, ...plan.unsafeChanges].join('; ')} (${options.database.location})`,
    );
  }
  await plan.runMigrations();
  return plan.toBeCreated.map((table) => table.table);
}
