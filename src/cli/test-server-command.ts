import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { NaoError, UsageError } from '../errors/index.js';
import { DEFAULT_VIEWER_HOST, DEFAULT_VIEWER_PORT, startViewerServer } from '../viewer/index.js';
import { EXIT } from './exit-codes.js';
import type { CliIO } from './io.js';
import { loadProjectConfig } from './load-project.js';

export interface TestServerCommandOptions {
  /** Stops the server; by default Ctrl-C or SIGTERM does. */
  signal?: AbortSignal;
  /** Opens the viewer's URL; resolves false when no browser could be started. */
  openBrowser?: (url: string) => Promise<boolean>;
  /** The built web UI (default: the package's dist/web/viewer/). */
  assetsDir?: string;
}

/** How long a browser launcher gets to fail before it is assumed to have worked. */
const OPENER_GRACE_MS = 3000;

/**
 * Opens `url` with the platform's launcher (xdg-open, open, start). Never throws: a machine
 * without a browser (a server, a container) only gets a false, and the URL is printed anyway.
 */
export function openInBrowser(
  url: string,
  options: { env?: Record<string, string | undefined>; platform?: NodeJS.Platform } = {},
): Promise<boolean> {
  const platform = options.platform ?? process.platform;
  const [command, args]: [string, string[]] =
    platform === 'darwin'
      ? ['open', [url]]
      : platform === 'win32'
        ? ['cmd', ['/c', 'start', '""', url]]
        : ['xdg-open', [url]];
  return new Promise((resolve) => {
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(command, args, {
        stdio: 'ignore',
        detached: true,
        ...(options.env === undefined ? {} : { env: options.env }),
      });
    } catch {
      resolve(false);
      return;
    }
    const timer = setTimeout(() => resolve(true), OPENER_GRACE_MS);
    timer.unref();
    child.once('error', () => {
      clearTimeout(timer);
      resolve(false);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code === 0);
    });
    child.unref();
  });
}

function parsePort(value: string): number {
  const port = /^\d{1,5}$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
  if (!Number.isInteger(port) || port > 65535) {
    throw new UsageError({
      code: 'INVALID_PORT',
      message: `--port must be a whole number between 1 and 65535 (0 picks a free port), got "${value}".`,
    });
  }
  return port;
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|::1|\[::1\])$/i;

/** Resolves when `signal` aborts, or on Ctrl-C / SIGTERM when there is no signal. */
function untilStopped(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal) {
      if (signal.aborted) resolve();
      else signal.addEventListener('abort', () => resolve(), { once: true });
      return;
    }
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

/** `nao test server`: the results viewer over the project's tests/outputs/. */
export function registerTestServerCommand(
  test: Command,
  io: CliIO,
  setExit: (code: number) => void,
  options: TestServerCommandOptions = {},
): void {
  test
    .command('server')
    .description(
      `Start the results viewer (http://${DEFAULT_VIEWER_HOST}:${DEFAULT_VIEWER_PORT}) over tests/outputs/; Ctrl-C stops it.`,
    )
    .option('--port <port>', 'port to listen on (0 picks a free one)', String(DEFAULT_VIEWER_PORT))
    .option(
      '--host <host>',
      'address to listen on; 0.0.0.0 makes the results readable from other machines',
      DEFAULT_VIEWER_HOST,
    )
    .option('--no-open', 'do not open a browser')
    .action(async (flags: { port: string; host: string; open: boolean }) => {
      const port = parsePort(flags.port);
      const host = flags.host.trim();
      const config = await loadProjectConfig(io);
      const outputsDir = path.join(config.projectDir, 'tests', 'outputs');
      let server: Awaited<ReturnType<typeof startViewerServer>>;
      try {
        server = await startViewerServer({
          outputsDir,
          port,
          host,
          ...(options.assetsDir === undefined ? {} : { assetsDir: options.assetsDir }),
        });
      } catch (error) {
        // The server never started: the same exit code as any other command that cannot start.
        if (error instanceof NaoError && !(error instanceof UsageError)) {
          throw new UsageError({ code: error.code, message: error.message, cause: error });
        }
        throw error;
      }

      io.stdout.write(`nao test server: ${server.url}\n`);
      io.stdout.write(`Serving ${outputsDir}. Press Ctrl-C to stop.\n`);
      if (!existsSync(outputsDir)) {
        io.stderr.write(
          `Warning: ${outputsDir} does not exist yet. Run \`nao test\` to create results; the viewer lists them as they appear.\n`,
        );
      }
      if (!LOOPBACK.test(host)) {
        io.stderr.write(
          `Warning: listening on ${host}: anyone who can reach this machine on port ${server.port} can read these test results.\n`,
        );
      }
      if (flags.open) {
        const open = options.openBrowser ?? ((url: string) => openInBrowser(url, { env: io.env }));
        const opened = await open(server.url).catch(() => false);
        if (!opened) io.stderr.write(`Could not open a browser; open ${server.url} yourself.\n`);
      }

      await untilStopped(options.signal);
      await server.close();
      io.stdout.write('Viewer stopped.\n');
      setExit(EXIT.ok);
    });
}
