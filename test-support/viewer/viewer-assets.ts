/**
 * The built web UI for the browser tests: rebuilt with Vite when dist/web/viewer/ is missing
 * or older than any source it is built from (web/viewer/, what it shares with the chat page in
 * web/, and the shared modules of src/).
 */
import { execFile } from 'node:child_process';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from '../cli/example-project.js';

export const ASSETS_DIR = path.join(REPO_ROOT, 'dist', 'web', 'viewer');

async function newestMtime(target: string): Promise<number> {
  const info = await stat(target).catch(() => null);
  if (info === null) return 0;
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = 0;
  for (const entry of await readdir(target)) {
    if (entry === 'node_modules' || entry.endsWith('.test.ts') || entry === 'test-support') continue;
    newest = Math.max(newest, await newestMtime(path.join(target, entry)));
  }
  return newest;
}

export async function ensureViewerAssets(): Promise<string> {
  const built = await stat(path.join(ASSETS_DIR, 'index.html')).catch(() => null);
  const sources = await Promise.all(
    [
      'web/viewer',
      'web/shared',
      'web/vite-page-config.ts',
      'src/viewer',
      'src/number-format/format-values.ts',
      'src/results/run-status.ts',
    ].map((source) => newestMtime(path.join(REPO_ROOT, source))),
  );
  if (built !== null && built.mtimeMs >= Math.max(...sources)) return ASSETS_DIR;
  await promisify(execFile)(
    process.execPath,
    [
      path.join(REPO_ROOT, 'node_modules', 'vite', 'bin', 'vite.js'),
      'build',
      '--config',
      'web/viewer/vite.config.ts',
    ],
    { cwd: REPO_ROOT, timeout: 180_000 },
  );
  return ASSETS_DIR;
}
