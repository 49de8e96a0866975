import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { NaoError } from '../errors/index.js';
import type { TestRunRequest } from '../test-run/index.js';
import { backendEndpoint, normalizeBackendUrl } from './backend-url.js';
import type { StoredLogin } from './credential-store.js';

/** The backend is down or not where the URL says: the one message users see for it. */
export class BackendUnreachableError extends NaoError {
  readonly backendUrl: string;

  constructor(options: { backendUrl: string; cause?: unknown }) {
    super({
      code: 'BACKEND_UNREACHABLE',
      message: `Cannot reach the nao backend at ${options.backendUrl} — start it with \`nao chat\` or use --local`,
      cause: options.cause,
    });
    this.backendUrl = options.backendUrl;
  }
}

export interface BackendCallOptions {
  backendUrl: string;
}

export interface BackendReply {
  status: number;
  /** The parsed JSON body; null when the body was empty or not JSON. */
  body: unknown;
  /** `name=value` of every cookie the answer set (a session cookie after a log-in). */
  cookies: string[];
}

const HEALTH_TIMEOUT_MS = 10_000;

/**
 * One JSON call to the backend. A refused or dropped connection is a BackendUnreachableError;
 * an aborted `signal` rejects with its reason; any HTTP status is returned for the caller to read.
 * Plain node:http rather than fetch: fetch gives up on response headers after 5 minutes, and an
 * agent run may legitimately take longer (the runner's --timeout is the limit that applies).
 */
export async function callBackend(
  options: BackendCallOptions & {
    method: 'GET' | 'POST';
    path: string;
    token?: string;
    /** Sent as the Cookie header: the original nao's backend knows sessions by cookie only. */
    cookie?: string;
    body?: unknown;
    signal?: AbortSignal;
    timeoutMs?: number;
  },
): Promise<BackendReply> {
  const backendUrl = normalizeBackendUrl(options.backendUrl);
  const url = new URL(backendEndpoint(backendUrl, options.path));
  const payload = options.body === undefined ? undefined : Buffer.from(JSON.stringify(options.body));
  const headers: Record<string, string | number> = { accept: 'application/json' };
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  if (options.cookie !== undefined && options.cookie !== '') headers.cookie = options.cookie;
  if (payload !== undefined) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = payload.length;
  }
  options.signal?.throwIfAborted();

  return new Promise<BackendReply>((resolve, reject) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const request = send(url, { method: options.method, headers });
    const onAbort = () => request.destroy(options.signal?.reason);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const timer =
      options.timeoutMs === undefined
        ? undefined
        : setTimeout(
            () => request.destroy(new Error(`no answer within ${options.timeoutMs} ms`)),
            options.timeoutMs,
          );
    const settle = () => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    };
    request.on('error', (error) => {
      settle();
      if (options.signal?.aborted) reject(options.signal.reason);
      else reject(new BackendUnreachableError({ backendUrl, cause: error }));
    });
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', (error) => request.destroy(error));
      response.on('end', () => {
        settle();
        let body: unknown = null;
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          // An empty or non-JSON body reads as null.
        }
        const cookies = (response.headers['set-cookie'] ?? []).map((line) => line.split(';')[0]!.trim());
        resolve({ status: response.statusCode ?? 0, body, cookies });
      });
    });
    request.end(payload);
  });
}

/** The `error` (or better-auth's `message`) of a JSON error body, else a description of the status. */
export function errorOf(reply: BackendReply): string {
  const body = reply.body as { error?: unknown; message?: unknown } | null;
  for (const text of [body?.error, body?.message]) if (typeof text === 'string' && text !== '') return text;
  return `the backend answered HTTP ${reply.status}`;
}

/**
 * Checks that a backend answers at the URL before anything else is sent to it. `nao chat`
 * says who it is at `/api/health`; the original nao's backend has no such route (404), so a
 * 404 is no error: the log-in and the runs then say what is wrong, if anything is.
 */
export async function checkBackend(
  options: BackendCallOptions,
): Promise<{ project: string; version: string }> {
  const reply = await callBackend({
    backendUrl: options.backendUrl,
    method: 'GET',
    path: '/api/health',
    timeoutMs: HEALTH_TIMEOUT_MS,
  });
  const body = reply.body as { service?: unknown; project?: unknown; version?: unknown } | null;
  if (reply.status === 404 && isFastifyNotFound(reply.body)) return { project: '', version: '' };
  if (reply.status !== 200 || body?.service !== 'nao') {
    throw new NaoError({
      code: 'NOT_A_NAO_BACKEND',
      message: `${normalizeBackendUrl(options.backendUrl)} does not look like a nao backend (GET /api/health answered HTTP ${reply.status}). Check --backend or BACKEND_URL, or start one with \`nao chat\`.`,
    });
  }
  return { project: String(body.project ?? ''), version: String(body.version ?? '') };
}

/** The 404 body of the original nao's backend (Fastify): `{statusCode, error, message: "Route GET:… not found"}`. */
function isFastifyNotFound(body: unknown): boolean {
  const record = body as { statusCode?: unknown; message?: unknown } | null;
  return (
    record?.statusCode === 404 && typeof record.message === 'string' && /^Route \w+:/.test(record.message)
  );
}

/**
 * Which browser log-in a backend serves: `nao` (`/cli/authorize` with PKCE, `nao chat`, which
 * serves the original's too) or `original` (the original nao's `/cli-login?port&state`). The
 * probe is `GET /api/health`: only a backend that answers it with Fastify's "Route … not found"
 * 404, as the original's does, is taken for the original; anything else gets nao's flow.
 */
export type CliLoginFlow = 'nao' | 'original';

export async function cliLoginFlowOf(options: BackendCallOptions): Promise<CliLoginFlow> {
  const reply = await callBackend({
    backendUrl: options.backendUrl,
    method: 'GET',
    path: '/api/health',
    timeoutMs: HEALTH_TIMEOUT_MS,
  });
  return reply.status === 404 && isFastifyNotFound(reply.body) ? 'original' : 'nao';
}

export type LoginResult =
  | { success: true; login: StoredLogin }
  | { success: false; status: number; error: string };

/**
 * Email + password log-in; a wrong password or a rate limit is a failed result, not an
 * exception. A backend without nao's `/api/auth/login` (the original nao's) is asked at
 * better-auth's standard route, which `nao chat` answers too.
 */
export async function loginWithPassword(
  options: BackendCallOptions & { email: string; password: string; now?: () => Date },
): Promise<LoginResult> {
  const body = { email: options.email, password: options.password };
  const post = (path: string) => callBackend({ backendUrl: options.backendUrl, method: 'POST', path, body });
  let reply = await post('/api/auth/login');
  if (reply.status === 404) reply = await post('/api/auth/sign-in/email');
  return loginResult(reply, options.now);
}

/** Exchanges the one-time code of the browser approval for a session. */
export async function exchangeCliCode(
  options: BackendCallOptions & { code: string; codeVerifier: string; redirectUri: string; now?: () => Date },
): Promise<LoginResult> {
  const reply = await callBackend({
    backendUrl: options.backendUrl,
    method: 'POST',
    path: '/api/cli/token',
    body: { code: options.code, codeVerifier: options.codeVerifier, redirectUri: options.redirectUri },
  });
  return loginResult(reply, options.now);
}

/**
 * The original nao's exchange: `POST /api/cli-auth/token {code}` answers `{token}`, a session
 * that later calls send as a bearer token. It names no account, so the account is asked of
 * better-auth's `GET /api/auth/get-session` with that token (left empty when it does not say).
 */
export async function exchangeOriginalCliCode(
  options: BackendCallOptions & { code: string; now?: () => Date },
): Promise<LoginResult> {
  const reply = await callBackend({
    backendUrl: options.backendUrl,
    method: 'POST',
    path: '/api/cli-auth/token',
    body: { code: options.code },
  });
  const token = (reply.body as { token?: unknown } | null)?.token;
  if (reply.status !== 200 || typeof token !== 'string' || token === '') {
    return { success: false, status: reply.status, error: errorOf(reply) };
  }
  const session = await callBackend({
    backendUrl: options.backendUrl,
    method: 'GET',
    path: '/api/auth/get-session',
    token,
  });
  const email = (session.body as { user?: { email?: unknown } } | null)?.user?.email;
  return {
    success: true,
    login: {
      token,
      email: session.status === 200 && typeof email === 'string' ? email : '',
      savedAt: (options.now ?? (() => new Date()))().toISOString(),
    },
  };
}

/**
 * Revokes a session on the backend; `revoked` is false when it was already invalid. A backend
 * without nao's `/api/auth/logout` (the original's) is asked at better-auth's `/api/auth/sign-out`.
 */
export async function revokeSession(
  options: BackendCallOptions & { token: string },
): Promise<{ revoked: boolean }> {
  const post = (path: string) =>
    callBackend({ backendUrl: options.backendUrl, method: 'POST', path, token: options.token, body: {} });
  let reply = await post('/api/auth/logout');
  // The original nao's backend has better-auth's route only (its CLI's `nao logout` calls it).
  if (reply.status === 404 && isFastifyNotFound(reply.body)) reply = await post('/api/auth/sign-out');
  if (reply.status === 401) return { revoked: false };
  if (reply.status !== 200) {
    throw new NaoError({ code: 'LOGOUT_FAILED', message: `Log-out failed: ${errorOf(reply)}.` });
  }
  return { revoked: (reply.body as { revoked?: unknown } | null)?.revoked !== false };
}

/**
 * `POST /api/test/run` with a session token (and its cookie); the caller reads the status. The
 * body also validates under the original nao's schema: `sql` is always a string ("" for none),
 * and an absent optional field is left out, never `null` (its `z.string().optional()` rejects null).
 */
export function postTestRun(
  options: BackendCallOptions & {
    token: string;
    cookie?: string | undefined;
    request: TestRunRequest;
    signal: AbortSignal;
  },
): Promise<BackendReply> {
  const { request } = options;
  return callBackend({
    backendUrl: options.backendUrl,
    method: 'POST',
    path: '/api/test/run',
    token: options.token,
    cookie: options.cookie,
    body: { ...withoutAbsent(request), sql: request.sql ?? '' },
    signal: options.signal,
  });
}

function withoutAbsent(request: TestRunRequest): Partial<TestRunRequest> {
  return Object.fromEntries(
    Object.entries(request).filter(([, value]) => value !== null && value !== undefined),
  ) as Partial<TestRunRequest>;
}

function loginResult(reply: BackendReply, now: () => Date = () => new Date()): LoginResult {
  const body = reply.body as { token?: unknown; user?: { email?: unknown } } | null;
  if (reply.status === 200 && typeof body?.token === 'string' && body.token !== '') {
    return {
      success: true,
      login: {
        token: body.token,
        email: typeof body.user?.email === 'string' ? body.user.email : '',
        savedAt: now().toISOString(),
        ...(reply.cookies.length === 0 ? {} : { cookie: reply.cookies.join('; ') }),
      },
    };
  }
  return { success: false, status: reply.status, error: errorOf(reply) };
}
