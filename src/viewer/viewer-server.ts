/**
 * `nao test server`: serves the results viewer over a project's `tests/outputs/`, on
 * 127.0.0.1 unless told otherwise. The web UI is the prebuilt bundle in `dist/web/viewer/`,
 * so the viewer works without any network.
 */
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAdaptorServer } from '@hono/node-server';
import type { AppRunner } from '../app-runs/index.js';
import { NaoError } from '../errors/index.js';
import { DEFAULT_VIEWER_HOST, DEFAULT_VIEWER_PORT } from './listen-defaults.js';
import { createResultsStore } from './results-store.js';
import { createViewerApp } from './viewer-app.js';

export interface ViewerServerOptions {
  outputsDir: string;
  /** 0 picks a free port. */
  port?: number;
  host?: string;
  /** The built web UI; default `dist/web/viewer/` of this package. */
  assetsDir?: string;
  /** Parsed results files kept in memory (default 3; a 20,000-run file takes a few hundred MB). */
  maxCachedFiles?: number;
  /** Runs tests for the page's Run again (see app-runs/); closed with the server. */
  runner?: AppRunner;
}

export interface ViewerServer {
  /** Where to open the viewer, e.g. http://127.0.0.1:8765/ */
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * The package root, two levels above this module: it runs as dist/viewer/*.js once built
 * and as src/viewer/*.ts in tests, and the bundle is in dist/web/viewer/ either way.
 */
function defaultAssetsDir(): string {
  const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
  return path.join(packageRoot, 'dist', 'web', 'viewer');
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

function isLoopback(host: string): boolean {
  return LOOPBACK_HOSTS.has(host.toLowerCase()) || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** The address a browser can open: a wildcard bind is reached through loopback. */
function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/**
 * Connections the kernel holds while the viewer is busy (Node's default is 511): a burst of
 * simultaneous requests past it was reset. Linux caps it at net.core.somaxconn.
 */
const LISTEN_BACKLOG = 4096;

async function listen(server: Server, options: { port: number; host: string }): Promise<AddressInfo> {
  // `once` rejects with the server's 'error' event if it comes before 'listening'.
  const listening = once(server, 'listening');
  server.listen(options.port, options.host, LISTEN_BACKLOG);
  await listening.catch((error: NodeJS.ErrnoException) => {
    throw listenError(error, options);
  });
  return server.address() as AddressInfo;
}

function listenError(error: NodeJS.ErrnoException, options: { port: number; host: string }): NaoError {
  const { port, host } = options;
  const fail = (code: string, message: string) => new NaoError({ code, message, cause: error });
  if (error.code === 'EADDRINUSE') {
    return fail(
      'VIEWER_PORT_IN_USE',
      `Port ${port} is already in use on ${host} (another \`nao test server\`?). Stop that process or choose another port with --port, e.g. --port ${port === 65535 ? 8766 : port + 1}.`,
    );
  }
  if (error.code === 'EACCES') {
    return fail(
      'VIEWER_PORT_FORBIDDEN',
      `Not allowed to listen on ${host}:${port}. Choose a port above 1023 with --port.`,
    );
  }
  if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND') {
    return fail(
      'VIEWER_HOST_UNAVAILABLE',
      `Cannot listen on host "${host}": it is not an address of this machine. Use --host 127.0.0.1 (default) or --host 0.0.0.0.`,
    );
  }
  return fail('VIEWER_LISTEN_FAILED', `Cannot listen on ${host}:${port}: ${error.message}.`);
}

/** Starts the viewer; the returned `close()` stops it and drops open connections. */
export async function startViewerServer(options: ViewerServerOptions): Promise<ViewerServer> {
  const port = options.port ?? DEFAULT_VIEWER_PORT;
  const host = options.host ?? DEFAULT_VIEWER_HOST;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new NaoError({
      code: 'VIEWER_INVALID_PORT',
      message: `Invalid port ${port}: use a whole number between 1 and 65535 (0 picks a free one).`,
    });
  }
  const assetsDir = path.resolve(options.assetsDir ?? defaultAssetsDir());
  if (!existsSync(path.join(assetsDir, 'index.html'))) {
    throw new NaoError({
      code: 'VIEWER_ASSETS_MISSING',
      message: `The viewer's web UI is not built: ${path.join(assetsDir, 'index.html')} is missing. Run \`npm run build\` in the nao package first.`,
    });
  }
  const store = createResultsStore({
    outputsDir: options.outputsDir,
    ...(options.maxCachedFiles === undefined ? {} : { maxCachedFiles: options.maxCachedFiles }),
  });
  const loopback = isLoopback(host);
  const app = createViewerApp({
    store,
    assetsDir,
    allowedHosts: loopback ? ['127.0.0.1', 'localhost', '[::1]', host.toLowerCase()] : null,
    ...(options.runner === undefined ? {} : { runner: options.runner }),
  });
  const server = createAdaptorServer({ fetch: app.fetch }) as Server;
  const address = await listen(server, { port, host });

  // The newest file is what the page asks for first; parsing it now saves that wait.
  void store
    .list()
    .then((files) => (files[0] ? store.load(files[0].name) : undefined))
    .catch(() => undefined);

  let closing: Promise<void> | undefined;
  return {
    url: `http://${urlHost(host)}:${address.port}/`,
    port: address.port,
    close() {
      // A run in flight is stopped and saves what finished before the server goes.
      closing ??= (options.runner?.close() ?? Promise.resolve()).then(
        () =>
          new Promise<void>((resolve, reject) => {
            server.close((error) => (error ? reject(error) : resolve()));
            // Browsers keep connections alive; without this, close() would wait for them to idle out.
            server.closeAllConnections();
          }),
      );
      return closing;
    },
  };
}
