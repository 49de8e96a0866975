/** What tests (and only tests) replace of the outside world when they run a command in-process. */
export interface CliDependencies {
  /**
   * Aborted by Ctrl-C / SIGTERM: `nao test` stops starting runs and saves what finished, the
   * servers shut down. Tests pass their own.
   */
  interrupt?: AbortSignal;
  /** Transport under the provider packages (tests point it at a wire-protocol server). */
  fetch?: typeof globalThis.fetch;
  now?: () => Date;
  /** Opens the viewer's URL; resolves false when no browser could be started. */
  openBrowser?: (url: string) => Promise<boolean>;
  /** The built viewer UI (default: the package's dist/web/viewer/). */
  viewerAssetsDir?: string;
}
