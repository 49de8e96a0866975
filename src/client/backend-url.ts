import { UsageError } from '../errors/index.js';

/**
 * The canonical spelling of a backend URL, which stored credentials are keyed by:
 * scheme, lower-case host, port only when not the default, path without trailing slash.
 * `http://LOCALHOST:5005/` and `http://localhost:5005` are the same backend.
 */
export function normalizeBackendUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw invalid(raw, 'it is not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw invalid(raw, `${url.protocol}// is not http or https`);
  if (url.username !== '' || url.password !== '')
    throw invalid(raw, 'it must not contain a user name or password');
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.protocol}//${url.host}${path}`;
}

/** `path` (starting with `/`) under the backend URL. */
export function backendEndpoint(backendUrl: string, path: string): string {
  return `${normalizeBackendUrl(backendUrl)}${path}`;
}

function invalid(raw: string, why: string): UsageError {
  return new UsageError({
    code: 'INVALID_BACKEND_URL',
    message: `The backend URL "${raw}" is not usable: ${why}. Pass one like http://localhost:5005 with --backend or BACKEND_URL.`,
  });
}
