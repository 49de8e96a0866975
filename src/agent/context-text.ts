import { readFile } from 'node:fs/promises';

export type ContextText = { success: true; text: string } | { success: false; error: string };

/**
 * Reads a context file as UTF-8 text, refusing binary content (a NUL byte in the first 8 KB,
 * the heuristic git uses) so database files or images never reach the model as noise.
 */
export async function readContextText(options: {
  absolute: string;
  displayPath: string;
  size: number;
  maxBytes: number;
}): Promise<ContextText> {
  if (options.size > options.maxBytes) {
    return {
      success: false,
      error: `"${options.displayPath}" is ${options.size} bytes, over the ${options.maxBytes}-byte limit for this tool; use grep to find the part you need`,
    };
  }
  let buffer: Buffer;
  try {
    buffer = await readFile(options.absolute);
  } catch (error) {
    return {
      success: false,
      error: `"${options.displayPath}" cannot be read (${(error as NodeJS.ErrnoException).code ?? 'unknown error'})`,
    };
  }
  if (buffer.subarray(0, 8192).includes(0)) {
    return { success: false, error: `"${options.displayPath}" is a binary file, not text` };
  }
  let text = buffer.toString('utf8');
  if (text.startsWith('\uFEFF')) text = text.slice(1);
  return { success: true, text };
}

/** Lines of a text, without the empty one a trailing newline would add. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r\n|\n|\r/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}
