import type { ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * How to fork `name`, a module beside the caller's (`import.meta.url`), as a child process:
 * its '.js' file once built, or its '.ts' source under vitest or tsx, where the child needs
 * tsx to load it. The one way nao starts its query processes.
 */
export function childModule(callerUrl: string, name: string): { entry: string; execArgv: string[] } {
  const caller = fileURLToPath(callerUrl);
  const extension = path.extname(caller);
  const entry = path.join(path.dirname(caller), `${name}${extension}`);
  if (extension !== '.ts') return { entry, execArgv: [] };
  const tsx = pathToFileURL(createRequire(callerUrl).resolve('tsx')).href;
  return { entry, execArgv: ['--import', tsx] };
}

/**
 * Whether `child` keeps nao running: an idle query process must not, one with a request in
 * flight must (its reply is awaited). Covers the process, its IPC channel and its stderr pipe.
 */
export function holdOpen(child: ChildProcess, held: boolean): void {
  const handles = [child, child.channel, child.stderr] as (
    | { ref?: () => void; unref?: () => void }
    | null
    | undefined
  )[];
  for (const handle of handles) {
    if (held) handle?.ref?.();
    else handle?.unref?.();
  }
}

/**
 * Settles with a query process's first word: resolves on `{ kind: 'ready' }`, rejects with
 * `refused(message)` for a message that says it could not start, with `ended()` if it exits
 * first, or with the error of a process that could not be spawned.
 */
export function childReady<Message extends { kind: string }>(
  child: ChildProcess,
  options: { ended: () => Error; refused?: (message: Message) => Error | undefined },
): Promise<void> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: Message) => {
      const refusal = message.kind === 'ready' ? undefined : options.refused?.(message);
      if (message.kind !== 'ready' && refusal === undefined) return;
      settle();
      if (refusal === undefined) resolve();
      else reject(refusal);
    };
    const onExit = () => {
      settle();
      reject(options.ended());
    };
    const onError = (error: Error) => {
      settle();
      reject(error);
    };
    const settle = () => {
      child.off('message', onMessage);
      child.off('exit', onExit);
      child.off('error', onError);
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
    child.once('error', onError);
  });
}
