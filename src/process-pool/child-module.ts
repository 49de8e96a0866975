import type { ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * How to load `name`, a module beside the caller's (`import.meta.url`), in a child process:
 * its '.js' file once built, or its '.ts' source under vitest or tsx, where the child needs
 * tsx to load it. How the pool starts its workers and names the modules of their jobs.
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
 * Whether `child` keeps nao running: an idle worker must not, one with a job in flight must
 * (its reply is awaited). Covers the process, its IPC channel and its stderr pipe.
 */
export function holdOpen(child: ChildProcess, held: boolean): void {
  const handles = [child, child.channel, child.stderr] as ({ ref?: () => void; unref?: () => void } | null)[];
  for (const handle of handles) {
    if (held) handle?.ref?.();
    else handle?.unref?.();
  }
}
