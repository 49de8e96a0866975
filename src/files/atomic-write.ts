/**
 * Every file nao writes is written whole: the content goes to a temporary file in the same
 * folder, is synced to disk, and only then takes its final name. A reader, or nao after a
 * kill at any moment, sees the previous file or the complete new one, never an empty or
 * half-written one; what a kill can leave is a hidden temporary file, removed a day later.
 */
import { randomUUID } from 'node:crypto';
import { link, mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';

/** `.<name>-<pid>-<uuid>.tmp`: hidden, and told apart from anything a user names. */
const TEMP_FILE_PATTERN = /^\..+-\d+-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.tmp$/;
const DAY_MS = 24 * 60 * 60 * 1000;

function errorCode(error: unknown): string | undefined {
  return error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}

/** True for the name of a temporary file this module writes (a leftover when its writer was killed). */
export function isTempFileName(name: string): boolean {
  return TEMP_FILE_PATTERN.test(name);
}

/** Writes `data` to a new temporary file in `folder` (created if missing), synced to disk; returns its path. */
async function writeTemp(options: {
  folder: string;
  stem: string;
  data: string | Uint8Array;
  mode: number | undefined;
}): Promise<string> {
  await mkdir(options.folder, { recursive: true });
  const tempPath = path.join(options.folder, `.${options.stem}-${process.pid}-${randomUUID()}.tmp`);
  const handle = await open(tempPath, 'wx', options.mode ?? 0o666);
  try {
    // The mode given to open is masked by the umask; a private file must be private regardless,
    // before any of its content is on disk.
    if (options.mode !== undefined) await handle.chmod(options.mode);
    await handle.writeFile(options.data);
    await handle.sync();
  } catch (error) {
    await handle.close().catch(() => undefined);
    await rm(tempPath, { force: true });
    throw error;
  }
  await handle.close();
  return tempPath;
}

/** Syncs the folder, so the new name survives a power cut; not possible everywhere (Windows), so best effort. */
async function syncFolder(folder: string): Promise<void> {
  try {
    const handle = await open(folder, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // The file is complete either way; only its name may not yet be durable.
  }
}

/**
 * Gives the complete temporary file the name `target` unless a file has it: link() fails with
 * EEXIST instead of replacing, so the name is claimed and filled in one step. Filesystems
 * without hard links get an exclusive create then a rename (a kill in between leaves an empty
 * file there, which readers report).
 */
async function linkNoReplace(tempPath: string, target: string): Promise<void> {
  try {
    await link(tempPath, target);
    return;
  } catch (error) {
    const code = errorCode(error);
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS' && code !== 'EOPNOTSUPP') throw error;
  }
  await (await open(target, 'wx')).close();
  await rename(tempPath, target);
}

/**
 * Writes `data` to `path` whole (see the module comment). `ifExists: 'replace'` (the default)
 * replaces a file of that name; `'fail'` leaves it and throws its EEXIST error, for files that
 * are the user's once written (tests, the scaffold). `mode` is applied exactly (0o600 for secrets).
 */
export async function writeFileAtomic(options: {
  path: string;
  data: string | Uint8Array;
  ifExists?: 'replace' | 'fail';
  mode?: number;
}): Promise<void> {
  const target = path.resolve(options.path);
  const folder = path.dirname(target);
  const tempPath = await writeTemp({
    folder,
    stem: path.basename(target),
    data: options.data,
    mode: options.mode,
  });
  try {
    if (options.ifExists === 'fail') await linkNoReplace(tempPath, target);
    else await rename(tempPath, target);
  } finally {
    await rm(tempPath, { force: true });
  }
  await syncFolder(folder);
}

/**
 * Writes `data` whole under the first of `nameOf(1)`, `nameOf(2)`… that no file in `folder` has
 * (two runs finishing in the same second), and returns its path. No name is claimed before
 * the content is complete.
 */
export async function writeNewFileAtomic(options: {
  folder: string;
  nameOf: (sequence: number) => string;
  maxNames: number;
  data: string | Uint8Array;
  /** The temporary file's name: `.<tempStem>-<pid>-<uuid>.tmp`. */
  tempStem: string;
}): Promise<string> {
  const folder = path.resolve(options.folder);
  const tempPath = await writeTemp({ folder, stem: options.tempStem, data: options.data, mode: undefined });
  try {
    for (let sequence = 1; sequence <= options.maxNames; sequence++) {
      const target = path.join(folder, options.nameOf(sequence));
      try {
        await linkNoReplace(tempPath, target);
      } catch (error) {
        if (errorCode(error) === 'EEXIST') continue;
        throw error;
      }
      await syncFolder(folder);
      return target;
    }
    throw new Error(`${options.maxNames} files named like ${options.nameOf(1)} already exist in ${folder}`);
  } finally {
    await rm(tempPath, { force: true });
  }
}

/**
 * Removes the temporary files in `folder` that a killed writer left more than a day ago (a
 * younger one may still be being written); returns their paths. A folder that does not exist
 * has none, and a file that cannot be removed is left for the next time.
 */
export async function removeStaleTempFiles(options: { folder: string; now?: Date }): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(options.folder);
  } catch {
    return [];
  }
  const cutoff = (options.now ?? new Date()).getTime() - DAY_MS;
  const removed: string[] = [];
  for (const name of names.filter(isTempFileName)) {
    const filePath = path.join(options.folder, name);
    try {
      const info = await stat(filePath);
      if (!info.isFile() || info.mtimeMs > cutoff) continue;
      await rm(filePath, { force: true });
      removed.push(filePath);
    } catch {
      // Removed meanwhile, or not ours to remove: it is only a leftover.
    }
  }
  return removed;
}
