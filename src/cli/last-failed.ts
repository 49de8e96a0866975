import path from 'node:path';
import { UsageError } from '../errors/index.js';
import { listResultsFiles, partialReasons, type ResultsFile, readResultsFile } from '../results/index.js';

/** The (test, model) pairs `--last-failed` reruns, and the file they come from. */
export interface LastFailed {
  /** The results file read. */
  path: string;
  /** How the results file records it: its name in tests/outputs/, else its path from the project. */
  label: string;
  /** Failed or errored pairs, in the file's order, each once. */
  pairs: { name: string; model: string }[];
}

/**
 * The failed and errored (test, model) pairs of `file`, else of the latest complete results
 * file in `outputsDir` (not a shard, a rerun of failures, nor a run that was interrupted or
 * stopped early: its failures are not those of the selection). No such file is a usage error.
 */
export async function readLastFailed(options: {
  file: string | null;
  outputsDir: string;
  projectDir: string;
  cwd: string;
}): Promise<LastFailed> {
  let filePath: string;
  let file: ResultsFile;
  if (options.file !== null) {
    filePath = path.resolve(options.cwd, options.file);
    file = await readResultsFile(filePath);
  } else {
    const latest = await latestCompleteFile(options.outputsDir);
    if (latest === null) {
      throw new UsageError({
        code: 'NO_RESULTS',
        message:
          `--last-failed: no complete results file in ${options.outputsDir} to take the failures from ` +
          '(shards, reruns, interrupted and stopped runs do not count). Run `nao test` first, or pass a file: --last-failed <file>.',
      });
    }
    ({ path: filePath, file } = latest);
  }
  const seen = new Set<string>();
  const pairs: LastFailed['pairs'] = [];
  for (const result of file.results) {
    if (result.status !== 'failed' && result.status !== 'error') continue;
    const key = JSON.stringify([result.name, result.model]);
    if (seen.has(key)) continue;
    seen.add(key);
    pairs.push({ name: result.name, model: result.model });
  }
  const label =
    path.dirname(filePath) === path.resolve(options.outputsDir)
      ? path.basename(filePath)
      : path.relative(options.projectDir, filePath) || filePath;
  return { path: filePath, label, pairs };
}

/** The newest readable results file that is a complete run of its selection. */
async function latestCompleteFile(outputsDir: string): Promise<{ path: string; file: ResultsFile } | null> {
  const files = await listResultsFiles(outputsDir);
  for (const candidate of files.reverse()) {
    let file: ResultsFile;
    try {
      file = await readResultsFile(candidate);
    } catch {
      // A file being written or broken is not the run to repeat; an older one may be.
      continue;
    }
    if (partialReasons(file).length === 0) return { path: candidate, file };
  }
  return null;
}
