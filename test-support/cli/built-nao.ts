import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT } from './example-project.js';

/** The built `nao` (npm run build), as a user or CI runs it. */
export const BUILT_NAO = path.join(REPO_ROOT, 'bin', 'nao.js');

export interface BuiltNao {
  /** For signals (Ctrl-C is `child.kill('SIGINT')`). */
  child: ChildProcess;
  /** Everything printed so far, while it runs. */
  output(): { stdout: string; stderr: string };
  /** Resolves when it exits, with its exit code (or the signal that ended it) and all it printed. */
  ended: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
}

/**
 * `node bin/nao.js …` in a process of its own, with only PATH and NO_COLOR from this one plus
 * `env`, so no developer's keys or settings reach it.
 */
export function spawnBuiltNao(options: {
  args: string[];
  cwd: string;
  env?: Record<string, string>;
}): BuiltNao {
  const child = spawn(process.execPath, [BUILT_NAO, ...options.args], {
    cwd: options.cwd,
    env: { PATH: process.env.PATH, NO_COLOR: '1', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr!.on('data', (chunk) => {
    stderr += chunk;
  });
  const ended = new Promise<{
    code: number | null;
    signal: NodeJS.Signals | null;
    stdout: string;
    stderr: string;
  }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
  return { child, output: () => ({ stdout, stderr }), ended };
}
