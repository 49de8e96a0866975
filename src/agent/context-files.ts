import type { Dirent } from 'node:fs';
import { lstat, readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { deniedReason, relativeInside } from './context-paths.js';
import type { HiddenContext } from './row-security-files.js';

/**
 * Tool and cache folders that hold no context worth reading and can be huge; the walk skips
 * them, but the agent may still `list` or `read` inside them by naming them.
 */
const SKIPPED_WHEN_WALKING = new Set([
  '.venv',
  'venv',
  '__pycache__',
  '.mypy_cache',
  '.pytest_cache',
  '.ruff_cache',
  '.cache',
  'dbt_packages',
]);

export interface ContextEntry {
  /** POSIX path relative to the project folder; folders end with '/'. */
  path: string;
  kind: 'file' | 'directory';
  /** Bytes, files only. */
  size?: number;
}

export interface ContextListing {
  entries: ContextEntry[];
  /** True when the walk stopped at `maxEntries`; more entries exist. */
  truncated: boolean;
}

/**
 * Lists the files and folders under `startDir` (a real path inside the real `projectDir`),
 * depth first in name order, leaving out what the agent may not open. Symlinked folders
 * are listed but not entered, so a link cycle cannot loop; a symlink pointing outside
 * the project or at a denied path is left out.
 */
export async function walkContextFiles(options: {
  projectDir: string;
  startDir: string;
  maxEntries: number;
  /** A further rule of this project (files row security hides). */
  hidden?: HiddenContext | undefined;
}): Promise<ContextListing> {
  const { projectDir, maxEntries } = options;
  const denied = (relative: string) => deniedReason(relative) !== null || options.hidden?.(relative) != null;
  const entries: ContextEntry[] = [];
  let truncated = false;

  async function visit(dir: string): Promise<void> {
    let children: Dirent[];
    try {
      children = await readdir(dir, { withFileTypes: true });
    } catch {
      // Unreadable folders (permissions) hold nothing the agent can use.
      return;
    }
    children.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const child of children) {
      if (truncated) return;
      const absolute = path.join(dir, child.name);
      const relative = relativeInside(projectDir, absolute);
      if (relative === null || denied(relative)) continue;
      const entry = await describe(absolute, relative);
      if (entry === null) continue;
      if (entries.length >= maxEntries) {
        truncated = true;
        return;
      }
      entries.push(entry.entry);
      if (entry.enter && !SKIPPED_WHEN_WALKING.has(child.name.toLowerCase())) await visit(absolute);
    }
  }

  async function describe(
    absolute: string,
    relative: string,
  ): Promise<{ entry: ContextEntry; enter: boolean } | null> {
    try {
      let info = await lstat(absolute);
      const linked = info.isSymbolicLink();
      if (linked) {
        const target = await realpath(absolute);
        const targetRelative = relativeInside(projectDir, target);
        if (targetRelative === null || denied(targetRelative)) return null;
        info = await stat(target);
      }
      if (info.isDirectory()) return { entry: { path: `${relative}/`, kind: 'directory' }, enter: !linked };
      if (info.isFile()) return { entry: { path: relative, kind: 'file', size: info.size }, enter: false };
      return null;
    } catch {
      // Dangling symlinks and files removed mid-walk are simply not there.
      return null;
    }
  }

  await visit(options.startDir);
  return { entries, truncated };
}
