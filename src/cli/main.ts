import { Command, CommanderError } from 'commander';
import { NaoError, UsageError } from '../errors/index.js';
import type { CommandSpec } from './command-spec.js';
import { COMMAND_GROUPS, COMMANDS } from './commands.js';
import type { CliDependencies } from './dependencies.js';
import { EXIT } from './exit-codes.js';
import { type CliIO, processIO } from './io.js';
import { NAO_VERSION } from './version.js';

const collect = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];

/** Builds the `nao` program from the command specs; every command reports its exit code through `setExit`. */
export function buildProgram(
  io: CliIO,
  setExit: (code: number) => void,
  deps: CliDependencies = {},
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
  const groups = new Map<string, Command>();
  for (const spec of COMMANDS) {
    const [first, ...rest] = spec.path;
    let parent = program;
    if (rest.length > 0) {
      let group = groups.get(first!);
      if (group === undefined) {
        group = program.command(first!).description(COMMAND_GROUPS[first!] ?? '');
        groups.set(first!, group);
      }
      parent = group;
    }
    addCommand({ parent, spec, io, setExit, deps });
  }
  return program;
}

function addCommand(options: {
  parent: Command;
  spec: CommandSpec<CliDependencies>;
  io: CliIO;
  setExit: (code: number) => void;
  deps: CliDependencies;
}): void {
  const { spec, io, deps } = options;
  const command = options.parent
    .command(spec.path.at(-1)!, spec.isDefault ? { isDefault: true } : {})
    .description(spec.description);
  for (const argument of spec.arguments ?? [])
    command.argument(argument.name, argument.help, argument.default);
  for (const option of spec.options ?? []) {
    if (option.repeatable) command.option(option.flags, option.help, collect);
    else if (option.default !== undefined) command.option(option.flags, option.help, option.default);
    else command.option(option.flags, option.help);
  }
  if (spec.helpAfter !== undefined) command.addHelpText('after', `\n${spec.helpAfter}`);
  command.action(async (...received: unknown[]) => {
    // commander passes the positional arguments, then the options, then the command itself.
    // A variadic argument (`<files...>`) arrives as a list: its items become arguments of their own.
    const args = received.slice(0, spec.arguments?.length ?? 0).flat() as Array<string | undefined>;
    const action = await spec.load();
    options.setExit(await action({ io, args, flags: command.opts(), deps }));
  });
}

/** Entry point of the `nao` command; returns the process exit code. */
export async function main(
  argv: string[],
  io: CliIO = processIO(),
  deps: CliDependencies = {},
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
  if (error instanceof NaoError) {
    io.stderr.write(`Error: ${error.message}\n`);
    return error instanceof UsageError ? EXIT.usage : EXIT.failed;
  }
  io.stderr.write(
    `nao: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  return EXIT.failed;
}
