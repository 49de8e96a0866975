import { Command, CommanderError } from 'commander';
import { NaoError, UsageError } from '../errors/index.js';
import { registerChatCommand } from './chat-command.js';
import { EXIT } from './exit-codes.js';
import { registerInitCommand } from './init-command.js';
import { type CliIO, processIO } from './io.js';
import { registerLoginCommands } from './login-command.js';
import { registerTestInspectCommands } from './test-inspect-commands.js';
import { registerTestResultsCommands } from './test-results-commands.js';
import { registerTestRunCommand, type TestRunDependencies } from './test-run-command.js';
import { registerTestServerCommand } from './test-server-command.js';
import { NAO_VERSION } from './version.js';

/** Builds the `nao` program; every command reports its exit code through `setExit`. */
export function buildProgram(
  io: CliIO,
  setExit: (code: number) => void,
  deps: TestRunDependencies = {},
): Command {
  const program = new Command('nao')
    .description('nao — an analytics agent for your data warehouse, and `nao test`, its offline evaluation.')
    .version(NAO_VERSION, '-V, --version')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    });
  registerInitCommand(program, io, setExit);
  const test = program
    .command('test')
    .description('Run the unit tests of tests/ against the agent, or inspect tests and results.');
  registerTestRunCommand(test, io, setExit, deps);
  registerTestInspectCommands(test, io, setExit);
  registerTestResultsCommands(test, io, setExit);
  registerTestServerCommand(test, io, setExit);
  registerChatCommand(program, io, setExit);
  registerLoginCommands(program, io, setExit);
  return program;
}

/** Entry point of the `nao` command; returns the process exit code. */
export async function main(
  argv: string[],
  io: CliIO = processIO(),
  deps: TestRunDependencies = {},
): Promise<number> {
  let exitCode: number = EXIT.ok;
  const interrupt =
    deps.interrupt === undefined && io.stdout === process.stdout ? onInterrupt(io) : undefined;
  const program = buildProgram(
    { ...io, argv: argv.slice(2) },
    (code) => {
      exitCode = code;
    },
    { ...deps, ...(interrupt ? { interrupt: interrupt.signal } : {}) },
  );
  try {
    await program.parseAsync(argv);
    return exitCode;
  } catch (error) {
    return reportError(error, io);
  } finally {
    interrupt?.dispose();
  }
}

/**
 * The first Ctrl-C (or SIGTERM) asks the running command to stop and save what finished;
 * a second one exits at once.
 */
function onInterrupt(io: CliIO): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const handler = () => {
    if (controller.signal.aborted) {
      io.stderr.write('Interrupted again: exiting without waiting.\n');
      process.exit(EXIT.interrupted);
    }
    controller.abort(new Error('interrupted'));
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return {
    signal: controller.signal,
    dispose() {
      process.off('SIGINT', handler);
      process.off('SIGTERM', handler);
    },
  };
}

function reportError(error: unknown, io: CliIO): number {
  if (error instanceof CommanderError) {
    // --help and --version end through here too, with exit code 0.
    return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
  }
  if (error instanceof UsageError) {
    io.stderr.write(`Error: ${error.message}\n`);
    return EXIT.usage;
  }
  if (error instanceof NaoError) {
    io.stderr.write(`Error: ${error.message}\n`);
    return EXIT.failed;
  }
  io.stderr.write(
    `nao: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  return EXIT.failed;
}
