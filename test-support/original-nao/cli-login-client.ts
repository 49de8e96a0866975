import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cliAuthTokenBody } from './backend-schemas.js';

/**
 * The original nao's CLI browser log-in (getnao/nao, cli/nao_core/auth.py: `browser_login`,
 * `_CallbackHandler`, `_exchange_code_for_token`, `apply_stored_auth`), modelled from reading
 * it for the contract tests, as cli-clients.ts models its test client:
 * - a callback server on 127.0.0.1, port 0, that takes `GET /callback` only (404 otherwise),
 *   answers 400 to a wrong `state` and goes on waiting, and stops at the first callback with the
 *   right state: `error=…` (denied) or `code=…`;
 * - the browser opened at `<backend>/cli-login?port=<port>&state=<token_urlsafe(32)>`;
 * - `POST <backend>/api/cli-auth/token` with `{"code": code}`: anything but 200 fails, and a 200
 *   without a `token` string fails; the token is stored, then sent as `Authorization: Bearer`.
 */
export type OriginalLoginOutcome =
  | { success: true; token: string }
  | { success: false; error: string; printed: string };

export interface OriginalCliLoginOptions {
  backendUrl: string;
  /** `webbrowser.open(login_url)`: here the stand-in for the user's browser. */
  openBrowser: (loginUrl: string) => Promise<void>;
  /** `BROWSER_LOGIN_TIMEOUT_SECONDS` is 300; tests wait less. */
  timeoutMs?: number;
}

/** Every callback the model's server received, with the status it answered: for the tests to read. */
export interface OriginalLoginRun {
  outcome: Promise<OriginalLoginOutcome>;
  callbacks: { path: string; status: number }[];
  /** The URL it opened, once known. */
  loginUrl: Promise<string>;
}

export function originalBrowserLogin(options: OriginalCliLoginOptions): OriginalLoginRun {
  const backendUrl = options.backendUrl.replace(/\/+$/, '');
  const callbacks: { path: string; status: number }[] = [];
  let openedUrl: (url: string) => void = () => {};
  const loginUrl = new Promise<string>((resolve) => {
    openedUrl = resolve;
  });

  const outcome = (async (): Promise<OriginalLoginOutcome> => {
    // secrets.token_urlsafe(32): 43 URL-safe characters.
    const state = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url');
    let received: (result: { code: string | null; error: string | null }) => void = () => {};
    const callback = new Promise<{ code: string | null; error: string | null }>((resolve) => {
      received = resolve;
    });
    const server = createServer((request, response) => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      const answer = (status: number) => {
        callbacks.push({ path: `${url.pathname}${url.search}`, status });
        response.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
        response.end(status === 404 ? 'Not Found' : '<!DOCTYPE html><title>nao CLI</title>');
      };
      if (request.method !== 'GET') return answer(501);
      if (url.pathname !== '/callback') return answer(404);
      if ((url.searchParams.get('state') ?? '') !== state) return answer(400);
      const error = url.searchParams.get('error') ?? '';
      if (error !== '') {
        answer(200);
        return received({ code: null, error });
      }
      answer(200);
      received({ code: url.searchParams.get('code') || null, error: null });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    let result: { code: string | null; error: string | null } | 'timeout';
    try {
      const port = (server.address() as AddressInfo).port;
      const url = `${backendUrl}/cli-login?${new URLSearchParams({ port: String(port), state })}`;
      openedUrl(url);
      await options.openBrowser(url);
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), options.timeoutMs ?? 300_000);
      });
      result = await Promise.race([callback, timeout]);
      clearTimeout(timer);
    } finally {
      server.close();
      server.closeAllConnections();
    }
    if (result === 'timeout') return failed('timeout', 'Login timed out. Please try again.');
    if (result.error !== null || result.code === null)
      return failed('denied', 'Login was denied in the browser.');
    return exchangeCodeForToken(backendUrl, result.code);
  })();

  return { outcome, callbacks, loginUrl };
}

async function exchangeCodeForToken(backendUrl: string, code: string): Promise<OriginalLoginOutcome> {
  const body = { code };
  // What it sends passes the original backend's own schema of the route.
  cliAuthTokenBody.parse(body);
  let response: Response;
  try {
    response = await fetch(`${backendUrl}/api/cli-auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  } catch (error) {
    return failed('connection', `Connection error: ${String(error)}`);
  }
  if (response.status !== 200) {
    return failed(
      `HTTP ${response.status}`,
      'Could not complete login: invalid or expired authorization code.',
    );
  }
  // response.json().get("token"): a body that is not an object fails like a missing token.
  const json = (await response.json()) as unknown;
  const token = json !== null && typeof json === 'object' ? (json as { token?: unknown }).token : undefined;
  if (typeof token !== 'string' || token === '') {
    return failed('no token', 'Login succeeded but no session token was received.');
  }
  return { success: true, token };
}

/** `apply_stored_auth`: a stored token goes out as a bearer token, and nothing else does. */
export function originalAuthHeaders(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

/**
 * `nao logout` (cli/nao_core/commands/login.py): `requests.post(f"{url}/api/auth/sign-out",
 * headers={"Authorization": f"Bearer {token}"})`, no body, any answer ignored; then the stored
 * token is deleted. Returns the status, for the tests.
 */
export async function originalLogout(options: { backendUrl: string; token: string }): Promise<number> {
  const response = await fetch(`${options.backendUrl.replace(/\/+$/, '')}/api/auth/sign-out`, {
    method: 'POST',
    headers: { ...originalAuthHeaders(options.token), 'content-length': '0' },
  });
  await response.arrayBuffer();
  return response.status;
}

function failed(error: string, printed: string): OriginalLoginOutcome {
  return { success: false, error, printed };
}
