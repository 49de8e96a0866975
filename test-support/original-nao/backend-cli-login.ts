import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { cliAuthTokenBody, testRunBody } from './backend-schemas.js';

/**
 * A stand-in for the original nao's backend and web app where its CLI logs in through the
 * browser, built from reading getnao/nao for the contract tests:
 * - apps/backend/src/routes/cli-auth.ts + services/cli-auth.service.ts: `POST /api/cli-auth/authorize`
 *   (a cookie session from the web app only: no `Authorization` header, a trusted `Origin`) mints
 *   a code kept 5 minutes as the verification value `cli-auth:<code>` → user id;
 *   `POST /api/cli-auth/token {code}` deletes it, refuses it once expired (400
 *   `{error: "Invalid or expired authorization code"}`), else creates a session and answers `{token}`;
 *   a body outside its zod schema is Fastify's validation 400.
 * - apps/backend/src/auth.ts: better-auth with the bearer plugin, so `Authorization: Bearer <token>`
 *   is a session like the cookie; `GET /api/auth/get-session` answers `{session, user}` or `null`;
 *   `POST /api/auth/sign-out` ends it.
 * - apps/frontend/src/routes/cli-login.tsx: the page at `/cli-login?port&state`; what its buttons do
 *   is `originalCliLoginPage` below. Any other path off `/api/` is the web app's shell.
 * - `/api/test/run` behind `authMiddleware` (401 `{error: "Unauthorized"}`), answering the recorded
 *   answers (test-support/original-nao/http) with and without `sql`.
 * Every other `/api/` route is Fastify's 404, `/api/health` included.
 */
export interface OriginalBackend {
  url: string;
  /** The web app's session cookie of `email` (the person is logged in to the web app). */
  browserCookie(email: string): string;
  /** Every request: method, path, and the headers the tests check. */
  requests: { method: string; path: string; authorization?: string; body: unknown }[];
  /** Moves the stand-in's clock (codes expire after 5 minutes). */
  advance(ms: number): void;
  close(): Promise<void>;
}

const CODE_TTL_MS = 5 * 60 * 1000;
const SESSION_COOKIE = 'better-auth.session_token';
const HTTP = path.resolve(import.meta.dirname, 'http');

export async function startOriginalBackend(options: { users: string[] }): Promise<OriginalBackend> {
  const recorded = async (name: string) => JSON.parse(await readFile(path.join(HTTP, name), 'utf8'));
  const answer = await recorded('backend-test-run.response.json');
  const answerWithoutSql = await recorded('backend-test-run-no-sql.response.json');
  let offset = 0;
  const now = () => Date.now() + offset;
  const users = new Map(options.users.map((email, index) => [`user-${index + 1}`, email]));
  const sessions = new Map<string, string>(); // token → user id
  const verifications = new Map<string, { value: string; expiresAt: number }>();
  const requests: OriginalBackend['requests'] = [];
  let url = '';

  const newSession = (userId: string) => {
    const token = randomBytes(24).toString('base64url');
    sessions.set(token, userId);
    return token;
  };
  const browserCookies = new Map<string, string>();
  for (const [id, email] of users) browserCookies.set(email, newSession(id));

  /** better-auth's getSession with the bearer plugin: the bearer token, else the session cookie. */
  const sessionOf = (request: IncomingMessage): string | null => {
    const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    const cookie = new RegExp(`(?:^|; )${SESSION_COOKIE}=([^;.]+)`).exec(request.headers.cookie ?? '')?.[1];
    const token = bearer ?? cookie;
    return token !== undefined && sessions.has(token) ? token : null;
  };

  const server: Server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    let body: unknown;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      body = text;
    }
    const route = new URL(request.url ?? '/', 'http://stand-in').pathname;
    requests.push({
      method: request.method ?? '',
      path: request.url ?? '',
      ...(request.headers.authorization === undefined
        ? {}
        : { authorization: request.headers.authorization }),
      body,
    });
    const key = `${request.method} ${route}`;

    if (key === 'POST /api/cli-auth/authorize') {
      if (request.headers.authorization !== undefined)
        return send(response, 403, { error: 'CLI authorization requires a browser session' });
      if (request.headers.origin !== url) return send(response, 403, { error: 'Untrusted origin' });
      const session = sessionOf(request);
      if (session === null) return send(response, 401, { error: 'Unauthorized' });
      const code = randomBytes(32).toString('base64url');
      verifications.set(`cli-auth:${code}`, {
        value: sessions.get(session)!,
        expiresAt: now() + CODE_TTL_MS,
      });
      return send(response, 200, { code });
    }
    if (key === 'POST /api/cli-auth/token') {
      const parsed = cliAuthTokenBody.safeParse(body);
      if (!parsed.success) {
        return send(response, 400, {
          statusCode: 400,
          code: 'FST_ERR_VALIDATION',
          error: 'Bad Request',
          message: 'body/code Invalid input',
        });
      }
      const identifier = `cli-auth:${parsed.data.code}`;
      const verification = verifications.get(identifier);
      verifications.delete(identifier);
      if (verification === undefined || verification.expiresAt < now()) {
        return send(response, 400, { error: 'Invalid or expired authorization code' });
      }
      return send(response, 200, { token: newSession(verification.value) });
    }
    if (key === 'GET /api/auth/get-session') {
      const session = sessionOf(request);
      if (session === null) return send(response, 200, null);
      const userId = sessions.get(session)!;
      return send(response, 200, {
        session: { token: session, userId, expiresAt: new Date(now() + 7 * 86_400_000).toISOString() },
        user: { id: userId, email: users.get(userId), name: users.get(userId)?.split('@')[0] },
      });
    }
    if (key === 'POST /api/auth/sign-out') {
      const session = sessionOf(request);
      if (session === null)
        return send(response, 400, { code: 'FAILED_TO_GET_SESSION', message: 'Failed to get session' });
      sessions.delete(session);
      return send(response, 200, { success: true });
    }
    if (key === 'POST /api/test/run') {
      if (sessionOf(request) === null) return send(response, 401, { error: 'Unauthorized' });
      const parsed = testRunBody.safeParse(body);
      if (!parsed.success)
        return send(response, 400, { statusCode: 400, error: 'Bad Request', message: parsed.error.message });
      return send(response, 200, parsed.data.sql === '' ? answerWithoutSql : answer);
    }
    if (route === '/api' || route.startsWith('/api/')) {
      return send(response, 404, {
        message: `Route ${request.method}:${request.url} not found`,
        error: 'Not Found',
        statusCode: 404,
      });
    }
    // The web app's shell: the page is drawn by its script (see originalCliLoginPage).
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(
      '<!doctype html><html><head><title>nao</title></head><body><div id="root"></div></body></html>',
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    browserCookie: (email) => `${SESSION_COOKIE}=${browserCookies.get(email)}.c2lnbmF0dXJl`,
    requests,
    advance: (ms) => {
      offset += ms;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * What the original web app's `/cli-login` page does in the browser of a logged-in person who
 * presses Authorize or Deny: reads `port` (digits, 1–65535) and `state` from its link; Deny sends
 * the browser to `http://127.0.0.1:<port>/callback?error=access_denied&state=…`; Authorize posts
 * to `/api/cli-auth/authorize` with the session cookie and the page's origin, then sends the
 * browser to `…/callback?code=…&state=…`. Returns the callback URL and how the CLI answered it.
 */
export async function originalCliLoginPage(options: {
  loginUrl: string;
  cookie: string;
  decision: 'authorize' | 'deny';
  /** Runs after the code is minted and before the browser lands on the callback. */
  beforeCallback?: () => void;
}): Promise<{ callback: string; status: number }> {
  const link = new URL(options.loginUrl);
  const page = await fetch(link, { headers: { cookie: options.cookie } });
  if (page.status !== 200) throw new Error(`the web app answered ${page.status} for ${link.pathname}`);
  const port = link.searchParams.get('port') ?? '';
  const state = link.searchParams.get('state');
  if (!/^\d+$/.test(port) || Number(port) < 1 || Number(port) > 65535 || !state) {
    throw new Error('Invalid CLI login request: missing or invalid port or state parameter.');
  }
  const callbackUrl = (params: Record<string, string>) =>
    `http://127.0.0.1:${Number(port)}/callback?${new URLSearchParams(params)}`;
  let callback: string;
  if (options.decision === 'deny') {
    callback = callbackUrl({ error: 'access_denied', state });
  } else {
    const authorized = await fetch(new URL('/api/cli-auth/authorize', link), {
      method: 'POST',
      headers: { cookie: options.cookie, origin: link.origin },
    });
    if (!authorized.ok) throw new Error('Could not authorize the CLI. Please try again.');
    const { code } = (await authorized.json()) as { code: string };
    callback = callbackUrl({ code, state });
  }
  options.beforeCallback?.();
  const landed = await fetch(callback);
  await landed.text();
  return { callback, status: landed.status };
}

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  response.end(JSON.stringify(body));
}
