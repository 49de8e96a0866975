/**
 * The temporary folder of one nao process, `nao-temp-<pid>-*`: its pool workers' folders and
 * the database files handed to and from them. It carries the id of its nao and goes as nao
 * exits; a nao killed with its workers (kill -9 on the process group, a container stopped)
 * leaves it, so the next nao removes those whose owner is gone before it creates its own.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

// `workers`, `sandboxes`, `exchange`: an older nao's.
const FOLDER = /^nao-(?:temp|workers|sandboxes|exchange)-(\d+)-[A-Za-z0-9]{6}$/;

let folder: string | null = null;

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
 * Removes the folders in `parentDir` whose nao is gone; returns their paths. A folder that
 * cannot be removed (another user's) is left alone.
 */
export function removeOrphanedFolders(options: { parentDir?: string } = {}): string[] {
  const parentDir = options.parentDir ?? tmpdir();
  let names: string[];
  try {
    names = readdirSync(parentDir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const owner = Number(FOLDER.exec(name)?.[1]);
    if (Number.isNaN(owner) || owner === process.pid || isAlive(owner)) continue;
    const orphan = path.join(parentDir, name);
    try {
      rmSync(orphan, { recursive: true, force: true });
      removed.push(orphan);
    } catch {
      // Not ours to remove, or removed meanwhile.
    }
  }
  return removed;
}

/** This nao's temporary folder, created on first use (clearing the orphans first) and removed as nao exits. */
export function naoTempFolder(): string {
  if (folder === null) {
    removeOrphanedFolders();
    const created = mkdtempSync(path.join(tmpdir(), `nao-temp-${process.pid}-`));
    process.once('exit', () => rmSync(created, { recursive: true, force: true }));
    folder = created;
  }
  return folder;
}
