import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { messageOf, NaoError } from '../errors/index.js';
import {
  type BackendCallOptions,
  type CliLoginFlow,
  cliLoginFlowOf,
  exchangeCliCode,
  exchangeOriginalCliCode,
  type LoginResult,
  loginWithPassword,
} from './backend-api.js';
import { backendEndpoint, normalizeBackendUrl } from './backend-url.js';
import type { StoredLogin } from './credential-store.js';
import type { OpenBrowser } from './open-browser.js';

export const LOGIN_TIMEOUT_MS = 5 * 60 * 1000;
const PASSWORD_ATTEMPTS = 3;

export interface BrowserLoginOptions extends BackendCallOptions {
  openBrowser: OpenBrowser;
  /**
   * The fallback when no browser opens: asks for an email and password; null when nothing
   * can be asked (input closed). Without it, the log-in waits for the link to be opened.
   */
  promptCredentials?: (signal: AbortSignal) => Promise<{ email: string; password: string } | null>;
  /** Where the link and progress messages go. */
  out: NodeJS.WritableStream;
  timeoutMs?: number;
  /** Ctrl-C: the log-in stops with LOGIN_CANCELLED. */
  signal?: AbortSignal;
  now?: () => Date;
  /** Which flow the backend serves; by default asked of it (`cliLoginFlowOf`). */
  flow?: CliLoginFlow;
}

/**
 * `nao login`'s browser flow: a callback server on a random loopback port, the backend's
 * approval page opened with a random `state` and a PKCE challenge; the one-time code that
 * comes back (with the same state) is exchanged for a session. A callback with another state
 * is refused and the wait goes on. With no browser, falls back to an email/password prompt.
 * Against the original nao's backend, which serves only its own flow, the same wait runs that
 * flow: `/cli-login?port&state` opened, the code exchanged at `/api/cli-auth/token`.
 */
export async function browserLogin(options: BrowserLoginOptions): Promise<StoredLogin> {
  const backendUrl = normalizeBackendUrl(options.backendUrl);
  const timeoutMs = options.timeoutMs ?? LOGIN_TIMEOUT_MS;
  const { out } = options;
  const state = randomBytes(32).toString('base64url');
  const verifier = randomBytes(48).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');

  const flow = options.flow ?? (await cliLoginFlowOf({ backendUrl }));

  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  const redirectUri = `http://127.0.0.1:${port}/callback`;
  // The original's page takes the port and sends the code to 127.0.0.1:<port>/callback itself.
  const authorizeUrl =
    flow === 'original'
      ? `${backendEndpoint(backendUrl, '/cli-login')}?${new URLSearchParams({ port: String(port), state })}`
      : `${backendEndpoint(backendUrl, '/cli/authorize')}?${new URLSearchParams({
          state,
          redirect_uri: redirectUri,
          code_challenge: challenge,
          code_challenge_method: 'S256',
        })}`;
  const exchange = (code: string): Promise<LoginResult> =>
    flow === 'original'
      ? exchangeOriginalCliCode({ backendUrl, code, now: options.now })
      : exchangeCliCode({ backendUrl, code, codeVerifier: verifier, redirectUri, now: options.now });

  const stop = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  try {
    return await new Promise<StoredLogin>((resolve, reject) => {
      let finished = false;
      let exchanging = false;
      const finish = (outcome: { login: StoredLogin } | { error: unknown }) => {
        if (finished) return;
        finished = true;
        stop.abort();
        if ('login' in outcome) resolve(outcome.login);
        else reject(outcome.error);
      };

      timer = setTimeout(
        () =>
          finish({
            error: new NaoError({
              code: 'LOGIN_TIMEOUT',
              message: `Timed out after ${describeDuration(timeoutMs)} waiting for the log-in in the browser. Run \`nao login\` again, or pass -u/--username and --password (or NAO_USERNAME / NAO_PASSWORD).`,
            }),
          }),
        timeoutMs,
      );
      const cancelled = () =>
        finish({ error: new NaoError({ code: 'LOGIN_CANCELLED', message: 'Log-in cancelled.' }) });
      if (options.signal?.aborted) cancelled();
      options.signal?.addEventListener('abort', cancelled, { once: true, signal: stop.signal });

      server.on('request', (request, response) => {
        const url = new URL(request.url ?? '/', redirectUri);
        if (request.method !== 'GET' || url.pathname !== '/callback') {
          page(response, 404, 'Not found', 'This is the nao CLI waiting for a log-in.');
          return;
        }
        if (!sameText(url.searchParams.get('state') ?? '', state)) {
          page(
            response,
            400,
            'Log-in refused',
            'This log-in answer does not belong to the nao login running on this computer (its state does not match). Nothing was logged in.',
          );
          out.write('Refused a log-in callback whose state does not match this log-in.\n');
          return;
        }
        if (finished || exchanging) {
          page(response, 409, 'Already handled', 'This log-in was already handled; you can close this tab.');
          return;
        }
        if (url.searchParams.get('error') !== null) {
          page(response, 200, 'Log-in denied', 'You denied the log-in. You can close this tab.');
          finish({
            error: new NaoError({ code: 'LOGIN_DENIED', message: 'The log-in was denied in the browser.' }),
          });
          return;
        }
        const code = url.searchParams.get('code');
        if (code === null || code === '') {
          page(response, 400, 'Log-in failed', 'The answer carries no log-in code. Run `nao login` again.');
          return;
        }
        exchanging = true;
        exchange(code).then(
          (result) => {
            if (result.success) {
              page(
                response,
                200,
                'Logged in',
                `The nao CLI is logged in${result.login.email === '' ? '' : ` as ${result.login.email}`}. You can close this tab.`,
              );
              finish({ login: result.login });
            } else {
              page(response, 400, 'Log-in failed', result.error);
              finish({
                error: new NaoError({ code: 'LOGIN_FAILED', message: `Log-in failed: ${result.error}` }),
              });
            }
          },
          (error: unknown) => {
            page(response, 502, 'Log-in failed', messageOf(error));
            finish({ error });
          },
        );
      });

      out.write(
        `Opening your browser to log in to ${backendUrl}.\nIf it does not open, visit:\n\n  ${authorizeUrl}\n\n`,
      );
      options.openBrowser(authorizeUrl).then(
        (opened) => {
          if (opened || finished || options.promptCredentials === undefined) return;
          passwordFallback({ ...options, backendUrl, signal: stop.signal }).then(finish, (error: unknown) =>
            finish({ error }),
          );
        },
        (error: unknown) => finish({ error }),
      );
    });
  } finally {
    clearTimeout(timer);
    stop.abort();
    server.close();
    server.closeIdleConnections();
    // The browser's connection may linger after the answer page; do not keep the CLI alive for it.
    setTimeout(() => server.closeAllConnections(), 1000).unref();
  }
}

async function passwordFallback(
  options: BrowserLoginOptions & { backendUrl: string; signal: AbortSignal },
): Promise<{ login: StoredLogin } | { error: unknown }> {
  const prompt = options.promptCredentials!;
  options.out.write('No browser could be opened. Open the link above on this computer, or log in here.\n');
  for (let attempt = 1; attempt <= PASSWORD_ATTEMPTS; attempt++) {
    const credentials = await prompt(options.signal);
    if (credentials === null) return { error: options.signal.aborted ? options.signal.reason : noInput() };
    const result = await loginWithPassword({
      backendUrl: options.backendUrl,
      now: options.now,
      ...credentials,
    });
    if (result.success) return { login: result.login };
    options.out.write(`Log-in failed: ${result.error}\n`);
    if (result.status === 429 || attempt === PASSWORD_ATTEMPTS) {
      return { error: new NaoError({ code: 'LOGIN_FAILED', message: `Log-in failed: ${result.error}` }) };
    }
  }
  return { error: noInput() };
}

function noInput(): NaoError {
  return new NaoError({
    code: 'LOGIN_REQUIRED',
    message:
      'No browser could be opened and no email and password could be read. Pass -u/--username and --password (or set NAO_USERNAME / NAO_PASSWORD), or run `nao login` in a terminal.',
  });
}

function page(response: ServerResponse, status: number, title: string, message: string): void {
  const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
  response.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'close',
  });
  response.end(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)} · nao</title></head>` +
      `<body style="font-family: system-ui, sans-serif; margin: 4rem auto; max-width: 32rem">` +
      `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p></body></html>`,
  );
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

function describeDuration(ms: number): string {
  if (ms >= 60_000 && ms % 60_000 === 0) {
    const minutes = ms / 60_000;
    return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  }
  const seconds = Math.round(ms / 100) / 10;
  return `${seconds} second${seconds === 1 ? '' : 's'}`;
}
