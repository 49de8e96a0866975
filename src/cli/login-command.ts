import { DEFAULT_BACKEND_URL } from '../backend/listen-defaults.js';
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
import { NaoError } from '../errors/index.js';
import type { CommandAction } from './command-spec.js';
import { type Credentials, credentialsFrom } from './credentials.js';
import type { CliDependencies } from './dependencies.js';
import { EXIT } from './exit-codes.js';
import type { CliIO } from './io.js';

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
    login: () => logIn({ backendUrl, credentials, io, out: io.stderr, signal }),
  });
}

/** `nao login`: logs in (browser approval, or -u/--password) and stores the session. */
export const runLogin: CommandAction<CliDependencies> = async ({ io, flags, deps }) => {
  const backendUrl = backendUrlOf(io, flags);
  const credentials = credentialsFrom({
    flags: flags as { username?: string; password?: string },
    env: io.env,
  });
  await checkBackend({ backendUrl });
  const login = await withInterrupt(deps.interrupt, (signal) =>
    logIn({ backendUrl, credentials, io, out: io.stdout, signal }),
  );
  const store = createCredentialStore({ env: io.env });
  await store.save(backendUrl, login);
  const as = login.email === '' ? '' : ` as ${login.email}`;
  io.stdout.write(`Logged in to ${backendUrl}${as}. Session saved in ${store.file}.\n`);
  return EXIT.ok;
};

/** `nao logout`: revokes the stored session on the backend and forgets it. */
export const runLogout: CommandAction<CliDependencies> = async ({ io, flags }) => {
  const backendUrl = backendUrlOf(io, flags);
  const store = createCredentialStore({ env: io.env });
  const stored = await store.get(backendUrl);
  if (stored === null) {
    io.stdout.write(`Not logged in to ${backendUrl}.\n`);
    return EXIT.ok;
  }
  try {
    await revokeSession({ backendUrl, token: stored.token });
  } catch (error) {
    if (!(error instanceof BackendUnreachableError)) throw error;
    await store.remove(backendUrl);
    io.stderr.write(
      `Cannot reach the nao backend at ${backendUrl} to revoke the session (it expires by itself); it was removed from ${store.file} anyway.\n`,
    );
    return EXIT.failed;
  }
  await store.remove(backendUrl);
  io.stdout.write(`Logged out of ${backendUrl} (${stored.email}).\n`);
  return EXIT.ok;
};

/** `--backend`, else BACKEND_URL, else the local backend; normalized. */
export function backendUrlOf(io: CliIO, flags: Record<string, unknown>): string {
  const given = typeof flags.backend === 'string' ? flags.backend : undefined;
  return normalizeBackendUrl(given ?? io.env.BACKEND_URL ?? DEFAULT_BACKEND_URL);
}

/**
 * Runs `task` with a signal that Ctrl-C / SIGTERM abort (the browser wait must not outlive
 * them): main's interrupt when there is one, else this process's signals.
 */
async function withInterrupt<T>(
  interrupt: AbortSignal | undefined,
  task: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  if (interrupt !== undefined) return task(interrupt);
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

function sameEmail(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}
