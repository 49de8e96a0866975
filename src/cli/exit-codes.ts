/** Exit codes shared by every command. */
export const EXIT = {
  /** Everything selected passed. */
  ok: 0,
  /** The command ran, and something failed or errored. */
  failed: 1,
  /** The command could not start: bad flag, bad config, invalid test files, unknown test. */
  usage: 2,
  /** Interrupted by Ctrl-C / SIGTERM after saving what finished. */
  interrupted: 130,
} as const;
