import path from 'node:path';
import { writeResultsFile } from '../index.js';
import type { Reporter } from './reporter.js';

/** Writes `tests/outputs/results_<timestamp>.json`, the file every other view reads. */
export function jsonReporter(options: {
  outputsDir: string;
  /** The run's end, for the file name (the same second as the file's `timestamp`). */
  now: Date;
  /** Paths are shown relative to this folder. */
  cwd: string;
}): Reporter {
  return {
    async onSuiteEnd(file) {
      const saved = await writeResultsFile({ outputsDir: options.outputsDir, file, now: options.now });
      return `Results saved to ${path.relative(options.cwd, saved) || saved}`;
    },
  };
}
