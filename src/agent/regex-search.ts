import { Worker } from 'node:worker_threads';

export interface SearchFile {
  path: string;
  text: string;
}

export interface LineMatch {
  path: string;
  /** 1-based. */
  line: number;
  text: string;
}

export type SearchOutcome =
  | { success: true; matches: LineMatch[]; totalMatches: number }
  | { success: false; error: string };

// Plain script (no imports, no TypeScript) because it runs as an `eval` worker: that works
// the same from the compiled dist/ and from sources under vitest.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { pattern, flags, files, maxMatches, maxLineChars } = workerData;
const regex = new RegExp(pattern, flags);
const matches = [];
let totalMatches = 0;
for (const file of files) {
  const lines = file.text.split(/\\r\\n|\\n|\\r/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (!regex.test(line)) continue;
    totalMatches++;
    if (matches.length < maxMatches) {
      matches.push({ path: file.path, line: i + 1, text: line.length > maxLineChars ? line.slice(0, maxLineChars) + '…' : line });
    }
  }
}
parentPort.postMessage({ matches, totalMatches });
`;

/**
 * Finds the lines matching a model-written regular expression. It runs in a worker that is
 * killed after `timeoutMs`, because a pathological pattern can backtrack for hours and
 * JavaScript regular expressions cannot be interrupted otherwise.
 */
export async function searchLines(options: {
  pattern: string;
  flags: string;
  files: SearchFile[];
  maxMatches: number;
  maxLineChars: number;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
}): Promise<SearchOutcome> {
  try {
    new RegExp(options.pattern, options.flags);
  } catch (error) {
    return { success: false, error: `invalid regular expression: ${(error as Error).message}` };
  }
  const { timeoutMs, signal, ...workerData } = options;
  signal?.throwIfAborted();
  return new Promise<SearchOutcome>((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData });
    let settled = false;
    /** The first of answer, timeout, failure or abort ends the worker and settles the search. */
    const end = (settleWith: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      void worker.terminate();
      settleWith();
    };
    const settle = (outcome: SearchOutcome) => end(() => resolve(outcome));
    const onAbort = () => end(() => reject(signal?.reason));
    signal?.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(() => {
      settle({
        success: false,
        error: `the pattern took longer than ${timeoutMs / 1000} s to search; use a simpler pattern or a narrower path`,
      });
    }, timeoutMs);
    worker.once('message', (message: { matches: LineMatch[]; totalMatches: number }) =>
      settle({ success: true, ...message }),
    );
    worker.once('error', (error) => settle({ success: false, error: `the search failed: ${error.message}` }));
    worker.once('exit', (code) =>
      settle({ success: false, error: `the search stopped unexpectedly (exit code ${code})` }),
    );
  });
}
