import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createBackendRunner, disabledRunner } from '../app-runs/backend-runner.js';
import { createLocalRunner } from '../app-runs/local-runner.js';
import { DEFAULT_BACKEND_URL } from '../backend/listen-defaults.js';
import { normalizeBackendUrl } from '../client/index.js';
import { NaoError, UsageError } from '../errors/index.js';
import { startViewerServer } from '../viewer/index.js';
import type { CommandAction } from './command-spec.js';
import type { CliDependencies } from './dependencies.js';
import { EXIT } from './exit-codes.js';
import { portFlag } from './flag-values.js';
import { loadProjectConfig } from './load-project.js';
import { backendUrlOf } from './login-command.js';
import { untilStopped } from './until-stopped.js';
import { NAO_VERSION } from './version.js';

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
      child = spawn(command, args, { stdio: 'ignore', detached: true, env: options.env });
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

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|::1|\[::1\])$/i;

/** `nao test server`: the results viewer over the project's tests/outputs/, until Ctrl-C. */
export const serveResults: CommandAction<CliDependencies> = async ({ io, flags, deps }) => {
  const port = portFlag(String(flags.port));
  const host = String(flags.host).trim();
  const config = await loadProjectConfig(io);
  const outputsDir = path.join(config.projectDir, 'tests', 'outputs');
  const backendUrl = backendUrlOf(io, flags);
  // No backend named: Run again runs the tests in this process, as `nao test --local` does.
  const local = typeof flags.backend !== 'string' && !io.env.BACKEND_URL;
  // Run again spends money (the CLI's session or the project's keys): only for pages on this machine.
  const runner = !LOOPBACK.test(host)
    ? disabledRunner(
        `Run again is off: this viewer listens on ${host}, where other machines can reach it. Start nao test server without --host to run tests from the page.`,
      )
    : local
      ? createLocalRunner({
          projectDir: config.projectDir,
          env: io.env,
          naoVersion: NAO_VERSION,
          log: (line) => io.stderr.write(`${line}\n`),
          ...(deps.fetch === undefined ? {} : { fetch: deps.fetch }),
        })
      : createBackendRunner({
          projectDir: config.projectDir,
          backendUrl,
          env: io.env,
          naoVersion: NAO_VERSION,
          defaultBackend: backendUrl === normalizeBackendUrl(DEFAULT_BACKEND_URL),
        });
  let server: Awaited<ReturnType<typeof startViewerServer>>;
  try {
    server = await startViewerServer({ outputsDir, port, host, runner, assetsDir: deps.viewerAssetsDir });
  } catch (error) {
    // The server never started: the same exit code as any other command that cannot start.
    if (error instanceof NaoError && !(error instanceof UsageError)) {
      throw new UsageError({ code: error.code, message: error.message, cause: error });
    }
    throw error;
  }

  io.stdout.write(`nao test server: ${server.url}\n`);
  io.stdout.write(`Serving ${outputsDir}. Press Ctrl-C to stop.\n`);
  if (LOOPBACK.test(host)) {
    io.stdout.write(
      local
        ? 'Run again (in the page) runs the tests in this process with nao_config.yaml (replayed from tests/recordings/ when every run is recorded).\n'
        : `Run again (in the page) goes through the nao backend at ${backendUrl}.\n`,
    );
  }
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
  if (flags.open !== false) {
    const open = deps.openBrowser ?? ((url: string) => openInBrowser(url, { env: io.env }));
    const opened = await open(server.url).catch(() => false);
    if (!opened) io.stderr.write(`Could not open a browser; open ${server.url} yourself.\n`);
  }

  await untilStopped(deps.interrupt);
  await server.close();
  io.stdout.write('Viewer stopped.\n');
  return EXIT.ok;
};
