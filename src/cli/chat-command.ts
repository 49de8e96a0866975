import type { Command } from 'commander';
import { UsageError } from '../errors/index.js';
import { DEFAULT_HOST, DEFAULT_PORT, startBackend } from '../server/index.js';
import { EXIT } from './exit-codes.js';
import type { CliIO } from './io.js';
import { loadProjectConfig } from './load-project.js';
import { NAO_VERSION } from './version.js';

export interface ChatCommandDependencies {
  /** Stops the server when aborted; by default Ctrl-C / SIGTERM of this process. */
  stop?: AbortSignal;
}

/** `nao chat`: serves the project of the current folder (API, log-in pages, CLI approval). */
export function registerChatCommand(
  program: Command,
  io: CliIO,
  setExit: (code: number) => void,
  deps: ChatCommandDependencies = {},
): void {
  program
    .command('chat')
    .description(
      'Start the nao backend for the project in this folder: the HTTP API, sign-up and log-in pages, and the ' +
        'CLI log-in approval. Accounts live in .nao/ (or PostgreSQL when NAO_DATABASE_URL is set).',
    )
    .option('--port <port>', `port to listen on (0: any free port)`, String(DEFAULT_PORT))
    .option('--host <host>', 'address to listen on (0.0.0.0 exposes it to the network)', DEFAULT_HOST)
    .action(async (flags: { port: string; host: string }) => {
      const port = parsePort(flags.port);
      const config = await loadProjectConfig(io);
      const log = (line: string) => io.stdout.write(`${new Date().toISOString()} ${line}\n`);
      const backend = await startBackend({
        config,
        env: io.env,
        host: flags.host,
        port,
        version: NAO_VERSION,
        log,
      });
      if (backend.createdTables.length > 0) {
        log(`created tables ${backend.createdTables.join(', ')} in ${backend.store.location}`);
      }
      io.stdout.write(
        `nao chat: serving project "${config.projectName}" at ${backend.url}\n` +
          `Accounts: ${backend.store.kind === 'sqlite' ? backend.store.location : `PostgreSQL ${backend.store.location}`}\n` +
          `Create an account at ${backend.url}/signup, then run \`nao test\` or \`nao login\`. Press Ctrl-C to stop.\n`,
      );
      await stopped(deps.stop);
      io.stdout.write('Stopping nao chat…\n');
      await backend.close();
      io.stdout.write('nao chat stopped.\n');
      setExit(EXIT.ok);
    });
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\s*\d+\s*$/.test(value) || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UsageError({
      code: 'INVALID_FLAG',
      message: `--port must be a whole number from 0 to 65535, got "${value}".`,
    });
  }
  return port;
}

function stopped(stop: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (stop !== undefined) {
      if (stop.aborted) resolve();
      stop.addEventListener('abort', () => resolve(), { once: true });
      return;
    }
    const onSignal = () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      resolve();
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}
