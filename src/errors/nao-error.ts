/**
 * The base of every error nao raises on purpose: a stable `code` that tests and the CLI
 * can rely on, and a message written for the user (what is wrong, where, what to do).
 */
export class NaoError extends Error {
  readonly code: string;

  constructor(options: { code: string; message: string; cause?: unknown }) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = options.code;
  }
}

/**
 * A setup problem that stops a command before it does anything (bad config, bad flag,
 * invalid test files). The CLI exits with code 2 for these.
 */
export class UsageError extends NaoError {}

/** The message of anything thrown: an Error's message, anything else as a string. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
