import type { Context, Hono } from 'hono';
import { z } from 'zod';
import type { Accounts, SessionEnv } from './accounts.js';
import type { CliLoginCodes } from './cli-login-codes.js';
import { cliLoginPage, messagePage } from './pages.js';
import { parseJsonBody } from './request-body.js';

/** The routes below that answer without a session (the page redirects to the log-in itself). */
export const ORIGINAL_CLI_LOGIN_PUBLIC_ROUTES = ['GET /cli-login', 'POST /api/cli-auth/token'] as const;

/** The original backend's answer to a refused code, word for word (its CLI prints its own message). */
export const ORIGINAL_INVALID_CODE = 'Invalid or expired authorization code';

/** The original CLI's state is `secrets.token_urlsafe(32)`; anything far longer is no CLI's. */
const MAX_STATE_LENGTH = 512;

const tokenBodySchema = z.object(
  { code: z.string({ error: 'code is required' }).min(1, 'code is required') },
  { error: 'the body must be a JSON object' },
);

export interface OriginalCliLoginOptions {
  accounts: Accounts;
  cliCodes: CliLoginCodes;
  log: (line: string) => void;
  /**
   * Runs a code redemption under the server's limit of failed redemptions per address; the
   * response it returns (429) when the address is over it. Shared with nao's own token route.
   */
  limitRedemption: <T extends { success: boolean }>(
    c: Context<SessionEnv>,
    redeem: () => Promise<T>,
  ) => Promise<{ limited: Response } | { result: T }>;
  /** The session of a redeemed code; null when its account is gone. */
  createSession: (c: Context<SessionEnv>, userId: string) => Promise<{ token: string } | null>;
}

/**
 * The original nao's browser log-in, served beside nao's own (`/cli/authorize`), so its CLI
 * logs in to `nao chat` unchanged: it opens `/cli-login?port=<p>&state=<s>`; the logged-in user
 * approves; the browser goes to `http://127.0.0.1:<p>/callback?code=…&state=…` (only ever that
 * loopback address: the page takes a port, never a URL); the CLI posts `{code}` to
 * `/api/cli-auth/token` and gets `{token}`, the session it then sends as a bearer token.
 */
export function registerOriginalCliLogin(app: Hono<SessionEnv>, options: OriginalCliLoginOptions): void {
  const { accounts, cliCodes, log } = options;

  app.post('/api/cli-auth/token', async (c) => {
    const body = await parseJsonBody(c, tokenBodySchema, { fields: true });
    if (!body.success) return body.response;
    const redeemed = await options.limitRedemption(c, () =>
      cliCodes.redeemWithoutVerifier({ code: body.data.code }),
    );
    if ('limited' in redeemed) return redeemed.limited;
    const { result } = redeemed;
    if (!result.success) {
      log(`refused a log-in code of the original CLI: ${result.error}`);
      return c.json({ error: ORIGINAL_INVALID_CODE }, 400);
    }
    const session = await options.createSession(c, result.userId);
    if (session === null) return c.json({ error: ORIGINAL_INVALID_CODE }, 400);
    return c.json({ token: session.token });
  });

  app.get('/cli-login', async (c) => {
    const params = cliLoginParams({ port: c.req.query('port'), state: c.req.query('state') });
    if (!params.success)
      return c.html(messagePage({ title: 'Invalid CLI log-in link', message: params.error }), 400);
    const session = await accounts.session(c.req.raw.headers);
    if (session === null) {
      const url = new URL(c.req.url);
      return c.redirect(`/login?next=${encodeURIComponent(`${url.pathname}${url.search}`)}`, 303);
    }
    return c.html(cliLoginPage({ user: session.user, ...params.params }));
  });

  app.post('/cli-login', async (c) => {
    const form = await c.req.parseBody();
    const params = cliLoginParams({ port: form.port, state: form.state });
    if (!params.success)
      return c.html(messagePage({ title: 'Invalid CLI log-in link', message: params.error }), 400);
    const { port, state } = params.params;
    const callback = callbackUrl(port);
    const user = c.get('session').user;
    if (form.decision !== 'approve') {
      log(`${user.email} denied a CLI log-in (original nao CLI)`);
      return c.redirect(`${callback}?${new URLSearchParams({ error: 'access_denied', state })}`, 303);
    }
    const code = await cliCodes.issue({ userId: user.id, redirectUri: callback, codeChallenge: null });
    log(`${user.email} approved a CLI log-in (original nao CLI)`);
    return c.redirect(`${callback}?${new URLSearchParams({ code, state })}`, 303);
  });
}

/** Where the original CLI waits: its callback server on 127.0.0.1 (`cli/nao_core/auth.py`). */
export function callbackUrl(port: number): string {
  return `http://127.0.0.1:${port}/callback`;
}

/** `port` and `state` as the original's page takes them: a port 1–65535 in digits, a state of some text. */
export function cliLoginParams(input: {
  port: unknown;
  state: unknown;
}): { success: true; params: { port: number; state: string } } | { success: false; error: string } {
  const { port, state } = input;
  const number = typeof port === 'string' && /^\d{1,5}$/.test(port) ? Number(port) : 0;
  if (number < 1 || number > 65535) {
    return {
      success: false,
      error: 'The link has no valid port of the nao CLI waiting on this computer. Run `nao login` again.',
    };
  }
  if (typeof state !== 'string' || state === '' || state.length > MAX_STATE_LENGTH) {
    return { success: false, error: 'The link has no valid state. Run `nao login` again.' };
  }
  return { success: true, params: { port: number, state } };
}
