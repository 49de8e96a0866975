/**
 * The temporary folders of the pool (`nao-workers-<pid>-*`, one per worker process, and
 * `nao-exchange-<pid>-*`, the database files handed to and from them) carry the id of the nao
 * process that owns them. They are removed as nao exits; a nao killed with its workers (kill -9 on the
 * process group, a container stopped) leaves them, so the next nao removes those whose owner
 * is gone before it creates its own.
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

type OwnedFolderKind = 'workers' | 'exchange';

// `sandboxes`: an older nao's. Without an owner's id (older still), only age tells it is left over.
const FOLDER = /^nao-(?:workers|sandboxes|exchange)-(?:(\d+)-)?[A-Za-z0-9]{6}$/;
const DAY_MS = 24 * 60 * 60 * 1000;

let cleaned = false;

/** True while a process of that id runs (one of another user counts: it may be a nao of theirs). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the folders in `parentDir` whose nao is gone, and those of an older nao
 * untouched for a day; returns their paths. A folder that cannot be removed (another user's)
 * is left alone.
 */
export function removeOrphanedFolders(options: { parentDir?: string; now?: Date } = {}): string[] {
  const parentDir = options.parentDir ?? tmpdir();
  let names: string[];
  try {
    names = readdirSync(parentDir);
  } catch {
    return [];
  }
  const cutoff = (options.now ?? new Date()).getTime() - DAY_MS;
  const removed: string[] = [];
  for (const name of names) {
    const match = FOLDER.exec(name);
    const owner = Number(match?.[1]);
    const folder = path.join(parentDir, name);
    try {
      if (match === null) continue;
      if (
        match[1] !== undefined ? owner === process.pid || isAlive(owner) : statSync(folder).mtimeMs > cutoff
      )
        continue;
      rmSync(folder, { recursive: true, force: true });
      removed.push(folder);
    } catch {
      // Not ours to remove, or removed meanwhile.
    }
  }
  return removed;
}

/** A new folder `nao-<kind>-<pid>-XXXXXX` in the system's temporary folder; the first one clears the orphans. */
export function createOwnedFolder(kind: OwnedFolderKind): string {
  if (!cleaned) {
    cleaned = true;
    removeOrphanedFolders();
  }
  return mkdtempSync(path.join(tmpdir(), `nao-${kind}-${process.pid}-`));
}
