/**
 * Resolves when `signal` aborts (main's Ctrl-C handler), or on Ctrl-C / SIGTERM of this process
 * when there is no signal: how the servers (`nao chat`, `nao test server`) wait until stopped.
 */
export function untilStopped(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal !== undefined) {
      if (signal.aborted) resolve();
      else signal.addEventListener('abort', () => resolve(), { once: true });
      return;
    }
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
