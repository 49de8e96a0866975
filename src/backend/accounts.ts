import { isAPIError } from 'better-auth/api';
import { type AddressLimiter, createAddressLimiter, DEFAULT_SIGN_UP_LIMITS } from './address-limiter.js';
import { CLIENT_ADDRESS_HEADER, type NaoAuth } from './auth.js';
import type { Invites } from './invites.js';
import type { AttemptOutcome, LoginLimiter } from './login-limiter.js';
import { createPasswordQueue, type PasswordQueue, PasswordQueueFullError } from './password-queue.js';

export interface PublicUser {
  id: string;
  email: string;
  name: string;
}

export interface SessionInfo {
  user: PublicUser;
  /** The session's token (what the CLI sends as a bearer token). */
  token: string;
  expiresAt: Date;
  /** Cookies the library wants set (a refreshed session cookie). */
  cookies: string[];
}

/** The Hono environment of routes behind the session gate, which sets `c.get('session')`. */
export type SessionEnv = { Variables: { session: SessionInfo } };

export type AccountResult =
  | { success: true; token: string; user: PublicUser; cookies: string[] }
  | { success: false; status: 400 | 401 | 403 | 409 | 429 | 503; error: string; retryAfterSeconds?: number };

/** Who is asking: the peer address (for limits and the session record) and the user agent. */
export interface RequestOrigin {
  address: string | null;
  userAgent: string | null;
}

/** The first account is the owner's: it may invite others and run any reference SQL. */
export type AccountRole = 'owner' | 'member';

export interface Accounts {
  /** The first account signs up freely; later ones need an invite unless sign-up is open. */
  signUp(options: {
    email: string;
    password: string;
    name?: string;
    invite?: string;
    origin: RequestOrigin;
  }): Promise<AccountResult>;
  role(userId: string): Promise<AccountRole>;
  /** Refused before the password is checked when the account or the address is rate-limited. */
  signIn(options: { email: string; password: string; origin: RequestOrigin }): Promise<AccountResult>;
  /** The session of a request, from its session cookie or `Authorization: Bearer` token. */
  session(headers: Headers): Promise<SessionInfo | null>;
  /** Revokes the request's session; returns the cookies that clear it in a browser. */
  signOut(headers: Headers): Promise<{ revoked: boolean; cookies: string[] }>;
  /** A new session for a user who approved a CLI log-in in the browser. */
  createSession(options: {
    userId: string;
    origin: RequestOrigin;
  }): Promise<{ token: string; user: PublicUser } | null>;
}

const MAX_SIGN_UPS_WAITING = 16;
const INVALID_CREDENTIALS = 'Invalid email or password.';
const ACCOUNT_EXISTS = 'An account with this email already exists. Log in instead.';

/**
 * The account operations nao's routes need, over the authentication library: it hashes
 * passwords (scrypt), stores sessions and reads cookies and bearer tokens; nao adds the
 * per-account and per-address limit on failed log-ins, the per-address limit on sign-ups and
 * plain-language errors.
 */
export function createAccounts(options: {
  auth: NaoAuth;
  limiter: LoginLimiter;
  /** Sign-ups per address, in memory; default DEFAULT_SIGN_UP_LIMITS. */
  signUpLimiter?: AddressLimiter;
  /** Where every password hash waits its turn; default createPasswordQueue(). */
  passwordQueue?: PasswordQueue;
  invites: Invites;
  /** Anyone may sign up (NAO_ALLOW_SIGNUP=1), not only the first account and invited people. */
  openSignUp?: boolean;
  log?: (line: string) => void;
}): Accounts {
  const { auth, limiter } = options;
  const log = options.log ?? (() => {});
  const signUps = options.signUpLimiter ?? createAddressLimiter(DEFAULT_SIGN_UP_LIMITS);
  const passwords = options.passwordQueue ?? createPasswordQueue();
  const { invites } = options;
  let ownerId: string | null = null;
  const findOwner = async (): Promise<string | null> => {
    if (ownerId !== null) return ownerId;
    const context = await auth.$context;
    const [first] = await context.adapter.findMany<{ id: string }>({
      model: 'user',
      sortBy: { field: 'createdAt', direction: 'asc' },
      limit: 1,
    });
    ownerId = first?.id ?? null;
    return ownerId;
  };
  // Sign-ups one at a time: two first sign-ups at once must not both skip the invite. The
  // line is bounded like the password queue's.
  let signUpTurn: Promise<unknown> = Promise.resolve();
  let signUpsWaiting = 0;

  async function signUpNow({
    email,
    password,
    name,
    invite,
    origin,
  }: Parameters<Accounts['signUp']>[0]): Promise<AccountResult> {
    // Every attempt counts, a refused one too: probing which emails have accounts is limited alike.
    if (origin.address !== null && origin.address !== '') {
      const allowance = signUps.check(origin.address);
      if (!allowance.allowed) {
        log(`sign-up refused for ${email.trim()} from ${origin.address}: too many sign-ups`);
        return tooMany('sign-ups from this address', allowance.retryAfterSeconds);
      }
      signUps.record(origin.address);
    }
    const owner = await findOwner();
    const invited = owner !== null && invite !== undefined && invite !== '' && (await invites.valid(invite));
    if (owner !== null && !options.openSignUp && !invited) {
      log(`sign-up refused for ${email.trim()}: no valid invite`);
      return {
        success: false,
        status: 403,
        error:
          invite === undefined || invite === ''
            ? "Sign-up on this server needs an invite: ask the server's owner for an invite link."
            : 'This invite is unknown, used or expired: ask the owner for a new invite link.',
      };
    }
    try {
      const { headers, response } = await passwords.run(() =>
        auth.api.signUpEmail({
          body: { email: email.trim(), password, name: name?.trim() || defaultName(email) },
          headers: originHeaders(origin),
          returnHeaders: true,
        }),
      );
      if (invited) await invites.consume(invite);
      if (owner === null) ownerId = response.user.id;
      log(`signed up ${response.user.email}${owner === null ? ' (owner: the first account)' : ''}`);
      if (response.token === null)
        return { success: false, status: 400, error: 'The account was created but not signed in; log in.' };
      return signedIn(response.token, response.user, headers);
    } catch (error) {
      if (error instanceof PasswordQueueFullError) return busy(error);
      if (!isAPIError(error)) throw error;
      const code = (error.body as { code?: string } | undefined)?.code;
      if (code === 'USER_ALREADY_EXISTS' || code === 'USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL') {
        return { success: false, status: 409, error: ACCOUNT_EXISTS };
      }
      return { success: false, status: 400, error: sentence(messageOf(error)) };
    }
  }

  return {
    async signUp(input) {
      if (signUpsWaiting >= MAX_SIGN_UPS_WAITING) {
        return busy(new PasswordQueueFullError(Math.ceil(signUpsWaiting / 2)));
      }
      signUpsWaiting++;
      const turn = signUpTurn.then(() => signUpNow(input)).finally(() => signUpsWaiting--);
      signUpTurn = turn.catch(() => {});
      return turn;
    },

    async role(userId) {
      return (await findOwner()) === userId ? 'owner' : 'member';
    },

    async signIn({ email, password, origin }) {
      const attempt = { email, address: origin.address };
      const from = origin.address ?? 'unknown address';
      const reservation = await limiter.reserve(attempt);
      if (!reservation.allowed) {
        log(
          `log-in refused for ${email.trim()} from ${from}: too many failed log-ins (${reservation.scope})`,
        );
        return tooMany(
          `failed log-ins ${reservation.scope === 'account' ? 'for this account' : 'from this address'}`,
          reservation.retryAfterSeconds,
        );
      }
      let outcome: AttemptOutcome = 'none';
      try {
        const { headers, response } = await passwords.run(() =>
          auth.api.signInEmail({
            body: { email: email.trim(), password },
            headers: originHeaders(origin),
            returnHeaders: true,
          }),
        );
        outcome = 'success';
        log(`logged in ${response.user.email} with a password from ${from}`);
        return signedIn(response.token, response.user, headers);
      } catch (error) {
        if (error instanceof PasswordQueueFullError) return busy(error);
        if (!isAPIError(error)) throw error;
        const status = error.statusCode;
        if (status === 401 || status === 403) {
          outcome = 'failure';
          log(`failed log-in for ${email.trim()} from ${from}`);
          return { success: false, status: 401, error: INVALID_CREDENTIALS };
        }
        return { success: false, status: 400, error: sentence(messageOf(error)) };
      } finally {
        await reservation.settle(outcome);
      }
    },

    async session(headers) {
      const { headers: out, response } = await auth.api.getSession({ headers, returnHeaders: true });
      if (response === null) return null;
      return {
        user: publicUser(response.user),
        token: response.session.token,
        expiresAt: new Date(response.session.expiresAt),
        cookies: out.getSetCookie(),
      };
    },

    async signOut(headers) {
      const current = await auth.api.getSession({ headers });
      if (current === null) return { revoked: false, cookies: [] };
      const { headers: out } = await auth.api.signOut({ headers, returnHeaders: true });
      log(`logged out ${current.user.email}`);
      return { revoked: true, cookies: out.getSetCookie() };
    },

    async createSession({ userId, origin }) {
      const context = await auth.$context;
      const user = await context.internalAdapter.findUserById(userId);
      if (user === null) return null;
      const session = await context.internalAdapter.createSession(userId, false, {
        ipAddress: origin.address ?? '',
        userAgent: origin.userAgent ?? '',
      });
      log(`logged in ${user.email} through the browser approval (CLI)`);
      return { token: session.token, user: publicUser(user) };
    },
  };
}

function originHeaders(origin: RequestOrigin): Headers {
  const headers = new Headers();
  if (origin.address !== null) headers.set(CLIENT_ADDRESS_HEADER, origin.address);
  if (origin.userAgent !== null) headers.set('user-agent', origin.userAgent);
  return headers;
}

/** A 429 for `what` (e.g. "sign-ups from this address"), saying when to try again. */
function tooMany(what: string, retryAfterSeconds: number): AccountResult {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  return {
    success: false,
    status: 429,
    error: `Too many ${what}. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
    retryAfterSeconds,
  };
}

function busy(error: PasswordQueueFullError): AccountResult {
  return { success: false, status: 503, error: error.message, retryAfterSeconds: error.retryAfterSeconds };
}

function signedIn(token: string, user: PublicUser, headers: Headers): AccountResult {
  return { success: true, token, user: publicUser(user), cookies: headers.getSetCookie() };
}

function publicUser(user: { id: string; email: string; name: string }): PublicUser {
  return { id: user.id, email: user.email, name: user.name };
}

function defaultName(email: string): string {
  const local = email.trim().split('@')[0] ?? '';
  return local === '' ? email.trim() : local;
}

function messageOf(error: { message: string; body?: unknown }): string {
  const body = error.body as { message?: unknown } | undefined;
  return typeof body?.message === 'string' && body.message !== '' ? body.message : error.message;
}

function sentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}
