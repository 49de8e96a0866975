import { Command, CommanderError } from 'commander';
import { NaoError, UsageError } from '../errors/index.js';
import { EXIT } from './exit-codes.js';
import { registerInitCommand } from './init-command.js';
import { registerTestInspectCommands } from './test-inspect-commands.js';
import { type CliIO, processIO } from './io.js';
import { NAO_VERSION } from './version.js';

/** Builds the `nao` program; every command reports its exit code through `setExit`. */
export function buildProgram(io: CliIO, setExit: (code: number) => void): Command {
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
  registerTestInspectCommands(test, io, setExit);
  return program;
}

/** Entry point of the `nao` command; returns the process exit code. */
export async function main(argv: string[], io: CliIO = processIO()): Promise<number> {
  let exitCode: number = EXIT.ok;
  const program = buildProgram(io, (code) => {
    exitCode = code;
  });
  try {
    await program.parseAsync(argv);
    return exitCode;
  } catch (error) {
    return reportError(error, io);
  }
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
