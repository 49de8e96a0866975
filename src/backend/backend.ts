import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { getRequestListener } from '@hono/node-server';
import { createRunJobs } from '../app-runs/index.js';
import type { NaoConfig } from '../config/index.js';
import { NaoError } from '../errors/index.js';
import { openProjectRuntime } from '../test-run/index.js';
import { createAccounts } from './accounts.js';
import { createBackendApp } from './app.js';
import { createAuth, migrateAuthStore } from './auth.js';
import { type AuthDatabase, openAuthDatabase } from './auth-database.js';
import { loadAuthSecret } from './auth-secret.js';
import { createChatStore } from './chat-store.js';
import { createCliLoginCodes } from './cli-login-codes.js';
import { createInvites } from './invites.js';
import { DEFAULT_HOST, DEFAULT_PORT } from './listen-defaults.js';
import { createLoginLimiter, type LoginLimits } from './login-limiter.js';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);
/** How long stopping waits for aborted runs to unwind before closing the databases under them. */
const DRAIN_MS = 5000;

export interface StartBackendOptions {
  config: NaoConfig;
  /** Provider keys, `NAO_DATABASE_URL` and `NAO_AUTH_SECRET` are read from here. */
  env: Record<string, string | undefined>;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  version: string;
  log?: (line: string) => void;
  /** The transport under the provider packages (tests point it at a wire-protocol server). */
  fetch?: typeof globalThis.fetch;
  /** Clock of log-in codes and of the failed log-in limit (tests move it forward). */
  now?: () => Date;
  loginLimits?: LoginLimits;
  cliCodeTtlMs?: number;
}

export interface RunningBackend {
  /** The address to open, e.g. `http://127.0.0.1:5005`. */
  url: string;
  port: number;
  store: { kind: AuthDatabase['kind']; location: string };
  /** Tables the start created (empty once the store is current). */
  createdTables: string[];
  /** Stops listening, aborts the runs in flight and closes the databases. Safe to call twice. */
  close(): Promise<void>;
}

/**
 * Starts `nao chat`'s backend for a project: opens its databases and models once, the account
 * store (migrated to the current schema), and serves the API and pages on `host:port`.
 */
export async function startBackend(options: StartBackendOptions): Promise<RunningBackend> {
  const host = options.host ?? DEFAULT_HOST;
  const log = options.log ?? (() => {});
  const cleanups: (() => Promise<void>)[] = [];
  const cleanup = async () => {
    for (const close of cleanups.reverse()) await close().catch(() => {});
    cleanups.length = 0;
  };

  try {
    const store = await openAuthDatabase({
      projectDir: options.config.projectDir,
      databaseUrl: options.env.NAO_DATABASE_URL,
    });
    cleanups.push(() => store.close());
    const secret = await loadAuthSecret({ projectDir: options.config.projectDir, env: options.env });
    const runtime = await openProjectRuntime({
      config: options.config,
      env: options.env,
      fetch: options.fetch,
      onPriceWarning: (warning) => log(`warning: ${warning}`),
      onDatabaseWarning: (warning) => log(`warning: ${warning}`),
    });
    cleanups.push(() => runtime.close());

    // The library wants its own URL before serving, and port 0 is only known once listening.
    let handle: ((request: Request, env: unknown) => Response | Promise<Response>) | null = null;
    const inflight = new Set<Promise<unknown>>();
    const listener = getRequestListener((request, env) => {
      if (handle === null) return new Response('nao is starting', { status: 503 });
      const pending = Promise.resolve(handle(request, env));
      inflight.add(pending);
      pending.finally(() => inflight.delete(pending)).catch(() => {});
      return pending;
    });
    const server = createServer(listener);
    const port = await listen(server, host, options.port ?? DEFAULT_PORT);
    cleanups.push(async () => {
      server.close();
      server.closeAllConnections();
      await Promise.race([Promise.allSettled([...inflight]), sleep(DRAIN_MS, undefined, { ref: false })]);
    });

    // Test runs started from the chat page stop, and save what finished, before the runtime closes.
    const runJobs = createRunJobs({ log });
    cleanups.push(() => runJobs.close());

    const url = `http://${displayHost(host)}:${port}`;
    const authOptions = { database: store, secret, baseUrl: url, log };
    const chatStore = createChatStore({ database: store });
    const createdTables = [...(await migrateAuthStore(authOptions)), ...(await chatStore.migrate())];
    const auth = createAuth(authOptions);
    const adapter = (await auth.$context).adapter;
    const invites = createInvites({ adapter, now: options.now });
    const accounts = createAccounts({
      auth,
      limiter: createLoginLimiter({ adapter, now: options.now, limits: options.loginLimits }),
      invites,
      openSignUp: options.env.NAO_ALLOW_SIGNUP === '1',
      log,
    });
    const app = createBackendApp({
      accounts,
      cliCodes: createCliLoginCodes({ adapter, now: options.now, ttlMs: options.cliCodeTtlMs }),
      invites,
      baseUrl: url,
      runtime,
      projectName: options.config.projectName,
      version: options.version,
      log,
      allowedHostnames: LOOPBACK.has(host) ? ['localhost', '127.0.0.1', '[::1]'] : null,
      chat: { store: chatStore, runJobs },
    });
    handle = (request, env) => app.fetch(request, env as object);

    let closing: Promise<void> | null = null;
    return {
      url,
      port,
      store: { kind: store.kind, location: store.location },
      createdTables,
      close() {
        closing ??= cleanup();
        return closing;
      },
    };
  } catch (error) {
    await cleanup();
    throw error;
  }
}

/**
 * Connections the kernel holds while nao is busy (Node's default is 511): a burst of
 * simultaneous page loads and API calls past it was reset. Linux caps it at net.core.somaxconn.
 */
const LISTEN_BACKLOG = 4096;

async function listen(server: Server, host: string, port: number): Promise<number> {
  server.listen(port, host, LISTEN_BACKLOG);
  try {
    await once(server, 'listening');
  } catch (caught) {
    const error = caught as NodeJS.ErrnoException;
    if (error.code === 'EADDRINUSE') {
      throw new NaoError({
        code: 'PORT_IN_USE',
        message: `Port ${port} on ${host} is already in use: stop the other server, or pick another port with --port.`,
        cause: error,
      });
    }
    if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND' || error.code === 'EACCES') {
      throw new NaoError({
        code: 'CANNOT_LISTEN',
        message: `Cannot listen on ${host}:${port} (${error.code}): pass a local address with --host (e.g. 127.0.0.1) and a free port above 1024 with --port.`,
        cause: error,
      });
    }
    throw error;
  }
  return (server.address() as AddressInfo).port;
}

function displayHost(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '') return 'localhost';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}
