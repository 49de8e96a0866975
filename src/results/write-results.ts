/**
 * Writes `tests/outputs/results_YYYYMMDD_HHMMSS.json`. A reader (the viewer, a CI step) never
 * sees half a file, and two runs finishing in the same second never overwrite each other.
 */
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { messageOf, NaoError } from '../errors/index.js';
import { removeStaleTempFiles, writeFileAtomic, writeNewFileAtomic } from '../files/index.js';
import type { ResultsFile, Summary } from './results-file.js';

const MAX_SAME_SECOND_FILES = 1000;

function pad(value: number, length = 2): string {
  return String(value).padStart(length, '0');
}

/** Local time as the reference writes `timestamp`: "2025-02-09T14:30:22.123000" (no zone). */
export function localIsoTimestamp(now: Date): string {
  const date = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
  const time = `${pad(now.getHours())}:${pad(now.getMinutes())}:${pad(now.getSeconds())}`;
  return `${date}T${time}.${pad(now.getMilliseconds(), 3)}000`;
}

/** `results_20250209_143022.json`, then `results_20250209_143022_2.json`… for the same second. */
export function resultsFileName(now: Date, sequence = 1): string {
  const stamp =
    `${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}_` +
    `${pad(now.getHours())}${pad(now.getMinutes())}${pad(now.getSeconds())}`;
  return sequence <= 1 ? `results_${stamp}.json` : `results_${stamp}_${sequence}.json`;
}

/**
 * The inverse of `resultsFileName`, as a key that sorts by run time:
 * `results_20250209_143022_2.json` → "20250209_143022_000002"; null for other names.
 */
export function resultsFileSortKey(name: string): string | null {
  const match = /^results_(\d{8}_\d{6})(?:_(\d+))?\.json$/.exec(name);
  return match ? `${match[1]}_${(match[2] ?? '1').padStart(6, '0')}` : null;
}

/**
 * The `results_*.json` files of an outputs folder, oldest first; none when the folder does not
 * exist. An empty one (an older nao killed while writing it) is left out and passed to
 * `onEmpty`, so the commands that pick the latest file skip it instead of failing on it; the
 * temporary files a killed writer left more than a day ago are removed.
 */
export async function listResultsFiles(
  outputsDir: string,
  options: { onEmpty?: (file: string) => void } = {},
): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(outputsDir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  await removeStaleTempFiles({ folder: outputsDir });
  const sorted = names
    .filter((name) => resultsFileSortKey(name) !== null)
    .sort((a, b) => (resultsFileSortKey(a)! < resultsFileSortKey(b)! ? -1 : 1))
    .map((name) => path.join(outputsDir, name));
  const files: string[] = [];
  for (const file of sorted) {
    const size = await stat(file).then(
      (info) => info.size,
      () => null,
    );
    // Deleted since the listing: gone, not empty.
    if (size === null) continue;
    if (size === 0) options.onEmpty?.(file);
    else files.push(file);
  }
  return files;
}

/** JSON.stringify cannot write a BigInt; a driver value that slipped into tool results becomes its digits. */
function jsonReplacer(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value;
}

/**
 * The file as written: `total_cost` of the summary and of each `by_model` row is a number even
 * when no run has a known cost (the original nao's viewer prints them with toFixed);
 * `runs_without_cost` keeps that apart from a real 0, and `readResultsFile` reads it back as unknown.
 */
function asWritten(file: ResultsFile): ResultsFile {
  const unpriced = (summary: Summary) => summary.total_cost === null;
  if (!unpriced(file.summary) && !(file.by_model ?? []).some(unpriced)) return file;
  return {
    ...file,
    summary: costAsNumber(file.summary),
    ...(file.by_model ? { by_model: file.by_model.map(costAsNumber) } : {}),
  };
}

function costAsNumber<T extends Summary>(summary: T): T {
  return summary.total_cost === null ? { ...summary, total_cost: 0 } : summary;
}

/** Pretty JSON; the replacer (slow on big files) only runs when a BigInt made the fast path throw. */
function toJson(results: ResultsFile): string {
  const file = asWritten(results);
  try {
    return JSON.stringify(file, null, 2);
  } catch (error) {
    if (!(error instanceof TypeError) || !/BigInt/i.test(error.message)) throw error;
    return JSON.stringify(file, jsonReplacer, 2);
  }
}

/** Says what failed, naming where; `target` follows "the results file". */
function writeFailed(options: { target: string; error: unknown }): NaoError {
  const reason = messageOf(options.error);
  return new NaoError({
    code: 'RESULTS_WRITE_FAILED',
    message: `Could not write the results file ${options.target}: ${reason}. Check that the folder is writable and the disk is not full.`,
    cause: options.error,
  });
}

/**
 * Writes the file pretty-printed (2 spaces) into `outputsDir` (created if missing) and returns
 * its path, taking the next `_N` suffix when a file of the same second exists. The name is
 * taken only once the content is complete (see files/atomic-write), so a kill leaves no empty
 * or half `results_*.json`, only a hidden `.results-*.tmp` that readers skip.
 */
export async function writeResultsFile(options: {
  outputsDir: string;
  file: ResultsFile;
  /** The run's clock, for the file name; inject it to get a known name in tests. */
  now?: Date;
}): Promise<string> {
  const now = options.now ?? new Date();
  const outputsDir = path.resolve(options.outputsDir);
  try {
    const after = await lastSequenceOf({ outputsDir, now });
    return await writeNewFileAtomic({
      folder: outputsDir,
      nameOf: (sequence) => resultsFileName(now, after + sequence),
      maxNames: MAX_SAME_SECOND_FILES,
      data: `${toJson(options.file)}\n`,
      tempStem: 'results',
    });
  } catch (error) {
    throw writeFailed({ target: `into ${outputsDir}`, error });
  }
}

/**
 * The highest `_N` of the files of `now`'s second already in `outputsDir` (0 when none), so a
 * new file sorts after them even when an earlier name of that second is free again (shards that
 * `nao test merge --remove-shards` removed): the latest file is always the latest run.
 */
async function lastSequenceOf(options: { outputsDir: string; now: Date }): Promise<number> {
  const stamp = resultsFileSortKey(resultsFileName(options.now))?.slice(0, -7);
  const names = await readdir(options.outputsDir).catch(() => [] as string[]);
  return names.reduce((highest, name) => {
    const key = resultsFileSortKey(name);
    return key !== null && key.slice(0, -7) === stamp ? Math.max(highest, Number(key.slice(-6))) : highest;
  }, 0);
}

/**
 * Writes the file to a path the user chose (`nao test merge -o merged.json`), replacing one
 * that exists; a reader never sees half a file.
 */
export async function writeResultsFileAt(options: { path: string; file: ResultsFile }): Promise<string> {
  const target = path.resolve(options.path);
  try {
    await writeFileAtomic({ path: target, data: `${toJson(options.file)}\n` });
    return target;
  } catch (error) {
    throw writeFailed({ target, error });
  }
}
