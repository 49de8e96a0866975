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
