import { startBackend } from '../backend/index.js';
import type { CommandAction } from './command-spec.js';
import type { CliDependencies } from './dependencies.js';
import { EXIT } from './exit-codes.js';
import { portFlag } from './flag-values.js';
import { loadProjectConfig } from './load-project.js';
import { untilStopped } from './until-stopped.js';
import { NAO_VERSION } from './version.js';

/** `nao chat`: serves the project of the current folder (API, log-in pages, CLI approval) until Ctrl-C. */
export const serveBackend: CommandAction<CliDependencies> = async ({ io, flags, deps }) => {
  const port = portFlag(String(flags.port));
  const config = await loadProjectConfig(io);
  const log = (line: string) => io.stdout.write(`${new Date().toISOString()} ${line}\n`);
  const backend = await startBackend({
    config,
    env: io.env,
    host: String(flags.host),
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
  await untilStopped(deps.interrupt);
  io.stdout.write('Stopping nao chat…\n');
  await backend.close();
  io.stdout.write('nao chat stopped.\n');
  return EXIT.ok;
};
