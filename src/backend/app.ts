import { getConnInfo } from '@hono/node-server/conninfo';
import { type Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { csrf } from 'hono/csrf';
import { HTTPException } from 'hono/http-exception';
import { secureHeaders } from 'hono/secure-headers';
import { z } from 'zod';
import type { RunJobs } from '../app-runs/index.js';
import { messageOf } from '../errors/index.js';
import { type ProjectRuntime, runTestRequest } from '../test-run/index.js';
import type { AccountResult, Accounts, RequestOrigin, SessionEnv } from './accounts.js';
import { createAddressLimiter } from './address-limiter.js';
import { registerAppRunRoutes } from './app-run-routes.js';
import { registerChatApi, registerChatPage } from './chat-routes.js';
import type { ChatStore } from './chat-store.js';
import { type CliLoginCodes, isCodeChallenge } from './cli-login-codes.js';
import type { Invites } from './invites.js';
import { isLoopbackRedirect, withQuery } from './loopback-redirect.js';
import { ORIGINAL_CLI_LOGIN_PUBLIC_ROUTES, registerOriginalCliLogin } from './original-cli-login.js';
import {
  type AuthorizeParams,
  authorizePage,
  homePage,
  invitePage,
  loginPage,
  messagePage,
  safeNext,
  signupPage,
} from './pages.js';
import { checkReferenceAccess } from './reference-access.js';
import { parseJsonBody, readJson } from './request-body.js';
import { runtimeModel } from './runtime-model.js';
import { parseTestRunBody } from './test-run-body.js';
import { testRunWire } from './test-run-wire.js';
import { createPathScrubber } from './wire-paths.js';

export interface BackendAppOptions {
  accounts: Accounts;
  cliCodes: CliLoginCodes;
  invites: Invites;
  /** The server's own URL, for the invite links. */
  baseUrl: string;
  /** The project's databases, agent context and models, opened once by the server. */
  runtime: ProjectRuntime;
  projectName: string;
  version: string;
  log?: (line: string) => void;
  /**
   * Host names the server answers to (`Host` header); others get 421. A loopback server
   * sets this so a web page cannot reach it through a rebound DNS name. Null: any host.
   */
  allowedHostnames?: readonly string[] | null;
  /** Largest request body taken, in bytes; default MAX_BODY_BYTES. */
  maxBodyBytes?: number;
  /** `POST /api/test/run` requests in flight per account; default MAX_TEST_RUNS_PER_ACCOUNT. */
  maxTestRunsPerAccount?: number;
  /** The chat page and its API; without it only the account pages and the test API are served. */
  chat?: { store: ChatStore; assetsDir?: string; runJobs?: RunJobs };
}

/**
 * No route takes more: a test run's prompt and SQL, a chat question or a form are kilobytes.
 * Bodies are buffered before parsing, so without a bound one request could take gigabytes.
 */
export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * `POST /api/test/run` requests one account may have running at once: well above what
 * `nao test --threads` sends, far below what would crowd out every other user.
 */
export const MAX_TEST_RUNS_PER_ACCOUNT = 16;

/**
 * Failed CLI log-in code redemptions from one address, on both token routes: the failed
 * log-ins' limit per address. Codes cannot be guessed; this keeps a guesser from trying.
 */
export const CLI_CODE_FAILURE_LIMITS = Object.freeze({ max: 20, windowMs: 15 * 60 * 1000 });

const UNAUTHORIZED =
  'Unauthorized: log in with `nao login`, or send a session cookie or an `Authorization: Bearer` token.';

/** Routes that answer without a session; everything else needs one. */
const PUBLIC_ROUTES = new Set([
  'GET /api/health',
  'POST /api/auth/login',
  'POST /api/auth/signup',
  // better-auth's own routes, which the original nao's CLI logs in with.
  'POST /api/auth/sign-in/email',
  'POST /api/auth/sign-up/email',
  'POST /api/cli/token',
  'GET /login',
  'POST /login',
  'GET /signup',
  'POST /signup',
  // Without a session it redirects to the log-in page itself, keeping the whole link.
  'GET /cli/authorize',
  // The original nao's browser log-in (original-cli-login.ts).
  ...ORIGINAL_CLI_LOGIN_PUBLIC_ROUTES,
]);

const credentialsSchema = z.object(
  {
    email: z.string({ error: 'email is required' }).trim().min(1, 'email is required'),
    password: z.string({ error: 'password is required' }).min(1, 'password is required'),
    name: z.string({ error: 'name must be a string' }).optional(),
    /** An invite code from the owner (needed after the first account unless sign-up is open). */
    invite: z.string({ error: 'invite must be a string' }).max(200).optional(),
  },
  { error: 'the body must be a JSON object' },
);

const tokenRequestSchema = z.object(
  {
    code: z.string({ error: 'code is required' }).min(1, 'code is required'),
    codeVerifier: z.string({ error: 'codeVerifier is required' }).min(1, 'codeVerifier is required'),
    redirectUri: z.string({ error: 'redirectUri is required' }).min(1, 'redirectUri is required'),
  },
  { error: 'the body must be a JSON object' },
);

/**
 * The backend of `nao chat`: the JSON API (`/api/health`, log-in, CLI token exchange,
 * `POST /api/test/run`) and the server-rendered sign-up, log-in, home and CLI approval pages.
 */
export function createBackendApp(options: BackendAppOptions): Hono<SessionEnv> {
  const { accounts, cliCodes, runtime } = options;
  const log = options.log ?? (() => {});
  const app = new Hono<SessionEnv>();
  const scrubPaths = createPathScrubber({
    projectDirs: [runtime.config.projectDir, runtime.agentContext.projectDir],
  });

  app.onError((error, c) => {
    if (error instanceof HTTPException) {
      const message =
        error.status === 403 ? 'Forbidden: this form was not sent from a nao page.' : error.message;
      if (isApiPath(c.req.path)) return c.json({ error: message }, error.status);
      return c.html(messagePage({ title: 'Request refused', message }), error.status);
    }
    // The stack goes to the server's log only; clients get the message.
    log(
      `error on ${c.req.method} ${c.req.path}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    const message = `Internal server error: ${messageOf(error)}`;
    if (isApiPath(c.req.path)) return c.json({ error: message }, 500);
    return c.html(messagePage({ title: 'Something went wrong', message }), 500);
  });

  if (options.allowedHostnames) {
    const allowed = new Set(options.allowedHostnames.map((host) => host.toLowerCase()));
    app.use('*', async (c, next) => {
      const host = hostnameOf(c.req.header('host'));
      if (host === null || !allowed.has(host)) {
        return c.json(
          { error: `This nao backend does not answer to host ${c.req.header('host') ?? '(none)'}.` },
          421,
        );
      }
      return next();
    });
  }

  // Before the session gate: the largest bodies come from whoever is not logged in. A declared
  // length over the limit is refused before a byte is read; a streamed body once it passes it.
  const maxBodyBytes = options.maxBodyBytes ?? MAX_BODY_BYTES;
  app.use(
    '*',
    bodyLimit({
      maxSize: maxBodyBytes,
      onError: (c) => {
        // The rest of the body is not read: the connection closes instead of draining it.
        c.header('Connection', 'close');
        const message = `The request body is larger than ${Math.round(maxBodyBytes / 1024)} KB, the most this server takes.`;
        if (isApiPath(c.req.path)) return c.json({ error: message }, 413);
        return c.html(messagePage({ title: 'Request too large', message }), 413);
      },
    }),
  );

  app.use(
    '*',
    secureHeaders({
      xFrameOptions: 'DENY',
      referrerPolicy: 'no-referrer',
      contentSecurityPolicy: {
        defaultSrc: ["'none'"],
        // The chat page is a bundled script and stylesheet served from this origin.
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        connectSrc: ["'self'"],
        imgSrc: ["'self'", 'data:'],
        // The approval form redirects to the CLI's loopback server; browsers check redirects too.
        formAction: ["'self'", 'http://127.0.0.1:*', 'http://localhost:*'],
        frameAncestors: ["'none'"],
        baseUri: ["'none'"],
      },
    }),
  );
  // Form posts must come from this server's own pages (the session cookie is SameSite=Lax too).
  // The API needs no such check: it only takes application/json, which no other site can send
  // without a CORS preflight this server never grants.
  const sameOriginForms = csrf();
  app.use('*', (c, next) => (isApiPath(c.req.path) ? next() : sameOriginForms(c, next)));

  // Session gate: public routes pass, API routes answer 401, pages redirect to the log-in page.
  app.use('*', async (c, next) => {
    if (PUBLIC_ROUTES.has(`${c.req.method} ${c.req.path}`)) return next();
    const session = await accounts.session(c.req.raw.headers);
    if (session === null) {
      return isApiPath(c.req.path) ? c.json({ error: UNAUTHORIZED }, 401) : loginRedirect(c);
    }
    for (const cookie of session.cookies) c.header('Set-Cookie', cookie, { append: true });
    c.set('session', session);
    return next();
  });

  // Error answers never show the server's folders (the log keeps them whole).
  app.use('/api/*', async (c, next) => {
    await next();
    if (c.res.status < 400 || !isJson(c.res.headers.get('content-type') ?? undefined)) return;
    const text = await c.res.text();
    const headers = new Headers(c.res.headers);
    headers.delete('content-length');
    c.res = new Response(scrubPaths(text), { status: c.res.status, headers });
  });

  app.use('/api/*', async (c, next) => {
    // A DELETE (cancel a run) has no body; cross-site pages cannot send one without a preflight.
    const takesBody = c.req.method !== 'GET' && c.req.method !== 'HEAD' && c.req.method !== 'DELETE';
    // The original nao's `nao logout` posts better-auth's sign-out with a bearer token and no body.
    const bodilessSignOut = c.req.path === '/api/auth/sign-out' && isBodiless(c.req.raw.headers);
    if (takesBody && !bodilessSignOut && !isJson(c.req.header('content-type'))) {
      return c.json({ error: 'Send the body as JSON (Content-Type: application/json).' }, 415);
    }
    return next();
  });

  // ---- JSON API -------------------------------------------------------------------------

  app.get('/api/health', (c) =>
    c.json({ status: 'ok', service: 'nao', version: options.version, project: options.projectName }),
  );

  // Sign-up and log-in with a JSON body; `answer` shapes the reply (nao's own or better-auth's).
  type Answer = (c: Context<SessionEnv>, result: AccountResult) => Response;
  const signUpRoute = (answer: Answer) => async (c: Context<SessionEnv>) => {
    const body = await parseJsonBody(c, credentialsSchema, { fields: true });
    if (!body.success) return body.response;
    return answer(c, await accounts.signUp({ ...body.data, origin: originOf(c) }));
  };
  const signInRoute = (answer: Answer) => async (c: Context<SessionEnv>) => {
    const body = await parseJsonBody(c, credentialsSchema, { fields: true });
    if (!body.success) return body.response;
    const { email, password } = body.data;
    return answer(c, await accounts.signIn({ email, password, origin: originOf(c) }));
  };

  app.post('/api/auth/signup', signUpRoute(accountResponse));
  app.post('/api/auth/login', signInRoute(accountResponse));
  // The same two under better-auth's standard paths and answers (`{redirect, token, user}`, errors
  // as `{code, message}`), as the original nao's CLI and backend use them; the session cookie
  // they set is what that CLI sends back.
  app.post('/api/auth/sign-in/email', signInRoute(betterAuthResponse));
  app.post('/api/auth/sign-up/email', signUpRoute(betterAuthResponse));

  // The owner hands out invites; the link opens the sign-up page with the code filled in.
  const issueInvite = async (c: Context<SessionEnv>) => {
    const user = c.get('session').user;
    if ((await accounts.role(user.id)) !== 'owner') return null;
    const { code, expiresAt } = await options.invites.issue(user.id);
    log(`${user.email} created an invite`);
    return { code, expiresAt, url: `${options.baseUrl}/signup?invite=${encodeURIComponent(code)}` };
  };
  app.post('/api/auth/invites', async (c) => {
    const invite = await issueInvite(c);
    if (invite === null)
      return c.json({ error: "Only the server's owner (its first account) can invite." }, 403);
    return c.json({ ...invite, expiresAt: invite.expiresAt.toISOString() }, 201);
  });

  app.get('/api/auth/session', (c) => {
    const { user, expiresAt } = c.get('session');
    return c.json({ user, expiresAt: expiresAt.toISOString() });
  });
  // better-auth's path and shape, where a client of the original's log-in learns its account.
  app.get('/api/auth/get-session', (c) => {
    const { user, expiresAt } = c.get('session');
    return c.json({ session: { userId: user.id, expiresAt: expiresAt.toISOString() }, user });
  });

  app.post('/api/auth/logout', async (c) => {
    const { revoked, cookies } = await accounts.signOut(c.req.raw.headers);
    for (const cookie of cookies) c.header('Set-Cookie', cookie, { append: true });
    return c.json({ success: true, revoked });
  });
  // better-auth's own path and answer, where the original nao's CLI logs out.
  app.post('/api/auth/sign-out', async (c) => {
    const { cookies } = await accounts.signOut(c.req.raw.headers);
    for (const cookie of cookies) c.header('Set-Cookie', cookie, { append: true });
    return c.json({ success: true });
  });

  // Both token routes count failed redemptions per address and refuse past the limit.
  const codeFailures = createAddressLimiter(CLI_CODE_FAILURE_LIMITS);
  const limitRedemption = async <T extends { success: boolean }>(
    c: Context<SessionEnv>,
    redeem: () => Promise<T>,
  ): Promise<{ limited: Response } | { result: T }> => {
    const key = originOf(c).address ?? 'unknown';
    const allowance = codeFailures.check(key);
    if (!allowance.allowed) {
      c.header('Retry-After', String(allowance.retryAfterSeconds));
      const error = `Too many invalid log-in codes from this address; try again in ${allowance.retryAfterSeconds} seconds.`;
      return { limited: c.json({ error }, 429) };
    }
    const result = await redeem();
    if (!result.success) codeFailures.record(key);
    return { result };
  };

  app.post('/api/cli/token', async (c) => {
    const body = await parseJsonBody(c, tokenRequestSchema, { fields: true });
    if (!body.success) return body.response;
    const limited = await limitRedemption(c, () => cliCodes.redeem(body.data));
    if ('limited' in limited) return limited.limited;
    const redeemed = limited.result;
    if (!redeemed.success) {
      log(`refused a CLI log-in code: ${redeemed.error}`);
      return c.json({ error: redeemed.error }, 400);
    }
    const session = await accounts.createSession({ userId: redeemed.userId, origin: originOf(c) });
    if (session === null) return c.json({ error: 'The account of this log-in code no longer exists.' }, 400);
    return c.json({ token: session.token, user: session.user });
  });

  registerOriginalCliLogin(app, {
    accounts,
    cliCodes,
    log,
    limitRedemption,
    createSession: (c, userId) => accounts.createSession({ userId, origin: originOf(c) }),
  });

  // Requests in flight per account (user id, so every token of one account counts together).
  const testRunsInFlight = new Map<string, number>();
  const maxTestRunsPerAccount = options.maxTestRunsPerAccount ?? MAX_TEST_RUNS_PER_ACCOUNT;
  app.post('/api/test/run', async (c, next) => {
    const userId = c.get('session').user.id;
    const inFlight = testRunsInFlight.get(userId) ?? 0;
    if (inFlight >= maxTestRunsPerAccount) {
      c.header('Retry-After', '5');
      return c.json(
        {
          error: `This account has ${inFlight} test runs in flight, the most this server runs at once for one account; send fewer at a time (nao test --threads).`,
        },
        429,
      );
    }
    testRunsInFlight.set(userId, inFlight + 1);
    try {
      await next();
    } finally {
      const left = (testRunsInFlight.get(userId) ?? 1) - 1;
      if (left <= 0) testRunsInFlight.delete(userId);
      else testRunsInFlight.set(userId, left);
    }
  });
  app.post('/api/test/run', async (c) => {
    const raw = await readJson(c);
    if (!raw.success) return raw.response;
    const parsed = parseTestRunBody(raw.data);
    if (!parsed.success) return c.json({ error: parsed.error, fields: parsed.fields }, 400);
    const { request } = parsed;
    const modelString = `${request.model.provider}:${request.model.modelId}`;
    const model = runtimeModel(runtime, modelString);
    if (!model.success) return c.json({ error: model.error, fields: { model: [model.error] } }, 400);
    if (request.judgeModel != null) {
      const judge = runtimeModel(runtime, `${request.judgeModel.provider}:${request.judgeModel.modelId}`);
      if (!judge.success) return c.json({ error: judge.error, fields: { judgeModel: [judge.error] } }, 400);
    }
    const user = c.get('session').user;
    if (request.sql != null && (await accounts.role(user.id)) !== 'owner') {
      const access = await checkReferenceAccess({
        runtime,
        sql: request.sql,
        databaseName: request.databaseId ?? null,
      });
      if (!access.allowed) {
        log(`refused reference SQL from ${user.email}: ${access.reason}`);
        return c.json({ error: access.reason, fields: { sql: [access.reason] } }, 403);
      }
    }
    const signal = c.req.raw.signal;
    const started = Date.now();
    const elapsed = () => `${Date.now() - started} ms`;
    const logRun = (what: string) =>
      log(`test run for ${c.get('session').user.email}: ${modelString}${what}`);
    try {
      const response = await runTestRequest({ runtime, request, signal });
      logRun(`, ${response.toolCalls.length} tool call(s), ${elapsed()}`);
      return c.json(testRunWire(response));
    } catch (error) {
      if (signal.aborted) {
        logRun(` aborted after ${elapsed()} (the client disconnected)`);
        // Nobody reads this answer; 499 (client closed request) keeps the access logs honest.
        return new Response(JSON.stringify({ error: 'The client disconnected; the run was aborted.' }), {
          status: 499,
          headers: { 'content-type': 'application/json' },
        });
      }
      logRun(` failed after ${elapsed()}: ${messageOf(error)}`);
      return c.json({ error: messageOf(error) }, 500);
    }
  });

  if (options.chat) registerChatApi(app, { store: options.chat.store, runtime, log, scrubPaths });
  if (options.chat?.runJobs) {
    registerAppRunRoutes(app, {
      runtime,
      scrubPaths,
      jobs: options.chat.runJobs,
      version: options.version,
      log,
      roleOf: (userId) => accounts.role(userId),
    });
  }

  app.all('/api/*', (c) => c.json({ error: `Not found: ${c.req.method} ${c.req.path}` }, 404));

  // ---- Pages ----------------------------------------------------------------------------

  // With the chat served, signing up or logging in (which lands on `/` unless told otherwise)
  // goes straight on to it; the account page (log-out, the owner's invites) stays at /account.
  const accountPage = async (c: Context<SessionEnv>) => {
    const user = c.get('session').user;
    const owner = (await accounts.role(user.id)) === 'owner';
    return c.html(homePage({ user, projectName: options.projectName, owner }));
  };
  app.get('/', (c) => (options.chat ? c.redirect('/chat/', 303) : accountPage(c)));
  app.get('/account', accountPage);

  app.post('/invites', async (c) => {
    const invite = await issueInvite(c);
    if (invite === null) {
      const message = "Only the server's owner (its first account) can invite.";
      return c.html(messagePage({ title: 'Not allowed', message }), 403);
    }
    return c.html(invitePage(invite), 201);
  });

  app.get('/login', async (c) => {
    const next = safeNext(c.req.query('next'));
    if ((await accounts.session(c.req.raw.headers)) !== null) return c.redirect(next, 303);
    return c.html(loginPage({ next }));
  });

  app.post('/login', async (c) => {
    const form = await c.req.parseBody();
    const next = safeNext(form.next);
    const email = typeof form.email === 'string' ? form.email : '';
    const password = typeof form.password === 'string' ? form.password : '';
    if (email.trim() === '' || password === '') {
      return c.html(loginPage({ next, email, error: 'Enter your email and password.' }), 400);
    }
    const result = await accounts.signIn({ email, password, origin: originOf(c) });
    accountHeaders(c, result);
    if (!result.success) return c.html(loginPage({ next, email, error: result.error }), result.status);
    return c.redirect(next, 303);
  });

  app.get('/signup', (c) =>
    c.html(signupPage({ next: safeNext(c.req.query('next')), invite: c.req.query('invite') ?? '' })),
  );

  app.post('/signup', async (c) => {
    const form = await c.req.parseBody();
    const next = safeNext(form.next);
    const email = typeof form.email === 'string' ? form.email : '';
    const name = typeof form.name === 'string' ? form.name : '';
    const password = typeof form.password === 'string' ? form.password : '';
    const invite = typeof form.invite === 'string' ? form.invite.slice(0, 200) : '';
    if (email.trim() === '' || password === '') {
      return c.html(signupPage({ next, email, name, invite, error: 'Enter an email and a password.' }), 400);
    }
    const result = await accounts.signUp({ email, password, name, invite, origin: originOf(c) });
    accountHeaders(c, result);
    if (!result.success)
      return c.html(signupPage({ next, email, name, invite, error: result.error }), result.status);
    return c.redirect(next, 303);
  });

  app.post('/logout', async (c) => {
    const { cookies } = await accounts.signOut(c.req.raw.headers);
    for (const cookie of cookies) c.header('Set-Cookie', cookie, { append: true });
    return c.redirect('/login', 303);
  });

  app.get('/cli/authorize', async (c) => {
    const params = authorizeParams({
      state: c.req.query('state'),
      redirectUri: c.req.query('redirect_uri'),
      codeChallenge: c.req.query('code_challenge'),
      method: c.req.query('code_challenge_method'),
    });
    if (!params.success)
      return c.html(messagePage({ title: 'Invalid CLI log-in link', message: params.error }), 400);
    const session = await accounts.session(c.req.raw.headers);
    if (session === null) return loginRedirect(c);
    return c.html(authorizePage({ user: session.user, params: params.params }));
  });

  app.post('/cli/authorize', async (c) => {
    const form = await c.req.parseBody();
    const params = authorizeParams({
      state: form.state,
      redirectUri: form.redirect_uri,
      codeChallenge: form.code_challenge,
      method: 'S256',
    });
    if (!params.success)
      return c.html(messagePage({ title: 'Invalid CLI log-in link', message: params.error }), 400);
    const { state, redirectUri, codeChallenge } = params.params;
    const user = c.get('session').user;
    if (form.decision !== 'approve') {
      log(`${user.email} denied a CLI log-in`);
      return c.redirect(withQuery(redirectUri, { error: 'access_denied', state }), 303);
    }
    const code = await cliCodes.issue({ userId: user.id, redirectUri, codeChallenge });
    log(`${user.email} approved a CLI log-in`);
    return c.redirect(withQuery(redirectUri, { code, state }), 303);
  });

  if (options.chat) registerChatPage(app, { assetsDir: options.chat.assetsDir });

  app.all('*', (c) => c.html(messagePage({ title: 'Not found', message: `Nothing at ${c.req.path}.` }), 404));

  return app;
}

/** What an account result sets besides its body: the session cookies, or Retry-After when limited. */
function accountHeaders(c: Context<SessionEnv>, result: AccountResult): void {
  if (result.success) for (const cookie of result.cookies) c.header('Set-Cookie', cookie, { append: true });
  else if (result.retryAfterSeconds !== undefined) c.header('Retry-After', String(result.retryAfterSeconds));
}

function accountResponse(c: Context<SessionEnv>, result: AccountResult): Response {
  accountHeaders(c, result);
  if (result.success) return c.json({ token: result.token, user: result.user });
  const { error, retryAfterSeconds } = result;
  return c.json({ error, ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }) }, result.status);
}

const BETTER_AUTH_CODES: Record<400 | 401 | 403 | 409 | 429 | 503, string> = {
  400: 'INVALID_REQUEST',
  401: 'INVALID_EMAIL_OR_PASSWORD',
  403: 'FORBIDDEN',
  409: 'USER_ALREADY_EXISTS',
  429: 'TOO_MANY_REQUESTS',
  503: 'SERVICE_UNAVAILABLE',
};

/** An account result in better-auth's own response shape. */
function betterAuthResponse(c: Context<SessionEnv>, result: AccountResult): Response {
  accountHeaders(c, result);
  if (result.success) return c.json({ redirect: false, token: result.token, user: result.user });
  const code = BETTER_AUTH_CODES[result.status];
  return c.json({ code, message: result.error, error: result.error }, result.status);
}

function authorizeParams(input: {
  state: unknown;
  redirectUri: unknown;
  codeChallenge: unknown;
  method: unknown;
}): { success: true; params: AuthorizeParams } | { success: false; error: string } {
  const { state, redirectUri, codeChallenge, method } = input;
  if (typeof state !== 'string' || state.length < 16 || state.length > 256) {
    return { success: false, error: 'The link has no valid state. Run `nao login` again.' };
  }
  if (typeof redirectUri !== 'string' || !isLoopbackRedirect(redirectUri)) {
    return {
      success: false,
      error:
        'The link must send the log-in back to the nao CLI on this computer (an http://127.0.0.1:<port> address).',
    };
  }
  if (typeof codeChallenge !== 'string' || !isCodeChallenge(codeChallenge)) {
    return { success: false, error: 'The link has no valid code challenge. Run `nao login` again.' };
  }
  if (method !== undefined && method !== 'S256') {
    return { success: false, error: 'Only the S256 code challenge method is supported.' };
  }
  return { success: true, params: { state, redirectUri, codeChallenge } };
}

/** To the log-in page, which comes back to a GET's own URL afterwards (to home after a form post). */
function loginRedirect(c: Context<SessionEnv>): Response {
  const url = new URL(c.req.url);
  const next = c.req.method === 'GET' ? `${url.pathname}${url.search}` : '/';
  return c.redirect(`/login?next=${encodeURIComponent(next)}`, 303);
}

function originOf(c: Context<SessionEnv>): RequestOrigin {
  let address: string | null = null;
  try {
    address = getConnInfo(c).remote.address ?? null;
  } catch {
    // Not served by the Node adapter (in-memory requests): no peer address.
  }
  return { address, userAgent: c.req.header('user-agent') ?? null };
}

function isJson(contentType: string | undefined): boolean {
  return /^application\/json\b/i.test(contentType ?? '');
}

/** No body at all: no length, or a length of 0, and no chunked body. */
function isBodiless(headers: Headers): boolean {
  const length = headers.get('content-length');
  return (length === null || length === '0') && headers.get('transfer-encoding') === null;
}

function isApiPath(path: string): boolean {
  return path === '/api' || path.startsWith('/api/');
}

function hostnameOf(host: string | undefined): string | null {
  if (host === undefined || host === '') return null;
  try {
    return new URL(`http://${host}`).hostname.toLowerCase();
  } catch {
    return null;
  }
}
