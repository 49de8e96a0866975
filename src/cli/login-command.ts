import type { Command } from 'commander';
import {
  type BackendSession,
  BackendUnreachableError,
  browserLogin,
  checkBackend,
  createBackendSession,
  createCredentialStore,
  loginWithPassword,
  normalizeBackendUrl,
  promptCredentials,
  revokeSession,
  type StoredLogin,
  systemBrowserOpener,
} from '../client/index.js';
import { NaoError, UsageError } from '../errors/index.js';
import { EXIT } from './exit-codes.js';
import type { CliIO } from './io.js';
import { DEFAULT_BACKEND_URL } from './test-run-options.js';

export interface Credentials {
  username: string;
  password: string;
}

/**
 * Logs in to a backend: with email + password when given, else through the browser approval
 * (falling back to a prompt on this terminal when no browser opens). Messages go to `out`;
 * the password never does.
 */
export async function logIn(options: {
  backendUrl: string;
  credentials: Credentials | null;
  io: CliIO;
  out: NodeJS.WritableStream;
  /** Ctrl-C: stops waiting for the browser. */
  signal?: AbortSignal;
}): Promise<StoredLogin> {
  const { backendUrl, credentials, io, out, signal } = options;
  if (credentials !== null) {
    const result = await loginWithPassword({
      backendUrl,
      email: credentials.username,
      password: credentials.password,
    });
    if (!result.success) {
      throw new NaoError({
        code: 'LOGIN_FAILED',
        message: `Log-in to ${backendUrl} as ${credentials.username} failed: ${result.error}`,
      });
    }
    return result.login;
  }
  return browserLogin({
    backendUrl,
    out,
    ...(signal === undefined ? {} : { signal }),
    openBrowser: systemBrowserOpener({ env: io.env }),
    promptCredentials: (stopPrompt) =>
      promptCredentials({ input: process.stdin, output: out, signal: stopPrompt }),
  });
}

/**
 * The session `nao test` runs under: the stored token of this backend (unless it belongs to
 * another user than `-u`), else a log-in on first use; re-logs in on a refused token.
 */
export async function openBackendSession(options: {
  backendUrl: string;
  credentials: Credentials | null;
  io: CliIO;
  signal?: AbortSignal;
}): Promise<BackendSession> {
  const { backendUrl, credentials, io, signal } = options;
  const store = createCredentialStore({ env: io.env });
  let stored = await store.get(backendUrl);
  if (stored !== null && credentials !== null && !sameEmail(stored.email, credentials.username))
    stored = null;
  return createBackendSession({
    backendUrl,
    store,
    initial: stored,
    login: () =>
      logIn({ backendUrl, credentials, io, out: io.stderr, ...(signal === undefined ? {} : { signal }) }),
  });
}

/** `nao login` and `nao logout`. */
export function registerLoginCommands(program: Command, io: CliIO, setExit: (code: number) => void): void {
  program
    .command('login')
    .description(
      'Log in to a nao backend: approve in the browser, or pass -u/--password (or NAO_USERNAME / NAO_PASSWORD). ' +
        'The session is saved in ~/.nao/auth.json.',
    )
    .option('--backend <url>', `the nao backend (default: BACKEND_URL, else ${DEFAULT_BACKEND_URL})`)
    .option('-u, --username <email>', 'log in with this email instead of the browser (or NAO_USERNAME)')
    .option(
      '--password <password>',
      'the password for -u (or NAO_PASSWORD, preferred: it stays out of shell history)',
    )
    .action(async (flags: { backend?: string; username?: string; password?: string }) => {
      const backendUrl = normalizeBackendUrl(flags.backend ?? io.env.BACKEND_URL ?? DEFAULT_BACKEND_URL);
      const credentials = credentialsFrom({ flags, env: io.env });
      await checkBackend({ backendUrl });
      const login = await withInterrupt((signal) =>
        logIn({ backendUrl, credentials, io, out: io.stdout, signal }),
      );
      const store = createCredentialStore({ env: io.env });
      await store.save(backendUrl, login);
      io.stdout.write(`Logged in to ${backendUrl} as ${login.email}. Session saved in ${store.file}.\n`);
      setExit(EXIT.ok);
    });

  program
    .command('logout')
    .description('Revoke the session of a nao backend on the server and remove it from ~/.nao/auth.json.')
    .option('--backend <url>', `the nao backend (default: BACKEND_URL, else ${DEFAULT_BACKEND_URL})`)
    .action(async (flags: { backend?: string }) => {
      const backendUrl = normalizeBackendUrl(flags.backend ?? io.env.BACKEND_URL ?? DEFAULT_BACKEND_URL);
      const store = createCredentialStore({ env: io.env });
      const stored = await store.get(backendUrl);
      if (stored === null) {
        io.stdout.write(`Not logged in to ${backendUrl}.\n`);
        setExit(EXIT.ok);
        return;
      }
      try {
        await revokeSession({ backendUrl, token: stored.token });
      } catch (error) {
        if (!(error instanceof BackendUnreachableError)) throw error;
        await store.remove(backendUrl);
        io.stderr.write(
          `Cannot reach the nao backend at ${backendUrl} to revoke the session (it expires by itself); it was removed from ${store.file} anyway.\n`,
        );
        setExit(EXIT.failed);
        return;
      }
      await store.remove(backendUrl);
      io.stdout.write(`Logged out of ${backendUrl} (${stored.email}).\n`);
      setExit(EXIT.ok);
    });
}

/** Runs `task` with a signal that Ctrl-C / SIGTERM abort (the browser wait must not outlive them). */
async function withInterrupt<T>(task: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const abort = () => controller.abort();
  process.once('SIGINT', abort);
  process.once('SIGTERM', abort);
  try {
    return await task(controller.signal);
  } finally {
    process.off('SIGINT', abort);
    process.off('SIGTERM', abort);
  }
}

function credentialsFrom(options: {
  flags: { username?: string; password?: string };
  env: Record<string, string | undefined>;
}): Credentials | null {
  const username = options.flags.username ?? options.env.NAO_USERNAME;
  const password = options.flags.password ?? options.env.NAO_PASSWORD;
  if (username === undefined && password === undefined) return null;
  if (username === undefined) {
    throw new UsageError({
      code: 'INCOMPLETE_CREDENTIALS',
      message: 'A password was given without a username: pass -u/--username or set NAO_USERNAME.',
    });
  }
  if (password === undefined) {
    throw new UsageError({
      code: 'INCOMPLETE_CREDENTIALS',
      message: 'A username was given without a password: pass --password or set NAO_PASSWORD.',
    });
  }
  return { username, password };
}

function sameEmail(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}
