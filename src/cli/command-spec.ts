/**
 * Commands and their flags as data: `buildProgram` turns them into commander commands, the
 * README's flag tables are generated from them (a test fails when they differ), and each
 * command's code is imported only when it runs, so `nao --help` loads neither DuckDB nor the
 * AI SDK.
 */
import type { CliIO } from './io.js';

export interface OptionSpec {
  /** As commander reads it: `-m, --model <provider:model_id>`, `--no-color`. */
  flags: string;
  /** The line of `--help`. */
  help: string;
  /** The README's wording, when the table says more than `--help`; default `help`. */
  readme?: string;
  /** Each use adds to a list (`-m a -m b`). */
  repeatable?: boolean;
  /** The value when the flag is absent (shown by `--help`). */
  default?: string;
}

export interface ArgumentSpec {
  /** `<selection>` (required) or `[file]` (optional). */
  name: string;
  help: string;
  default?: string;
}

/** What a command's code receives: its positional arguments and flags as commander parsed them. */
export interface CommandContext<Deps> {
  io: CliIO;
  args: Array<string | undefined>;
  flags: Record<string, unknown>;
  deps: Deps;
}

/** A command's code: resolves with the process exit code. */
export type CommandAction<Deps> = (context: CommandContext<Deps>) => Promise<number>;

export interface CommandSpec<Deps> {
  /** `['test', 'run']`: the command's place under `nao`. */
  path: readonly string[];
  description: string;
  arguments?: readonly ArgumentSpec[];
  options?: readonly OptionSpec[];
  /** The subcommand that runs when only its parent is named (`nao test` = `nao test run`). */
  isDefault?: boolean;
  /** Printed after the options by `--help`. */
  helpAfter?: string;
  /** Imports the command's code; called only when the command runs. */
  load: () => Promise<CommandAction<Deps>>;
}
