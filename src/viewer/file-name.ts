/**
 * Which names the viewer accepts for a results file. A name comes from a URL, so it is
 * checked before it reaches the file system: it must be a plain file name inside
 * `tests/outputs/` named like the files `nao test` writes (`results_*.json`) — no separators,
 * no control characters, no leftover percent-encoding (a double-encoded `%252e%252e%252f`
 * arrives here as `%2e%2e%2f`).
 */
import path from 'node:path';

export type FileNameCheck = { success: true; path: string } | { success: false; error: string };

/** Longest name accepted; file systems allow 255 bytes, so anything longer cannot exist. */
const MAX_NAME_LENGTH = 255;

/** Why `name` cannot be a results file name, or null when it can. */
export function fileNameProblem(name: string): string | null {
  if (name === '') return 'the file name is empty';
  if (name.length > MAX_NAME_LENGTH) return `the file name is longer than ${MAX_NAME_LENGTH} characters`;
  if (name.includes('/') || name.includes('\\')) return 'a file name cannot contain / or \\';
  if (name.includes('%')) return 'a file name cannot contain % (encoded paths are not accepted)';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is rejected.
  if (/[\u0000-\u001f\u007f]/.test(name)) return 'a file name cannot contain control characters';
  if (!name.startsWith('results_') || !name.endsWith('.json')) {
    return 'only results_*.json files written by `nao test` are served';
  }
  return null;
}

/**
 * Resolves `name` to a path directly inside `outputsDir`, or says why it is refused. Whether
 * the file exists is left to the caller (a missing file is a 404, a refused name a 400).
 */
export function resolveResultsFileName(options: { outputsDir: string; name: string }): FileNameCheck {
  const problem = fileNameProblem(options.name);
  if (problem !== null) return { success: false, error: `Invalid results file name: ${problem}.` };
  const outputsDir = path.resolve(options.outputsDir);
  const resolved = path.resolve(outputsDir, options.name);
  // The checks above already exclude every way out; this keeps it true if they ever change.
  if (path.dirname(resolved) !== outputsDir) {
    return { success: false, error: 'Invalid results file name: it points outside tests/outputs/.' };
  }
  return { success: true, path: resolved };
}

/** True for a request path that walks with dot segments, plain or percent-encoded, or backslashes. */
export function hasDotSegments(rawPath: string): boolean {
  const pathOnly = rawPath.split(/[?#]/, 1)[0] ?? '';
  let decoded = pathOnly;
  // Decode repeatedly so double encodings are seen too; a malformed escape stops decoding.
  for (let round = 0; round < 3 && decoded.includes('%'); round++) {
    try {
      decoded = decodeURIComponent(decoded);
    } catch {
      break;
    }
  }
  return [pathOnly, decoded].some(
    (candidate) =>
      candidate.includes('\\') || candidate.split('/').some((part) => part === '..' || part === '.'),
  );
}
