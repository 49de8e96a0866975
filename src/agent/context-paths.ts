import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { HiddenContext } from './row-security-files.js';

/**
 * Folders the agent may never open, matched on any path segment (case-insensitive, for
 * case-insensitive file systems): version control, nao's own state (stored credentials),
 * dependencies, and the usual homes of keys.
 */
const DENIED_FOLDERS = new Set(['.git', '.nao', 'node_modules', '.ssh', '.aws', '.gnupg', '.azure', '.kube']);

/** File names whose content is a secret or a credential, whatever folder they sit in. */
const SECRET_FILE_PATTERNS: readonly RegExp[] = [
  /^\.env(\..*)?$/,
  /\.env$/,
  /\.(pem|key|p12|pfx|jks|keystore|kdbx|ppk|asc|gpg)$/,
  /^id_(rsa|dsa|ecdsa|ed25519)(\.pub)?$/,
  /^credentials(\..*)?$/,
  /^auth\.json$/,
  /^\.(netrc|pgpass|npmrc|pypirc|htpasswd|git-credentials)$/,
  /^secrets?(\..*)?$/,
  /service[-_]?account.*\.json$/,
  // dbt keeps warehouse passwords in profiles.yml.
  /^profiles\.ya?ml$/,
];

/** nao's own configuration holds database passwords and API keys. */
const CONFIG_FILE_PATTERN = /^nao_config\.ya?ml$/;

/**
 * Why the agent may not access `relativePath` (POSIX, relative to the project folder), or
 * null when it may. The root `tests/` folder holds the reference SQL of the test suite:
 * an agent that could read it would be graded on copying the answer.
 */
export function deniedReason(relativePath: string): string | null {
  const segments = relativePath.split('/').filter((segment) => segment !== '' && segment !== '.');
  if (segments.length === 0) return null;
  if (segments[0]?.toLowerCase() === 'tests') {
    return 'the tests/ folder holds the test suite and its reference answers; it is not available to the agent';
  }
  for (const segment of segments) {
    if (DENIED_FOLDERS.has(segment.toLowerCase())) {
      return `${segment}/ is not available to the agent`;
    }
  }
  const base = (segments[segments.length - 1] ?? '').toLowerCase();
  if (CONFIG_FILE_PATTERN.test(base)) {
    return `${base} holds connection secrets and is not available to the agent; the databases are described in the system prompt`;
  }
  if (SECRET_FILE_PATTERNS.some((pattern) => pattern.test(base))) {
    return `${base} looks like a secrets file and is not available to the agent`;
  }
  return null;
}

export type ResolvedContextPath =
  | {
      success: true;
      /** Real absolute path, symlinks resolved. */
      absolute: string;
      /** POSIX path relative to the project folder ('.' for the folder itself). */
      relative: string;
      kind: 'file' | 'directory';
      size: number;
    }
  | { success: false; error: string };

/**
 * Resolves a path the model gave against the project folder, refusing anything that
 * leaves it (`..`, absolute paths, symlinks pointing outside) or that `deniedReason` refuses,
 * both as written and after symlinks are resolved.
 * `projectDir` must already be a real path (see `createAgentContext`).
 */
export async function resolveContextPath(options: {
  projectDir: string;
  requested: string | undefined;
  /** A further rule of this project (files row security hides). */
  hidden?: HiddenContext | undefined;
}): Promise<ResolvedContextPath> {
  const denied = (relative: string) => deniedReason(relative) ?? options.hidden?.(relative) ?? null;
  const { projectDir } = options;
  const requested = (options.requested ?? '').trim();
  if (requested.includes('\0')) return { success: false, error: 'the path contains a NUL character' };
  if (path.isAbsolute(requested) || /^[a-zA-Z]:[\\/]/.test(requested) || requested.startsWith('~')) {
    return {
      success: false,
      error: `"${requested}" is not a relative path; give paths relative to the project folder (e.g. "RULES.md", "docs/")`,
    };
  }
  const lexical = path.resolve(projectDir, requested.replaceAll('\\', '/'));
  const lexicalRelative = relativeInside(projectDir, lexical);
  if (lexicalRelative === null) {
    return { success: false, error: `"${requested}" is outside the project folder` };
  }
  const lexicalDenied = denied(lexicalRelative);
  if (lexicalDenied !== null) return { success: false, error: `"${requested}": ${lexicalDenied}` };

  let real: string;
  try {
    real = await realpath(lexical);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      return { success: false, error: `"${requested}" does not exist; use list to see the available files` };
    }
    return { success: false, error: `"${requested}" cannot be opened (${code ?? 'unknown error'})` };
  }
  const realRelative = relativeInside(projectDir, real);
  if (realRelative === null) {
    return { success: false, error: `"${requested}" points outside the project folder` };
  }
  const realDenied = denied(realRelative);
  if (realDenied !== null) return { success: false, error: `"${requested}": ${realDenied}` };

  const info = await stat(real);
  if (!info.isFile() && !info.isDirectory()) {
    return { success: false, error: `"${requested}" is neither a file nor a folder` };
  }
  return {
    success: true,
    absolute: real,
    relative: realRelative,
    kind: info.isDirectory() ? 'directory' : 'file',
    size: info.size,
  };
}

/** POSIX path of `target` relative to `root`, or null when `target` is not inside `root`. */
export function relativeInside(root: string, target: string): string | null {
  const relative = path.relative(root, target);
  if (relative === '') return '.';
  if (relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative)) return null;
  return relative.split(path.sep).join('/');
}
