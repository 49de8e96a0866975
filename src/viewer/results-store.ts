/**
 * The results files of `tests/outputs/`, parsed once per version: a file is read again only
 * when its modification time or size changed. Parsed files are big (a 20,000-run file is
 * ~40 MB of JSON), so only the few most recently used stay in memory; the history keeps just
 * the handful of numbers it plots per file.
 */
import { lstat, readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { NaoError } from '../errors/index.js';
import { type ResultsFile, readResultsFile, resultsFileName, resultsFileSortKey } from '../results/index.js';
import type { FileOverview, HistoryPoint, HistoryResponse, ResultsFileEntry } from './api-types.js';
import { fileNameProblem, resolveResultsFileName } from './file-name.js';
import { buildHistoryPoint, buildOverview } from './file-overview.js';

/** A parsed file with its serialised forms, each built on first use and kept with it. */
export interface LoadedResults {
  name: string;
  file: ResultsFile;
  json(): string;
  overview(): FileOverview;
  overviewJson(): string;
}

export type LoadOutcome =
  | { success: true; loaded: LoadedResults }
  | { success: false; status: 400 | 403 | 404 | 422; error: string };

export interface ResultsStore {
  readonly outputsDir: string;
  /** The results files, newest first; an absent folder has none. */
  list(): Promise<ResultsFileEntry[]>;
  load(name: string): Promise<LoadOutcome>;
  /** Pass rate and cost of every file, oldest first, for the history chart. */
  history(): Promise<HistoryResponse>;
}

interface Version {
  mtimeMs: number;
  size: number;
}

interface CachedFile extends Version {
  loading: Promise<LoadedResults>;
}

const DEFAULT_MAX_CACHED_FILES = 3;

function sameVersion(a: Version, b: Version): boolean {
  return a.mtimeMs === b.mtimeMs && a.size === b.size;
}

function errorCode(error: unknown): string | undefined {
  return error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}

/** The path, or a folder on it, does not exist. */
function isMissing(error: unknown): boolean {
  return errorCode(error) === 'ENOENT' || errorCode(error) === 'ENOTDIR';
}

/**
 * The run time as it sorts: `results_20250209_143022_2.json` → "20250209_143022_000002".
 * A file named otherwise sorts by its modification time, as nao would have named it.
 */
function sortKey(name: string, modified: Date): string {
  const stamp = resultsFileName(modified).slice('results_'.length, -'.json'.length);
  return resultsFileSortKey(name) ?? `${stamp}_000000`;
}

function memo<T>(build: () => T): () => T {
  let value: { built: T } | undefined;
  return () => {
    value ??= { built: build() };
    return value.built;
  };
}

function loadedResults(name: string, file: ResultsFile): LoadedResults {
  const overview = memo(() => buildOverview({ name, file }));
  return {
    name,
    file,
    json: memo(() => JSON.stringify(file)),
    overview,
    overviewJson: memo(() => JSON.stringify(overview())),
  };
}

export function createResultsStore(options: { outputsDir: string; maxCachedFiles?: number }): ResultsStore {
  const outputsDir = path.resolve(options.outputsDir);
  const maxCached = Math.max(1, options.maxCachedFiles ?? DEFAULT_MAX_CACHED_FILES);
  // Map order is the recency order: the first entry is the least recently used.
  const files = new Map<string, CachedFile>();
  const points = new Map<string, Version & { point: HistoryPoint }>();

  async function versionOf(filePath: string): Promise<Version | null> {
    try {
      const info = await stat(filePath);
      return info.isFile() ? { mtimeMs: info.mtimeMs, size: info.size } : null;
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  /**
   * False for a symlink whose target is outside tests/outputs/: it is neither read nor listed,
   * or a link to any readable file would have its start shown in the parse error.
   */
  async function staysInside(filePath: string): Promise<boolean> {
    if (!(await lstat(filePath)).isSymbolicLink()) return true;
    const [target, folder] = await Promise.all([realpath(filePath), realpath(outputsDir)]);
    return target.startsWith(`${folder}${path.sep}`);
  }

  function remember(name: string, entry: CachedFile): void {
    files.delete(name);
    files.set(name, entry);
    while (files.size > maxCached) {
      const oldest = files.keys().next().value;
      if (oldest === undefined) break;
      files.delete(oldest);
    }
  }

  /** `keep`: remember the parsed file (the history only passes through, not to evict the viewed ones). */
  async function open(name: string, keep: boolean): Promise<LoadOutcome> {
    const resolved = resolveResultsFileName({ outputsDir, name });
    if (!resolved.success) return { success: false, status: 400, error: resolved.error };
    const version = await versionOf(resolved.path);
    if (version === null) {
      files.delete(name);
      return { success: false, status: 404, error: `No results file named ${name} in ${outputsDir}.` };
    }
    if (!(await staysInside(resolved.path))) {
      files.delete(name);
      return {
        success: false,
        status: 403,
        error: `${name} is a symbolic link out of tests/outputs/, which the viewer does not follow.`,
      };
    }
    let cached = files.get(name);
    if (cached === undefined || !sameVersion(cached, version)) {
      files.delete(name);
      cached = {
        ...version,
        loading: readResultsFile(resolved.path).then((file) => loadedResults(name, file)),
      };
    }
    if (keep) remember(name, cached);
    try {
      return { success: true, loaded: await cached.loading };
    } catch (error) {
      // A broken file is not kept: the next request reads it again (it may have been fixed).
      if (files.get(name) === cached) files.delete(name);
      if (error instanceof NaoError) return { success: false, status: 422, error: error.message };
      throw error;
    }
  }

  async function list(): Promise<ResultsFileEntry[]> {
    let names: string[];
    try {
      names = await readdir(outputsDir);
    } catch (error) {
      if (isMissing(error)) return [];
      throw error;
    }
    const entries: (ResultsFileEntry & { key: string })[] = [];
    for (const name of names) {
      if (fileNameProblem(name) !== null) continue;
      const filePath = path.join(outputsDir, name);
      let info: Awaited<ReturnType<typeof stat>>;
      try {
        if (!(await staysInside(filePath))) continue;
        info = await stat(filePath);
      } catch (error) {
        // Deleted between readdir and stat.
        if (errorCode(error) === 'ENOENT') continue;
        throw error;
      }
      if (!info.isFile()) continue;
      entries.push({
        name,
        size: info.size,
        modified: info.mtime.toISOString(),
        key: sortKey(name, info.mtime),
      });
    }
    entries.sort((a, b) => (a.key < b.key ? 1 : a.key > b.key ? -1 : a.name < b.name ? 1 : -1));
    return entries.map(({ key: _key, ...entry }) => entry);
  }

  async function history(): Promise<HistoryResponse> {
    const entries = await list();
    const response: HistoryResponse = { files: [], unreadable: [] };
    const present = new Set(entries.map((entry) => entry.name));
    for (const name of points.keys()) if (!present.has(name)) points.delete(name);
    // One file at a time: each may be tens of MB once parsed.
    for (const entry of [...entries].reverse()) {
      const filePath = path.join(outputsDir, entry.name);
      const version = await versionOf(filePath);
      if (version === null) continue;
      const known = points.get(entry.name);
      if (known && sameVersion(known, version)) {
        response.files.push(known.point);
        continue;
      }
      const outcome = await open(entry.name, false);
      if (!outcome.success) {
        if (outcome.status !== 404) response.unreadable.push({ name: entry.name, error: outcome.error });
        continue;
      }
      const point = buildHistoryPoint({ name: entry.name, file: outcome.loaded.file });
      points.set(entry.name, { ...version, point });
      response.files.push(point);
    }
    return response;
  }

  return { outputsDir, list, load: (name) => open(name, true), history };
}
