import { compileLinearRegex } from './linear-regex.js';

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

/** Characters searched between two checks of the clock and the signal: a few milliseconds of work. */
const SLICE_CHARS = 64 * 1024;

/**
 * Finds the lines matching a model-written regular expression. It runs on RE2 (linear time,
 * so no pattern can backtrack for hours) and yields to the event loop every slice of text,
 * so `timeoutMs` and an abort stop even a search through megabytes of context.
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
  const { files, maxMatches, maxLineChars, timeoutMs, signal } = options;
  const compiled = compileLinearRegex({ pattern: options.pattern, flags: options.flags });
  if (!compiled.success) return { success: false, error: `invalid regular expression: ${compiled.error}` };
  const regex = compiled.regex;
  signal?.throwIfAborted();
  const deadline = performance.now() + timeoutMs;
  const matches: LineMatch[] = [];
  let totalMatches = 0;
  let sinceYield = 0;
  for (const file of files) {
    const lines = file.text.split(/\r\n|\n|\r/);
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      sinceYield += line.length + 1;
      if (sinceYield >= SLICE_CHARS) {
        sinceYield = 0;
        await new Promise((resolve) => setImmediate(resolve));
        signal?.throwIfAborted();
        if (performance.now() > deadline) {
          return {
            success: false,
            error: `the pattern took longer than ${timeoutMs / 1000} s to search; use a simpler pattern or a narrower path`,
          };
        }
      }
      if (!regex.test(line)) continue;
      totalMatches++;
      if (matches.length < maxMatches) {
        matches.push({
          path: file.path,
          line: i + 1,
          text: line.length > maxLineChars ? `${line.slice(0, maxLineChars)}…` : line,
        });
      }
    }
  }
  return { success: true, matches, totalMatches };
}
